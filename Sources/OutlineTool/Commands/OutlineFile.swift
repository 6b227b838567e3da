import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// An outline document file opened for reading or editing by the command-line tool.
///
/// Opening a document written with an older version of the outline schema migrates it in
/// memory (the file is untouched); the first ``save()`` then writes it at the current
/// version and keeps the old bytes as `FILE.bak`. Every save is atomic: a failed command
/// leaves the file exactly as it was. Errors name the file (see ``attributed(_:)``).
///
/// A file opened with ``openForEditing(_:lockTimeout:progress:)`` holds the document's
/// ``OutlineStorage/DocumentLock`` until it is released or deinitialized, so that two
/// processes editing one document take turns instead of one overwriting the other's change.
/// A file opened with ``open(_:progress:)`` takes no lock: readers never wait.
public final class OutlineFile {
    /// The file, as the user named it.
    public let path: String
    /// The document's objects and file.
    public let store: PersistentStore
    /// The outline over the store's objects; edit through it, then ``save()``.
    public let document: OutlineDocument
    /// The lock held while editing; nil for a file opened to read.
    public private(set) var lock: DocumentLock?
    /// Whether ``save()`` joins the undo steps made since the last save into one, so that what
    /// one command did is undone at once (see `OutlineFile+History.swift`). Turn it off to keep
    /// each step, as a command that applies several edits one by one does.
    public var joinsStepsOnSave = true
    /// Undo steps there were at the last open or save.
    var stepsAtSave = 0
    /// What the user should hear about the undo history with the next save.
    var historyNotice: String?

    init(path: String, store: PersistentStore, lock: DocumentLock? = nil) throws {
        self.path = path
        self.store = store
        self.lock = lock
        do {
            document = try OutlineDocument(context: store.context)
        } catch {
            throw OutlineFile.attribute(error, to: path)
        }
    }

    /// How long ``openForEditing(_:lockTimeout:progress:)`` waits by default for another
    /// process editing the document, in seconds.
    public static let defaultLockTimeout = 30.0

    /// Opens the outline at `path` to read it, migrating an older document in memory to the
    /// current version. No lock is taken: reading never waits for an editor.
    ///
    /// - Parameter progress: called while a migration runs.
    /// - Throws: ``OutlineStorage/StorageError`` for files that cannot be read or migrated,
    ///   ``OutlineError`` `notAnOutline` for documents of another model (read with their own
    ///   model, embedded or derived from their data, to say so).
    public static func open(
        _ path: String, restoringHistory: Bool = false,
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws -> OutlineFile {
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle, allowingOwnModel: true, progress: progress)
        let file = try OutlineFile(path: path, store: store)
        if restoringHistory { file.restoreHistory() }
        return file
    }

