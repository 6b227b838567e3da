/// What a ``DocumentContainer`` tells about its document, in ``DocumentContainer/events``.
public enum DocumentEvent: Sendable, Equatable {
    /// A save finished: what it held is on disk.
    case saved
    /// A save (an autosave, or one requested) failed; the file and the objects are as they
    /// were, and the changes are still unsaved.
    case saveFailed(StorageError)
    /// Another program changed the file while the document had unsaved changes: nothing was
    /// reloaded. Call ``DocumentContainer/reload(isolation:)`` to take the other version, or
    /// ``DocumentContainer/keepLocalChanges(isolation:)`` so that the next save replaces it.
    case externalChange
    /// Another program changed the file and the document, which had no unsaved changes, was
    /// read again (observers of the context got a batch with reason `reload`).
    case reloaded
    /// Reading the file again after another program changed it failed; the objects are as
    /// they were.
    case reloadFailed(StorageError)
}

/// Whether a document's changes are on disk, for a status line.
public enum SaveState: Sendable, Equatable {
    /// Everything is saved.
    case saved
    /// There are changes not saved yet.
    case unsaved
    /// A save is writing.
    case saving
    /// The last save failed, with this error; the changes are still unsaved.
    case failed(StorageError)
}
