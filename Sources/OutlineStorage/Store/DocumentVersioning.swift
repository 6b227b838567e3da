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
    ///   - targetName: the version to migrate to; the model's current version when nil (when
    ///     the model names none, the registered version the document is at).
    ///   - metadata: the document's metadata (its version hashes and embedded model).
    ///   - options: the relaxations migration plans are inferred with.
    ///   - file: how messages name the document.
    /// - Throws: ``StorageError``: `missingModel` when no version matches and nothing is
    ///   embedded, `unsupportedVersion` for a document newer than every version,
    ///   `incompatibleModel` for a document whose embedded model shares no entity with the
    ///   target or that was derived from a store's data, `noCurrentVersion` when a target is needed
    ///   and the model names no current version, and `migrationFailed` naming an unknown target version.
    public init(
        metadata: StoreMetadata, model: ModelBundle, targetName: String? = nil,
        options: MigrationOptions = MigrationOptions(), file: String
    ) throws {
        guard
            let found = try Self.find(
                metadata: metadata, model: model, targetName: targetName, options: options,
                file: file, allowingOwnModel: false)
        else {
            preconditionFailure("find returns a versioning unless the document's own model is allowed")
        }
        self = found
    }

    private init(source: Schema, target: Schema, route: MigrationRoute) {
        self.source = source
        self.target = target
        self.route = route
    }

    /// Resolves the source and route for a document with `metadata`, like
    /// ``init(metadata:model:targetName:options:file:)``, or returns nil when `allowingOwnModel`
    /// and the document belongs to no version of `model`: it is then read with its own model,
    /// the one it embeds, or else one derived from its data (Core Data XML stores of other apps).
    ///
    /// Own models are only allowed without a `targetName`; a document newer than every
    /// version of `model` is still an error.
    /// - Throws: as ``init(metadata:model:targetName:options:file:)``.
    public static func find(
        metadata: StoreMetadata, model: ModelBundle, targetName: String? = nil,
        options: MigrationOptions = MigrationOptions(), file: String,
        allowingOwnModel: Bool
    ) throws -> DocumentVersioning? {
        var target: Schema?
        if let targetName {
            guard let named = model.version(named: targetName) else {
                throw StorageError(
                    .migrationFailed, file: file, "there is no model version called \"\(targetName)\"",
                    hint: "Versions are: \(model.versionList).")
            }
            target = named
        } else if let current = model.currentVersionName {
            target = model.version(named: current)
        }
        let ownModel = allowingOwnModel && targetName == nil
        let matches = model.versions(matchingEntityHashes: metadata.versionHashes)
        if let registered = matches.first(where: { $0.name == target?.name }) ?? matches.first {
            // Without a current version, a registered document stays at its version.
            let target = target ?? registered
            return DocumentVersioning(
                source: registered, target: target,
                route: MigrationRoute.find(from: registered, to: target, through: model.versions, options: options))
        }
        if metadata.isSchemaDerived, !metadata.sourceVersionHashes.isEmpty,
            let original = model.versions(matchingEntityHashes: metadata.sourceVersionHashes).first
        {
            throw StorageError(
                .incompatibleModel, file: file,
                "the document was converted from a store of the model \"\(model.name)\" (version \(original.name)) "
                    + "while that model was not at hand; its objects follow a model derived from the store's data",
                hint: "Convert it back to a Core Data XML store, which opens with version \(original.name).")
        }
        guard let embedded = metadata.embeddedSchema else {
            if ownModel { return nil }
            // A store that records no version hashes matches no version of any model.
            let why = metadata.versionHashes.isEmpty ? " (it records no version hashes to match)" : ""
            throw StorageError(
                .missingModel, file: file,
                "no version of the model \"\(model.name)\" matches the document\(why), and the document does not embed its model",
                hint: "Open it with the model it was written with, or with the app that wrote it.")
        }
        if metadata.isSchemaDerived {
            // A derived model is no version of any model: never migrate from it.
            if ownModel { return nil }
            throw StorageError(
                .incompatibleModel, file: file,
                "the document follows a model derived from the data of a store that came without its model, "
                    + "and no version of \"\(model.name)\" matches that store",
                hint: "Open it with the model it embeds, or with the model of the app that wrote the store.")
        }
        let shared = { (schema: Schema) in
            !Set(embedded.entities.map(\.migrationIdentifier)).isDisjoint(with: schema.entities.map(\.migrationIdentifier))
        }
        if ownModel && (target.map { !shared($0) } ?? true) { return nil }
        // A model of its own, by name: a document written with another model (another app's,
        // or one given to `convert --model`) is read with it, not turned into this model's
        // because an entity has the same name. Migrating it is asked for by naming a version.
        if ownModel, !embedded.name.isEmpty, model.version(named: embedded.name) == nil { return nil }
        if target.map(shared) ?? true, let newest = Self.newestIdentifier(model.versions),
            let own = Int(embedded.versionIdentifier), own > newest
        {
            throw StorageError(
                .unsupportedVersion, file: file,
                "the document was written by a newer version of the model (\(embedded.name.isEmpty ? "identifier \(own)" : embedded.name)) than this build knows (newest: \(model.versions.last { Int($0.versionIdentifier) == newest }?.name ?? String(newest)))",
                hint: "Open it with a newer version of Outline; it was left unchanged.")
        }
        guard let target else { throw model.noCurrentVersionError() }
        if !shared(target) {
            throw StorageError(
                .incompatibleModel, file: file,
                "the document's model (\(embedded.name.isEmpty ? "unnamed" : embedded.name)) has no entity in common with \(target.name)",
                hint: "It is not a document of this model; open it with its own model to work with it.")
        }
        return DocumentVersioning(
            source: embedded, target: target,
            route: MigrationRoute.find(from: embedded, to: target, through: model.versions, options: options))
    }

    private static func newestIdentifier(_ versions: [Schema]) -> Int? {
        versions.compactMap { Int($0.versionIdentifier) }.max()
    }

    /// Runs the route on `graph`, turning every failure into a ``StorageError`` that lists the blockers or violations.
    public func migrate(
        _ graph: ObjectGraph, file: String, progress: ((MigrationProgress) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil
    ) throws -> (ObjectGraph, MigrationReport) {
        let result: Migrator.Result
        do {
            result = try route.run(graph, progress: progress, isCancelled: isCancelled)
        } catch let error as EngineError {
            throw StorageError(
                error.code == .cancelled ? .cancelled : .migrationFailed, file: file, at: error.location,
                error.message, hint: error.hint.map { $0 + " The document was left unchanged." }, underlying: error)
        }
        guard let migrated = result.graph else {
            let violations = result.report.violations
            throw StorageError(
                .migrationFailed, file: file, at: "\(source.name) -> \(target.name)",
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
    ///
    /// - Parameter allowingOwnModel: open a document that belongs to no version of `model` with
    ///   its own model instead of failing: the model it embeds, else one derived from its data
    ///   (see ``DocumentVersioning/find(metadata:model:targetName:options:file:allowingOwnModel:)``).
    /// - Parameter path: the document to open.
    /// - Parameter model: every version of the model, and the current one.
    /// - Parameter targetName: the version to migrate to; the model's current version when nil.
    /// - Parameter options: how the store reads and later saves.
    /// - Parameter migrationOptions: the relaxations migration plans are inferred with.
    /// - Parameter progress: called as a migration runs, with its phase and how far it is.
    public static func open(
        _ path: String, model: ModelBundle, targetName: String? = nil, options: Options = Options(),
        migrationOptions: MigrationOptions = MigrationOptions(), allowingOwnModel: Bool = false,
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws -> PersistentStore {
        try open(
            try DocumentFile.open(path, limits: options.limits), model: model, targetName: targetName, options: options,
            migrationOptions: migrationOptions, allowingOwnModel: allowingOwnModel, progress: progress)
    }

    /// Opens the document in `file` with the versions of `model`, as
    /// ``open(_:model:targetName:options:migrationOptions:allowingOwnModel:progress:)-(String,_,_,_,_,_,_)``
    /// does; the file is read once, from its one descriptor.
    public static func open(
        _ file: DocumentFile, model: ModelBundle, targetName: String? = nil, options: Options = Options(),
        migrationOptions: MigrationOptions = MigrationOptions(), allowingOwnModel: Bool = false,
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws -> PersistentStore {
        let path = file.path
        let metadata = try readMetadata(file, limits: options.limits)
        guard
            let versioning = try DocumentVersioning.find(
                metadata: metadata, model: model, targetName: targetName,
                options: migrationOptions, file: path,
                allowingOwnModel: allowingOwnModel)
        else {
            return try open(file, schema: nil, options: options)
        }
        if versioning.isCurrent {
            return try open(file, schema: versioning.target, options: options)
        }
        let old = try open(file, schema: versioning.source, options: options)
        // Opened by a container: migration reports to its monitor and stops when it is cancelled.
        let monitor = LoadMonitor.current
        let reporting: ((MigrationProgress) -> Void)? =
            monitor.map { monitor in
                { step in
                    progress?(step)
                    monitor.report(LoadProgress(migration: step))
                }
            } ?? progress
        let (graph, report) = try versioning.migrate(
            old.context.graph, file: path, progress: reporting,
            isCancelled: monitor.map { _ in { Task.isCancelled } })
        var newMetadata = old.metadata
        newMetadata.embeddedSchema = versioning.target
        newMetadata.versionHashes = versioning.target.entityVersionHashes
        newMetadata.versionIdentifiers = [versioning.target.versionIdentifier]
        let store = PersistentStore(
            context: EditingContext(graph: graph), path: path, format: old.format,
            metadata: newMetadata, options: options)
        store.fingerprint = old.fingerprint
        store.migration = report
        store.hasMetadataChanges = true
        if old.historyState.stored != nil { store.historyState.migratedFrom = versioning.source.name }
        return store
    }
}