    /// Opens the outline at `path` to edit and save it: first waits until no other process
    /// edits it and takes its ``OutlineStorage/DocumentLock`` (held until ``release()``), then
    /// opens it as ``open(_:progress:)`` does. Temporary files that killed saves left beside
    /// it are removed.
    ///
    /// The document's undo history is kept (see `OutlineFile+History.swift`): every save
    /// writes it with the command's edits as one more step, and ``undo()`` and ``redo()`` take
    /// its steps over when they need them.
    ///
    /// - Parameters:
    ///   - lockTimeout: how many seconds to wait for another editor to finish.
    ///   - keepsHistory: false saves the document without its undo history (it is dropped).
    /// - Throws: ``OutlineStorage/StorageError`` `conflict` when another process still edits the
    ///   document after `lockTimeout` seconds, and the errors of ``open(_:progress:)``.
    public static func openForEditing(
        _ path: String, lockTimeout: Double = defaultLockTimeout, keepsHistory: Bool = true,
        progress: ((MigrationProgress) -> Void)? = nil
    ) throws -> OutlineFile {
        let lock = try DocumentLock.acquire(path, timeout: lockTimeout)
        // Holding the lock, no other editor is saving: every unlocked temporary file is stale.
        _ = try? AtomicFile.removeStaleTemporaries(beside: path, olderThan: 0)
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle, allowingOwnModel: true, progress: progress)
        let file = try OutlineFile(path: path, store: store, lock: lock)
        if keepsHistory { file.restoreHistory() } else { store.keepsHistory = false }
        return file
    }

    /// Releases the editing lock, letting another process edit the document; later saves are
    /// still refused when the file changed meanwhile (`conflict`).
    public func release() {
        lock?.release()
        lock = nil
    }

    /// Creates a new empty outline (the root item only) at the current schema version and saves it.
    ///
    /// A file it replaces is first locked as ``openForEditing(_:lockTimeout:progress:)`` does,
    /// so that it waits for an editor of that file to finish.
    /// - Parameters:
    ///   - replacing: replace an existing file; without it an existing file is an error.
    ///   - lockTimeout: how many seconds to wait for another process editing the file it replaces.
    /// - Throws: ``OutlineError`` `fileExists`, or ``OutlineStorage/StorageError`` when the
    ///   file cannot be written (`conflict` when another process edits it for too long).
    @discardableResult
    public static func create(
        _ path: String, format: DocumentFormat, replacing: Bool,
        lockTimeout: Double = defaultLockTimeout
    ) throws -> OutlineFile {
        var isDirectory: ObjCBool = false
        var lock: DocumentLock?
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard replacing, !isDirectory.boolValue else {
                throw OutlineError(
                    .fileExists, file: path,
                    isDirectory.boolValue ? "a folder with this name exists" : "the file already exists",
                    hint: isDirectory.boolValue ? "Choose another name." : "Choose another name, or pass --force to replace it.")
            }
            lock = try DocumentLock.acquire(path, timeout: lockTimeout)
        }
        let store = PersistentStore(schema: try OutlineSchemas.current, path: path, format: format)
        let file = try OutlineFile(path: path, store: store, lock: lock)
        try store.save()
        return file
    }

    /// The migration done when the document was opened, when it was written with an older version.
    public var migration: MigrationReport? { store.migration }

    /// The item `reference` names (`2.1.3`, `/` or `#ID`).
    ///
    /// - Throws: ``OutlineError`` `noSuchItem` naming the file and the nearest existing parent.
    public func item(at reference: String) throws -> ManagedObject {
        try attributing { try document.item(at: ItemReference(parsing: reference)) }
    }

    /// The full 1-based path of `item` (`2.1.3`, `/` for the root).
    ///
    /// - Complexity: O(depth).
    public func path(of item: ManagedObject) -> String {
        ItemReference.path(document.path(of: item)).description
    }

    /// Runs `body`, attributing any error it throws to this file (see ``attributed(_:)``) and,
    /// when the error names no place, to `location` (the item the user named, such as `2.1`).
    @discardableResult
    public func attributing<R>(at location: String? = nil, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            guard var outline = attributed(error) as? OutlineError else { throw attributed(error) }
            if outline.location == nil { outline.location = location }
            throw outline
        }
    }

    /// `error` naming this file: outline errors get the file, engine errors (a bad query, a
    /// refused edit) become outline errors with the file; storage errors already name it.
    public func attributed(_ error: any Error) -> any Error {
        Self.attribute(error, to: path)
    }

    /// An engine location naming an item by its store id (`Item z116`) as the tool names items
    /// (`#116`); any other location as it is.
    static func itemReference(_ location: String) -> String {
        guard location.hasPrefix("Item z"), let id = Int(location.dropFirst("Item z".count)) else { return location }
        return "#\(id)"
    }

    static func attribute(_ error: any Error, to file: String) -> any Error {
        switch error {
        case let error as OutlineError:
            return error.inFile(file)
        case let error as EngineError:
            let query: Set<EngineError.Code> = [.invalidPredicate, .unknownName, .typeMismatch]
            return OutlineError(
                query.contains(error.code) ? .invalidQuery : .invalidEdit, file: file,
                at: error.location.map(itemReference), error.message, hint: error.hint)
        default:
            return error
        }
    }

    /// Saves the document atomically. A document migrated on open is written at the current
    /// version and its old bytes are kept as `FILE.bak` (this once; `FILE.1.bak`, ... when a
    /// backup this document did not make has that name, see ``OutlineStorage/KeptBackup``).
    /// Child lists whose `order` is not 0…n-1 (files from other tools) are renumbered first.
    /// The undo steps made since the last save become one (unless ``joinsStepsOnSave`` is off)
    /// and the undo history is saved with the document (unless it was opened without it).
    ///
    /// - Returns: a one-line notice for the user (a migration, an undo history that could not
    ///   be kept as it was), or nil.
    /// - Throws: ``OutlineStorage/StorageError``; the file is then unchanged.
    @discardableResult
    public func save() throws -> String? {
        guard store.hasChanges else { return nil }
        try attributing { try document.renumberChangedSiblings() }
        joinStepsSinceSave()
        let migrated = store.migration != nil && !hasSavedMigration
        let keeps = store.options.keepsBackup
        store.options.keepsBackup = keeps || migrated
        defer { store.options.keepsBackup = keeps }
        try store.save()
        stepsAtSave = store.context.undoStepCount
        var notices: [String] = []
        if migrated, let report = store.migration {
            hasSavedMigration = true
            let backup = store.keptBackup?.path ?? "\(path).bak"
            notices.append(
                "\(path): migrated from \(report.path.first ?? "an older version") to \(store.schema.name); the old version is kept as \(backup).")
        }
        if let notice = savedHistoryNotice() { notices.append(notice) }
        return notices.isEmpty ? nil : notices.joined(separator: " ")
    }

    private var hasSavedMigration = false
}
