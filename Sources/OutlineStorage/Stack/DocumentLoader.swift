import OutlineEngine

/// Reads documents for a ``DocumentContainer`` off its actor, with progress and cancellation.
enum DocumentLoader {
    /// What reading a document produced, handed from the task that read it to the container.
    struct Loaded: Sendable {
        var metadata: StoreMetadata
        var format: DocumentFormat
        var fingerprint: FileFingerprint?
        var migration: MigrationReport?
        var hasMetadataChanges: Bool
        /// The undo history the document keeps, read and its digest checked, for the store
        /// made over the objects read.
        var history: HistoryState
    }

    /// Reads the document at `path` with `model` (migrating an older one in memory), yielding
    /// each step to `progress` and finishing it at the end, whatever happens.
    @concurrent
    static func load(
        _ path: String, model: DocumentModel, options: PersistentStore.Options,
        progress: AsyncStream<LoadProgress>.Continuation?
    ) async throws -> (GraphSnapshot, Loaded) {
        defer { progress?.finish() }
        return try read(path, model: model, options: options) { progress?.yield($0) }
    }

    /// ``load(_:model:options:progress:)``, then `preparing` run on the objects read, in the
    /// same task (off the caller's actor).
    @concurrent
    static func load<Prepared: Sendable>(
        _ path: String, model: DocumentModel, options: PersistentStore.Options,
        progress: AsyncStream<LoadProgress>.Continuation?,
        preparing: @Sendable (GraphSnapshot) -> Prepared
    ) async throws -> (GraphSnapshot, Loaded, Prepared) {
        let (snapshot, loaded) = try await load(path, model: model, options: options, progress: progress)
        try Task.checkCancellation(file: path)
        let prepared = preparing(snapshot)
        return (snapshot, loaded, prepared)
    }

    /// Reads the document at `path` with `model` in the current task, calling `report` with
    /// each step on the thread doing the work.
    ///
    /// Nothing is written, not even the removal of leftovers of killed saves: a cancelled or
    /// failed load leaves the folder as it was.
    /// - Throws: ``StorageError``: `cancelled` when the task is cancelled (checked after each
    ///   block read and each column or 65,536 objects decoded), and the errors of
    ///   ``PersistentStore`` opening.
    static func read(
        _ path: String, model: DocumentModel, options: PersistentStore.Options,
        report: @escaping @Sendable (LoadProgress) -> Void
    ) throws -> (GraphSnapshot, Loaded) {
        let monitor = LoadMonitor(file: path, report: report)
        return try LoadMonitor.$current.withValue(monitor) {
            try monitor.checkCancellation()
            var options = options
            options.removesStaleTemporaries = false
            let store = try model.open(path, options: options)
            try monitor.checkCancellation()
            store.carryHistory()
            let loaded = Loaded(
                metadata: store.metadata, format: store.format, fingerprint: store.fingerprint,
                migration: store.migration, hasMetadataChanges: store.hasMetadataChanges, history: store.historyState)
            return (store.context.graph.snapshot(), loaded)
        }
    }

    /// The fingerprint of the file at `path` now; nil when it is missing or cannot be read.
    @concurrent
    static func fingerprint(of path: String) async -> FileFingerprint? {
        try? FileFingerprint.of(path, file: path)
    }

    /// Removes what killed saves left beside `path` (never a save in progress).
    @concurrent
    static func removeStaleTemporaries(beside path: String) async {
        _ = try? AtomicFile.removeStaleTemporaries(beside: path)
    }
}
