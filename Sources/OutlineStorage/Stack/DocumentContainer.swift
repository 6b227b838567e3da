import Foundation
import OutlineEngine

/// A document opened for editing: its objects in an `EditingContext` that belongs to the
/// caller's actor, saved in the background, autosaved, and watched for changes by other
/// programs.
///
/// Open one with ``open(_:model:options:progress:isolation:)`` from the actor that will edit
/// it (the main actor of an app, or an actor of your own): reading, decoding, migration and
/// checks run off that actor, and the container and its ``context`` then belong to it, checked
/// by the compiler. Edit through the context synchronously; ``save(isolation:)`` takes a
/// snapshot of the objects (O(entities × properties)) and does validation, encoding and the
/// durable write elsewhere, so editing goes on while it runs.
///
/// ```swift
/// @MainActor func openNotes() async throws -> DocumentContainer {
///     let container = try await DocumentContainer.open("notes.outline") { progress in
///         statusLine = "\(progress)"
///     }
///     try container.context.setValue(.string("Hello"), forKey: "text", of: item)
///     try await container.save()
///     return container
/// }
/// ```
///
/// Saves are serialised: a save requested while one runs waits for one more save, shared by
/// every request made meanwhile. Only the changes a save's snapshot held count as saved. A
/// failed save leaves the file and the objects as they were and reports the error. Each save
/// takes the document's ``DocumentLock`` while it writes (so the `outline` tool and the
/// container take turns) and refuses to overwrite changes another program made (`conflict`).
public final class DocumentContainer {
    /// The objects, for editing on the container's actor.
    public var context: EditingContext { store.context }

    /// How many undo steps the document keeps beyond those the context can undo: the older
    /// steps of its history that opening did not take over (``Options-swift.struct/undoHistory``),
    /// which saves keep and a later program can undo.
    public var olderUndoStepCount: Int { max(0, store.historyUndoStepNames.count - context.undoStepCount) }
    /// The document's file, format and metadata.
    let store: PersistentStore
    /// How the container was opened.
    public let options: Options
    /// The model reloads read the file with.
    let model: DocumentModel
    /// The actor the container belongs to; nil when it was opened outside any actor (then it
    /// neither autosaves nor watches the file).
    let owner: (any Actor)?

    /// What happens to the document: saves, failed saves, changes by other programs. One
    /// consumer at a time; it ends when the container closes.
    public let events: AsyncStream<DocumentEvent>
    let eventSink: AsyncStream<DocumentEvent>.Continuation

    // Saving (DocumentContainer+Saving.swift).
    var saveInProgress = false
    var waitingForNextSave: [CheckedContinuation<Void, any Error>] = []
    var lastSaveError: StorageError?
    /// Where the time of the last successful save went.
    public internal(set) var lastSaveTimings: SaveTimings?
    /// Counts saves begun, to tell a check of the file that a save ran meanwhile.
    var savesBegun = 0
    /// The file does not hold the document as it is here (it does not exist yet, or another
    /// program's version was kept over): the next save writes it even without changes.
    var needsWrite = false
    var savedMigration = false

    // Autosave and external changes.
    var autosaveTask: Task<Void, Never>?
    var watchTask: Task<Void, Never>?
    var changeSignal: AsyncStream<Void>.Continuation?
    var changeObserver: ObserverToken?
    /// Counts changes, to find quiet periods.
    var changeGeneration = 0
    /// The version of the file another program wrote that was reported and not dealt with.
    var reportedExternalChange: FileFingerprint?
    var reloading = false
    /// Whether ``close(isolation:)`` has run; a closed container neither saves nor watches the file.
    public private(set) var isClosed = false
    /// Tells whether the program holds edits that are not in the context yet (a line still
    /// being typed). While it returns true, another program's change to the file is reported
    /// as ``DocumentEvent/externalChange``, as with unsaved changes, instead of being read at
    /// once over those edits. Called on the container's actor.
    public var hasPendingEdits: () -> Bool = { false }

