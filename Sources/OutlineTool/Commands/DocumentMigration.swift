import OutlineEngine
import OutlineKit
import OutlineStorage

/// `outline migrate`: previewing and carrying out the migration of a document of any model to
/// one of the model's versions.
public enum DocumentMigration {
    /// The plan to migrate the document at `path` to `targetName` (the current version when nil):
    /// the route and its actions, every blocker and risk, and the data violations and effects
    /// found by running the migration in memory. Nothing is written. With the outline model (no
    /// model named), a document of another model is read with its own model: nothing to migrate.
    ///
    /// - Parameter progress: called as the work moves on (reading, migrating in memory).
    /// - Throws: ``OutlineStorage/StorageError`` when the file cannot be read, its model
    ///   version is unknown, or the target version does not exist.
    public static func preview(
        path: String, model: ModelBundle, targetName: String? = nil,
        options: MigrationOptions = MigrationOptions(),
        progress: ((WorkProgress) -> Void)? = nil
    ) throws -> MigrationPlanReport {
        if targetName == nil && model.currentVersionName == nil { throw model.noCurrentVersionError() }
        let document = try StandardStreams.openDocument(path)
        let path = document.path
        progress?(.reading(path))
        let metadata = try PersistentStore.readMetadata(document)
        guard
            let versioning = try DocumentVersioning.find(
                metadata: metadata, model: model, targetName: targetName,
                options: options, file: path,
                allowingOwnModel: OwnModels.areAllowed(with: model))
        else {
            // Read it all the same: a damaged file is an error, and a derived model is noted.
            let store = try PersistentStore.open(document, schema: nil)
            var report = MigrationPlanReport(file: path, ownModel: OwnModels.name(of: store.schema, derived: OwnModels.isReadWithDerivedModel(store)))
            if let note = OwnModels.derivationNote(store, file: path) { report.notes.append(note) }
            return report
        }
        guard !versioning.isCurrent, versioning.route.isPossible else {
            return MigrationPlanReport(file: path, route: versioning.route, isCurrent: versioning.isCurrent, effects: nil)
        }
        let store = try PersistentStore.open(document, schema: versioning.source)
        let loss = MigrationLoss.canLose(versioning.route) ? MigrationLoss(graph: store.context.graph, route: versioning.route) : nil
        let result: Migrator.Result
        do {
            result = try versioning.route.run(store.context.graph, progress: progress.map { report in { report(.migrating($0)) } })
        } catch let error as EngineError {
            throw StorageError(.migrationFailed, file: path, at: error.location, error.message, hint: error.hint, underlying: error)
        }
        var report = MigrationPlanReport(file: path, route: versioning.route, isCurrent: false, effects: result.report)
        report.loss = loss
        return report
    }

    /// What a migration did.
    public struct Outcome: Sendable {
        /// The document migrated.
        public var file: String
        /// Where the migrated document was written (nil when nothing was written).
        public var output: String?
        /// The backup of the old version, when one was kept.
        public var backup: String?
        /// The version names passed through, source first (empty when already current).
        public var path: [String]
        /// The version the document is at now.
        public var version: String
        /// Whether the document kept an undo history, which a migration drops: its steps belong
        /// to the old version (the backup keeps it).
        public var droppedHistory = false

        /// Whether a migration was done (false when the document was already at the version).
        public var didMigrate: Bool { !path.isEmpty }

        /// One line: what was migrated, through which versions, and where the old version is.
        public func renderText() -> String {
            guard didMigrate else {
                return output.map { "\(file) is already at \(version); copied to \($0).\n" }
                    ?? "\(file) is already at \(version); nothing to do.\n"
            }
            var text = "Migrated \(file) from \(path[0]) to \(version) (\(path.joined(separator: " -> ")))"
            if let output, output != file { text += "; written to \(output)" }
            if let backup { text += "; the old version is kept as \(backup)" }
            if droppedHistory {
                text += ". Its undo history was dropped: the steps belong to \(path[0])"
                if let backup { text += " (\(backup) keeps them)" }
            }
            return text + ".\n"
        }

        /// `{"file", "output", "backup", "migrated", "path", "version", "droppedHistory"}`.
        public func renderJSON() -> String {
            JSONValue.object([
                ("file", .string(file)),
                ("output", .string(output)),
                ("backup", .string(backup)),
                ("migrated", .bool(didMigrate)),
                ("path", .strings(path)),
                ("version", .string(version)),
                ("droppedHistory", .bool(droppedHistory)),
            ]).rendered()
        }
    }

