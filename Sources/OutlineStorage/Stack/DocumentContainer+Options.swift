extension DocumentContainer {
    /// How a container opens, saves and watches its document.
    public struct Options: Sendable {
        /// How the store reads and writes (backups, compression, limits, conflict detection).
        public var store: PersistentStore.Options
        /// Saving after a quiet period and on close; nil (the default) saves only when asked.
        public var autosave: Autosave?
        /// How often the file is checked for changes by other programs; nil does not check.
        public var externalChangeInterval: Duration?
        /// How long a save waits for another process editing the document (holding its
        /// ``DocumentLock``) before it fails with `conflict`.
        public var lockTimeout: Duration
        /// Refuse to save (for browsing a document).
        public var isReadOnly: Bool
        /// The clock autosave and the check for external changes wait on; tests give their own.
        public var clock: any Clock<Duration>
        /// What becomes of the undo history the document keeps (`Docs/UndoHistory.md`).
        public var undoHistory: UndoHistoryUse

        /// Options with the defaults: no autosave, a check for external changes every second,
        /// 30 seconds of waiting for another program's lock, editable, on the continuous clock,
        /// the nearest steps of the document's undo history (up to 100,000 changes) given back.
        public init(
            store: PersistentStore.Options = PersistentStore.Options(), autosave: Autosave? = nil,
            externalChangeInterval: Duration? = .seconds(1), lockTimeout: Duration = .seconds(30),
            isReadOnly: Bool = false, clock: any Clock<Duration> = ContinuousClock(),
            undoHistory: UndoHistoryUse = .takeOver(changes: 100_000)
        ) {
            self.store = store
            self.autosave = autosave
            self.externalChangeInterval = externalChangeInterval
            self.lockTimeout = lockTimeout
            self.isReadOnly = isReadOnly
            self.clock = clock
            self.undoHistory = undoHistory
        }
    }

    /// What a container does with the undo history a document keeps, on opening and reloading.
    public enum UndoHistoryUse: Sendable, Equatable {
        /// Saves write no history: the document's is dropped with the first save.
        case drop
        /// Saves write the document's history with the context's steps on top
        /// (`PersistentStore.carryHistory()`); undo reaches this session's steps only.
        case carry
        /// The nearest steps of the document's history, holding up to `changes` changes (at
        /// least the nearest step), are given to the context, so that undo reaches back into
        /// earlier sessions and commands; saves write the older ones below them
        /// (`PersistentStore.restoreHistory(changes:)`). Checking the steps given costs time
        /// in the changes they hold, before the document is ready.
        case takeOver(changes: Int)
    }

    /// When a container saves on its own.
    public struct Autosave: Sendable, Equatable {
        /// How long editing must pause before the changes are saved.
        public var quietPeriod: Duration
        /// Whether ``DocumentContainer/close(isolation:)`` saves unsaved changes.
        public var savesOnClose: Bool

        /// Autosave after `quietPeriod` without edits, and on close when `savesOnClose`.
        public init(quietPeriod: Duration = .seconds(2), savesOnClose: Bool = true) {
            self.quietPeriod = quietPeriod
            self.savesOnClose = savesOnClose
        }
    }
}