    init(store: PersistentStore, options: Options, model: DocumentModel, owner: (any Actor)?) {
        self.store = store
        self.options = options
        self.model = model
        self.owner = owner
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    deinit {
        autosaveTask?.cancel()
        watchTask?.cancel()
        changeSignal?.finish()
        eventSink.finish()
    }

    /// The file, as given when opening or creating the document.
    public var path: String? { store.path }
    /// The format saves write.
    public var format: DocumentFormat { store.format }
    /// The metadata as of the last open or save.
    public var metadata: StoreMetadata { store.metadata }
    /// The schema of the objects.
    public var schema: Schema { store.schema }
    /// When the document was migrated from an older model version on open: what that did.
    public var migration: MigrationReport? { store.migration }
    /// Whether there is anything to save.
    public var hasChanges: Bool { store.hasChanges || needsWrite }

    /// Whether the document's changes are on disk, for a status line.
    public var saveState: SaveState {
        if saveInProgress { return .saving }
        guard hasChanges else { return .saved }
        return lastSaveError.map(SaveState.failed) ?? .unsaved
    }

    // MARK: Opening

    /// Opens the document at `path` for editing on the caller's actor.
    ///
    /// The file is read, decoded, checked and, for an older model version, migrated off the
    /// caller's actor; `progress` is called on the caller's actor meanwhile. Cancelling the
    /// calling task stops the work at the next column or block: nothing is kept and nothing
    /// on disk changes. Once open, leftovers of killed saves beside the file are removed.
    ///
    /// - Parameters:
    ///   - path: the document's file.
    ///   - model: the model to read it with; the one it embeds by default.
    ///   - options: autosave, the check for other programs' changes, the lock wait, read-only.
    ///   - progress: called with the phase and how much of it is done.
    ///   - isolation: the actor the container will belong to; the caller's by default.
    /// - Throws: ``StorageError``: `cancelled`, and the errors of ``PersistentStore`` opening.
    public static func open(
        _ path: String, model: DocumentModel = .embedded, options: Options = Options(),
        progress: ((LoadProgress) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> DocumentContainer {
        try await openPreparing(path, model: model, options: options, progress: progress, preparing: { _ in () }).container
    }

    /// ``open(_:model:options:progress:isolation:)``, with `preparing` run on the objects read,
    /// off the caller's actor, before the container is made: a library over the container
    /// looks through a big document there (an outline finding its root) rather than on the
    /// actor the user waits on. The objects are those the container's context starts with.
    package static func openPreparing<Prepared: Sendable>(
        _ path: String, model: DocumentModel = .embedded, options: Options = Options(),
        progress: ((LoadProgress) -> Void)? = nil,
        preparing: @escaping @Sendable (GraphSnapshot) -> Prepared,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (container: DocumentContainer, prepared: Prepared) {
        // Readers report at a coarse grain (hundreds of reports for the biggest file): keep them all.
        let (steps, sink) = AsyncStream<LoadProgress>.makeStream()
        async let loading = DocumentLoader.load(path, model: model, options: options.store, progress: sink, preparing: preparing)
        for await step in steps { progress?(step) }
        let (snapshot, loaded, prepared) = try await loading
        try Task.checkCancellation(file: path)
        let context = EditingContext(graph: ObjectGraph(snapshot: consume snapshot))
        let store = PersistentStore(
            context: context, path: path, format: loaded.format, metadata: loaded.metadata,
            options: options.store)
        store.fingerprint = loaded.fingerprint
        store.migration = loaded.migration
        store.hasMetadataChanges = loaded.hasMetadataChanges
        store.useHistory(loaded.history, as: options.undoHistory)
        if options.store.removesStaleTemporaries { await DocumentLoader.removeStaleTemporaries(beside: path) }
        let container = DocumentContainer(store: store, options: options, model: model.forReloading(context.schema), owner: isolation)
        container.start(isolation: isolation)
        return (container, prepared)
    }

    /// A new, empty document of `schema` that will be the file at `path` (nothing is written
    /// until the first save, which writes it even without changes).
    ///
    /// - Throws: ``StorageError`` `conflict` when a file or folder is already there.
    public static func create(
        _ path: String, schema: Schema, format: DocumentFormat = .binary, options: Options = Options(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> DocumentContainer {
        if await DocumentLoader.fingerprint(of: path) != nil || FileManager.default.fileExists(atPath: path) {
            throw StorageError(
                .conflict, file: path, "a file with this name already exists",
                hint: "Open it instead, or choose another name.")
        }
        let store = PersistentStore(schema: schema, path: path, format: format, options: options.store)
        store.keepsHistory = options.undoHistory != .drop
        let container = DocumentContainer(store: store, options: options, model: .schema(schema), owner: isolation)
        container.needsWrite = true
        container.start(isolation: isolation)
        return container
    }

    // MARK: Closing

    /// Saves unsaved changes when autosave is on (``Autosave/savesOnClose``), waits for a save
    /// in progress, and stops autosaving and watching the file. The context stays readable.
    ///
    /// - Throws: the save's ``StorageError``; the container then stays open, with its changes.
    public func close(isolation: isolated (any Actor)? = #isolation) async throws {
        guard !isClosed else { return }
        if let autosave = options.autosave, autosave.savesOnClose, hasChanges, !options.isReadOnly {
            try await save()
        } else if saveInProgress {
            try? await save()
        }
        isClosed = true
        autosaveTask?.cancel()
        watchTask?.cancel()
        changeSignal?.finish()
        if let changeObserver { context.removeObserver(changeObserver) }
        changeObserver = nil
        eventSink.finish()
    }

    /// Starts autosaving and watching the file, as the options ask, on `isolation`. A container
    /// opened outside any actor does neither (autosave then is a programming error).
    func start(isolation: isolated (any Actor)?) {
        guard isolation != nil else {
            precondition(options.autosave == nil, "autosave needs the container to belong to an actor: open it from the main actor or your own")
            return
        }
        startAutosave(isolation: isolation)
        startWatching(isolation: isolation)
    }
}

extension DocumentModel {
    /// The model to read the file with again: the schema already in use, unless versions
    /// migrate older files to it.
    func forReloading(_ schema: Schema) -> DocumentModel {
        if case .versions = self { return self }
        return .schema(schema)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``StorageError`` `cancelled` naming `file` when the current task is cancelled.
    static func checkCancellation(file: String) throws {
        if Task.isCancelled { throw LoadMonitor.cancelled(file) }
    }
}
