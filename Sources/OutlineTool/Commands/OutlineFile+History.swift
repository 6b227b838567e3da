import OutlineEngine
import OutlineKit
import OutlineStorage

/// Undo that survives the process: the document keeps its undo history (`Docs/UndoHistory.md`),
/// every editing command adds one step to it, and `outline undo`, `redo` and `history` work on
/// it across separate runs.
extension OutlineFile {
    /// Keeps the document's undo history for the saves, each adding its command's step on top
    /// (``OutlineStorage/PersistentStore/carryHistory()``); ``undo()`` and ``redo()`` take the
    /// steps over when they need them. One that cannot be used (another program changed the
    /// document, or it is damaged) is kept aside: undo and redo refuse with its error, and the
    /// next save starts a new history, which the save's notice says.
    func restoreHistory() {
        if case .unusable(let error) = store.carryHistory() { setAside(error) }
        stepsAtSave = store.context.undoStepCount
    }

    private func setAside(_ error: StorageError) {
        historyNotice = "\(path): the undo history it kept could not be used (\(error.message)), so it starts again with this change."
    }

    /// Gives the nearest undo step (or, for `redo`, the nearest redo step) of the carried
    /// history to the document's context, which checks that it fits the objects; the others
    /// stay carried, so the time this takes does not grow with the length of the history, and
    /// a step that does not fit stops undo there, not before.
    ///
    /// - Throws: the ``OutlineStorage/StorageError`` that keeps the history from being used.
    private func takeOverHistory(redo: Bool) throws {
        if let problem = historyProblem { throw problem }
        guard store.historyStatus == .carried else { return }
        if case .unusable(let error) = store.restoreHistory(undoSteps: redo ? 0 : 1, redoSteps: redo ? 1 : 0) {
            setAside(error)
            throw error
        }
        stepsAtSave = store.context.undoStepCount
    }

    /// The error that keeps the undo history from being used, if any.
    public var historyProblem: StorageError? {
        if case .unusable(let error) = store.historyStatus { return error }
        return nil
    }

    /// Joins the steps made since the last save into one named after the first.
    func joinStepsSinceSave() {
        let added = store.context.undoStepCount - stepsAtSave
        guard joinsStepsOnSave, added > 1 else { return }
        let first = store.context.undoStepNames[store.context.undoStepCount - added] ?? "Edit"
        store.context.mergeLastUndoSteps(added, named: "\(first) and \(added - 1) more \(added == 2 ? "change" : "changes")")
    }

    /// What the user should hear about the undo history after a save, or nil.
    func savedHistoryNotice() -> String? {
        var notices: [String] = []
        if store.keepsHistory, let notice = historyNotice { notices.append(notice) }
        historyNotice = nil
        let leftOut = store.historyStepsLeftOut
        let limit = "\(HistoryLimits.maximumBytes >> 20) MiB"
        if store.keepsHistory && leftOut >= store.historyUndoStepNames.count && leftOut > 0 {
            notices.append(
                "This change is too large for the undo history, which keeps at most \(limit) "
                    + "(a step that removes items keeps all of them): it cannot be undone, nor can the changes before it.")
        } else if store.keepsHistory && leftOut > 0 {
            notices.append(
                "The undo history left out its \(leftOut) oldest \(leftOut == 1 ? "step" : "steps") to stay within "
                    + "\(limit) (a step that removes items keeps all of them).")
        }
        return notices.isEmpty ? nil : notices.joined(separator: " ")
    }

    /// Undoes the last step the document keeps; ``save()`` then writes the result.
    ///
    /// - Returns: the step's name, such as `Add item “Buy milk”`.
    /// - Throws: the ``OutlineStorage/StorageError`` that keeps the history from being used
    ///   (`historyMismatch` when another program changed the document), or ``OutlineError``
    ///   `nothingToUndo`.
    public func undo() throws -> String {
        try takeOverHistory(redo: false)
        let context = store.context
        guard let name = context.undoStepNames.last else {
            throw OutlineError(.nothingToUndo, file: path, "there is nothing to undo", hint: nothingLeft(redo: false))
        }
        context.undo()
        return name ?? "an unnamed step"
    }

    /// Makes the last undone step again; ``save()`` then writes the result.
    ///
    /// - Returns: the step's name.
    /// - Throws: as ``undo()``, with ``OutlineError`` `nothingToRedo`.
    public func redo() throws -> String {
        try takeOverHistory(redo: true)
        let context = store.context
        guard let name = context.redoStepNames.first else {
            throw OutlineError(.nothingToRedo, file: path, "there is nothing to redo", hint: nothingLeft(redo: true))
        }
        context.redo()
        return name ?? "an unnamed step"
    }

    private func nothingLeft(redo: Bool) -> String {
        // The steps the document keeps, taken over or still carried.
        if store.historyUndoStepNames.isEmpty && store.historyRedoStepNames.isEmpty {
            return "The document keeps no undo history: it was last saved by a program that does not keep one, "
                + "saved with --no-history, or its history was cleared."
        }
        if redo {
            return "Only undone steps can be redone; a new edit after an undo drops the steps undone before it, "
                + "and so does a smaller `outline history --limit` (`outline history \(path)` lists what is kept)."
        }
        return "Every step the document keeps is undone already; `outline redo` makes them again."
    }

    /// Drops the undo history (and any that could not be used); ``save()`` writes the document without it.
    public func clearHistory() {
        store.clearHistory()
        historyNotice = nil
        stepsAtSave = 0
    }

    /// Sets how many steps the document keeps from now on (1 to ``OutlineStorage/HistoryLimits/maximumSteps``).
    ///
    /// - Throws: ``OutlineError`` `invalidEdit` for a number out of range; the history's problem
    ///   when it cannot be used (clear it first).
    public func setHistoryLimit(_ limit: Int) throws {
        guard (1 ... HistoryLimits.maximumSteps).contains(limit) else {
            throw OutlineError(
                .invalidEdit, file: path, "a document keeps 1 to \(HistoryLimits.maximumSteps) undo steps, not \(limit)",
                hint: "Give a number from 1 to \(HistoryLimits.maximumSteps).")
        }
        if let problem = historyProblem { throw problem }
        store.historyStepLimit = limit
    }

    /// The steps the document keeps, for `outline history`.
    public func historyReport() -> HistoryReport {
        // The steps a save keeps: the nearest ones, undo first.
        HistoryReport(
            file: path, stepLimit: store.historyStepLimit, undoSteps: store.historyUndoStepNames.map { $0 ?? "Unnamed step" },
            redoSteps: store.historyRedoStepNames.map { $0 ?? "Unnamed step" }, problem: historyProblem)
    }
}
