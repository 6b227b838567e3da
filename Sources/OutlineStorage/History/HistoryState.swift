/// What a ``PersistentStore`` knows about the undo history its document keeps.
struct HistoryState {
    /// Whether saves write the context's steps (see ``PersistentStore/keepsHistory``).
    var keeps = false
    /// How many steps saves keep.
    var stepLimit = HistoryLimits.defaultSteps
    /// The history as read, until ``PersistentStore/restoreHistory()`` takes it; saves carry it
    /// unread while the objects are unchanged.
    var stored: StoredHistory?
    var status = PersistentStore.HistoryStatus.notRestored
    /// Steps the last save left out to keep within ``HistoryLimits``.
    var leftOut = 0
    /// The version the document was migrated from on open, when it kept a history then.
    var migratedFrom: String?
    /// How messages name a document without a file.
    var name = "document"
}
