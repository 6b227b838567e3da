import Foundation
import OutlineEngine

/// Finds which version of a model a document was written with, and the way to the target version.
///
/// The source model comes from the registered versions (matched by entity version hashes),
/// else from the schema the document embeds. Apple's XML stores embed none, so for them a
/// registered version must match.
public struct DocumentVersioning: Sendable {
    /// The schema the document's data follows.
    public let source: Schema
    /// The version the document should end up in.
    public let target: Schema
    /// The steps from source to target (empty steps and a direct identity plan when they store the same).
    public let route: MigrationRoute

    /// Whether the document is already in the target version (nothing to migrate).
    public var isCurrent: Bool { source.isStorageCompatible(with: target) }

    /// Resolves the source and route for a document with `metadata`.
    ///
    /// - Parameters:
    ///   - model: every registered version and the current one.
    ///   - targetName: the version to migrate to; the model's current version when nil.
    /// - Throws: ``StorageError``: `missingModel` when no version matches and nothing is
    ///   embedded, `unsupportedVersion` for a document newer than every version, and
    ///   `migrationFailed` naming an unknown target version.
    public init(metadata: StoreMetadata, model: ModelBundle, targetName: String? = nil,
                options: MigrationOptions = MigrationOptions(), file: String) throws {
        guard let target = targetName.map({ model.version(named: $0) }) ?? model.current else {
            throw StorageError(.migrationFailed, file: file, "there is no model version called \"\(targetName ?? "")\"",
                               hint: "Versions are: \(model.versions.map(\.name).joined(separator: ", ")).")
        }
        let matches = model.versions(matchingEntityHashes: metadata.versionHashes)
        let source: Schema
        if let registered = matches.first(where: { $0.name == target.name }) ?? matches.first {
            source = registered
        } else if let embedded = metadata.embeddedSchema {
            if let newest = Self.newestIdentifier(model.versions), let own = Int(embedded.versionIdentifier), own > newest {
                throw StorageError(.unsupportedVersion, file: file,
                                   "the document was written by a newer version of the model (\(embedded.name.isEmpty ? "identifier \(own)" : embedded.name)) than this build knows (newest: \(model.current.name))",
                                   hint: "Open it with a newer version of Outline; it was left unchanged.")
            }
            let shared = Set(embedded.entities.map(\.migrationIdentifier)).intersection(target.entities.map(\.migrationIdentifier))
            if shared.isEmpty {
                throw StorageError(.incompatibleModel, file: file,
                                   "the document's model (\(embedded.name.isEmpty ? "unnamed" : embedded.name)) has no entity in common with \(target.name)",
                                   hint: "It is not a document of this model; open it with its own model.")
            }
            source = embedded
        } else {
            throw StorageError(.missingModel, file: file,
                               "no version of the model \"\(model.name)\" matches the document, and the document does not embed its model",
                               hint: "Open it with the model it was written with, or with the app that wrote it.")
        }
        self.source = source
        self.target = target
        self.route = MigrationRoute.find(from: source, to: target, through: model.versions, options: options)
    }

    private static func newestIdentifier(_ versions: [Schema]) -> Int? {
        versions.compactMap { Int($0.versionIdentifier) }.max()
    }

    /// Runs the route on `graph`, turning every failure into a ``StorageError`` that lists the blockers or violations.
    public func migrate(_ graph: ObjectGraph, file: String, progress: ((MigrationProgress) -> Void)? = nil,
                        isCancelled: (() -> Bool)? = nil) throws -> (ObjectGraph, MigrationReport) {
        let result: Migrator.Result
        do {
            result = try route.run(graph, progress: progress, isCancelled: isCancelled)
        } catch let error as EngineError {
            throw StorageError(error.code == .cancelled ? .cancelled : .migrationFailed, file: file, at: error.location,
                               error.message, hint: error.hint.map { $0 + " The document was left unchanged." }, underlying: error)
        }
        guard let migrated = result.graph else {
            let violations = result.report.violations
            throw StorageError(.migrationFailed, file: file, at: "\(source.name) -> \(target.name)",
                               "the data does not fit the new version (\(violations.count) \(violations.count == 1 ? "problem" : "problems"))",
                               hint: "Fix the objects named below in the old version, then migrate again; the document was left unchanged.",
                               underlying: EngineError(.migrationFailed, "data violations", details: violations.map(\.description)))
        }
        return (migrated, result.report)
    }
}

extension PersistentStore {
    /// Opens the document at `path` with the versions of `model`, migrating it in memory to the
    /// current version (or `targetName`) when it was written with another one.
    ///
    /// The file is not touched: ``migration`` reports what was done, ``hasChanges`` is true, and
    /// the next ``save()`` writes the new version.
    public static func open(_ path: String, model: ModelBundle, targetName: String? = nil, options: Options = Options(),
                            migrationOptions: MigrationOptions = MigrationOptions(),
                            progress: ((MigrationProgress) -> Void)? = nil) throws -> PersistentStore {
        let metadata = try readMetadata(path, limits: options.limits)
        let versioning = try DocumentVersioning(metadata: metadata, model: model, targetName: targetName,
                                                options: migrationOptions, file: path)
        if versioning.isCurrent {
            return try open(path, schema: versioning.target, options: options)
        }
        let old = try open(path, schema: versioning.source, options: options)
        // Opened by a container: migration reports to its monitor and stops when it is cancelled.
        let monitor = LoadMonitor.current
        let reporting: ((MigrationProgress) -> Void)? = monitor.map { monitor in { step in
            progress?(step)
            monitor.report(LoadProgress(migration: step))
        } } ?? progress
        let (graph, report) = try versioning.migrate(old.context.graph, file: path, progress: reporting,
                                                     isCancelled: monitor.map { _ in { Task.isCancelled } })
        var newMetadata = old.metadata
        newMetadata.embeddedSchema = versioning.target
        newMetadata.versionHashes = versioning.target.entityVersionHashes
        newMetadata.versionIdentifiers = [versioning.target.versionIdentifier]
        let store = PersistentStore(context: EditingContext(graph: graph), path: path, format: old.format,
                                    metadata: newMetadata, options: options)
        store.fingerprint = old.fingerprint
        store.migration = report
        store.hasMetadataChanges = true
        return store
    }
}
