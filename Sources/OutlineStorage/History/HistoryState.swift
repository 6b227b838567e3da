import OutlineEngine

/// What a ``PersistentStore`` knows about the undo history its document keeps.
struct HistoryState: Sendable {
    /// Whether saves write the context's steps (see ``PersistentStore/keepsHistory``).
    var keeps = false
    /// How many steps saves keep.
    var stepLimit = HistoryLimits.defaultSteps
    /// The history as read, until ``PersistentStore/restoreHistory()`` takes it; saves carry it
    /// unread while the objects are unchanged.
    var stored: StoredHistory?
    var status = PersistentStore.HistoryStatus.notRestored
    /// The history ``PersistentStore/carryHistory()`` read, which saves continue with the
    /// context's steps, until ``PersistentStore/restoreHistory()`` gives it to the context.
    var carried: UndoHistory?
    /// The context's ``OutlineEngine/EditingContext/editStepCount`` when `carried` was set.
    var carriedSince = 0
    /// Steps the last save left out to keep within ``HistoryLimits``.
    var leftOut = 0
    /// The version the document was migrated from on open, when it kept a history then.
    var migratedFrom: String?
    /// How messages name a document without a file.
    var name = "document"
}
