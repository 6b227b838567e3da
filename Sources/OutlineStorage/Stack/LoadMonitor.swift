/// Reports the progress of reading a document and stops the reading when its task is cancelled.
///
/// The readers find the monitor of the load in progress through ``current`` (a task-local
/// value), so their signatures stay as they are; without one they neither report nor stop.
/// Readers report at a coarse grain (a block of the file, a column, 65,536 objects), so a
/// report costs nothing next to the work between two.
struct LoadMonitor: Sendable {
    /// The monitor of the load running in this task, if any.
    @TaskLocal static var current: LoadMonitor?

    /// How messages name the document.
    let file: String
    /// Called with each report, on the thread doing the work.
    let report: @Sendable (LoadProgress) -> Void

    /// Reports that `completed` of `total` units of `phase` are done, then stops the load when
    /// its task was cancelled.
    func progress(_ phase: LoadProgress.Phase, _ completed: Int, of total: Int) throws {
        try checkCancellation()
        report(LoadProgress(phase: phase, fraction: total > 0 ? Double(completed) / Double(total) : 1))
    }

    /// Throws ``StorageError`` `cancelled` when the task doing the load was cancelled.
    func checkCancellation() throws {
        if Task.isCancelled { throw Self.cancelled(file) }
    }

    /// The error a cancelled load ends with.
    static func cancelled(_ file: String) -> StorageError {
        StorageError(.cancelled, file: file, "opening was cancelled", hint: "Nothing was changed; open the document again.")
    }
}