    /// Migrates the document at `path` to `targetName` (the current version when nil), in
    /// place (atomically, keeping `FILE.bak` when `keepsBackup`) or into `output`, in the
    /// document's own format.
    ///
    /// In place, the document's ``OutlineStorage/DocumentLock`` is held from reading to
    /// writing, so an edit saved by another process meanwhile is not lost. The old version is
    /// kept as `FILE.bak`, or `FILE.1.bak`, ... when that name is taken (see ``OutlineStorage/KeptBackup``).
    /// - Parameters:
    ///   - allowingLoss: migrate even when the target version has no place for some of the
    ///     document's data (see ``MigrationLoss``); without it that is an error listing the data.
    ///   - lockTimeout: how many seconds to wait for another process editing the document.
    ///   - progress: called as the work moves on (reading, migrating, writing).
    /// - Throws: ``OutlineStorage/StorageError`` `migrationFailed` listing every blocker or
    ///   data violation (nothing is written), ``OutlineError`` `migrationBlocked` listing the
    ///   data that would be lost, `conflict` when another process edits the
    ///   document for longer than `lockTimeout`, or any error of reading and writing.
    public static func migrate(
        path: String, model: ModelBundle, targetName: String? = nil, output: String? = nil,
        keepsBackup: Bool = true, options: MigrationOptions = MigrationOptions(),
        allowingLoss: Bool = false, lockTimeout: Double = OutlineFile.defaultLockTimeout,
        progress: ((WorkProgress) -> Void)? = nil
    ) throws -> Outcome {
        if let output, output != path, AtomicFile.namesSameFile(path, output) {
            // A link to the document, or another name of it: writing there replaces the
            // document without the backup an in-place migration keeps.
            throw OutlineError(
                .fileExists, file: path,
                "the output \(output) is the document itself (the same file on disk); writing it would replace the document without a backup",
                hint: "Write to another file, or leave out the output to migrate the document in place (its old version is kept as a backup).")
        }
        var lock: DocumentLock?
        if output == nil || output == path {
            lock = try DocumentLock.acquire(path, timeout: lockTimeout)
            _ = try? AtomicFile.removeStaleTemporaries(beside: path, olderThan: 0)
        }
        defer { lock?.release() }
        if targetName == nil && model.currentVersionName == nil { throw model.noCurrentVersionError() }
        progress?(.reading(path))
        if !allowingLoss { try refuseLoss(path: path, model: model, targetName: targetName, options: options) }
        let store = try PersistentStore.open(
            path, model: model, targetName: targetName, migrationOptions: options,
            allowingOwnModel: OwnModels.areAllowed(with: model),
            progress: progress.map { report in { report(.migrating($0)) } })
        let version =
            store.migration == nil && model.version(named: store.schema.name) == nil
            ? "its own model (\(OwnModels.name(of: store.schema, derived: OwnModels.isReadWithDerivedModel(store))))" : store.schema.name
        var outcome = Outcome(file: path, output: nil, backup: nil, path: store.migration?.path ?? [], version: version)
        outcome.droppedHistory = store.migration != nil && store.historyStatus == .notRestored && store.keptHistoryOfOldVersion
        if let output, output != path {
            progress?(.writing(output))
            try store.save(to: output)
            outcome.output = output
        } else if store.migration != nil {
            store.options.keepsBackup = keepsBackup
            progress?(.writing(path))
            try store.save()
            outcome.output = path
            outcome.backup = keepsBackup ? store.keptBackup?.path : nil
        }
        return outcome
    }

    /// Throws the refusal of ``MigrationLoss`` when migrating the document at `path` would
    /// drop data; reads the document only when some step of the route drops anything at all.
    private static func refuseLoss(path: String, model: ModelBundle, targetName: String?, options: MigrationOptions) throws {
        let metadata = try PersistentStore.readMetadata(path)
        guard
            let versioning = try DocumentVersioning.find(
                metadata: metadata, model: model, targetName: targetName,
                options: options, file: path,
                allowingOwnModel: OwnModels.areAllowed(with: model)),
            !versioning.isCurrent, versioning.route.isPossible, MigrationLoss.canLose(versioning.route)
        else { return }
        let source = try PersistentStore.open(path, schema: versioning.source)
        let loss = MigrationLoss(graph: source.context.graph, route: versioning.route)
        if !loss.isEmpty { throw loss.refusal(file: path, target: versioning.target.name) }
    }
}
