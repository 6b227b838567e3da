/// Undo and redo with named groups, rollback, and the grouping of public edits.
extension EditingContext {
    /// Whether there is a step to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is a step to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the step ``undo()`` would undo, such as `Add item “Buy milk”`.
    public var undoActionName: String? { undoStack.last?.name }
    /// The name of the step ``redo()`` would redo.
    public var redoActionName: String? { redoStack.last?.name }

    /// Runs `body` as one undo step named `actionName`. If `body` throws, every change it made
    /// is reverted and the error is rethrown.
    @discardableResult
    public func perform<R>(_ actionName: String?, _ body: () throws -> R) throws -> R {
        beginUndoGroup(named: actionName)
        let mark = openGroup?.changes.count ?? 0
        do {
            let result = try body()
            endUndoGroup()
            return result
        } catch {
            abandonGroup(from: mark)
            throw error
        }
    }

    /// Opens an undo group; groups nest and only the outermost one becomes an undo step.
    public func beginUndoGroup(named name: String? = nil) {
        if groupDepth == 0 {
            openGroup = UndoGroup(name: name)
        } else if let name, openGroup?.name == nil {
            openGroup?.name = name
        }
        groupDepth += 1
    }

    /// Closes the group opened by the matching ``beginUndoGroup(named:)``.
    public func endUndoGroup() {
        precondition(groupDepth > 0, "endUndoGroup() without beginUndoGroup()")
        groupDepth -= 1
        guard groupDepth == 0, let group = openGroup else { return }
        openGroup = nil
        commit(group)
    }

    /// Makes a closed group with changes an undo step (when undo registration is on) and tells observers.
    private func commit(_ group: UndoGroup) {
        guard !group.changes.isEmpty else { return }
        if isUndoRegistrationEnabled {
            var step = group
            step.start = stateID
            stateID = newStateID()
            step.end = stateID
            step.epoch = epoch
            undoStack.append(step)
            if undoLevels > 0 && undoStack.count > undoLevels { undoStack.removeFirst(undoStack.count - undoLevels) }
            redoStack.removeAll()
            editStepCount += 1
        }
        notify(group.changes, reason: .edit, actionName: group.name)
    }

    /// Reverts the changes of the open group from `mark` on, after a failed edit.
    func abandonGroup(from mark: Int) {
        let changes = openGroup?.changes ?? []
        if changes.count > mark {
            replaying = true
            let saved = openGroup
            openGroup = nil
            for change in changes[mark...].reversed() { revert(change) }
            openGroup = saved
            openGroup?.changes.removeSubrange(mark...)
            replaying = false
            // The reverted changes cancel out; drop them from the journal as well.
            journal.removeLast(2 * (changes.count - mark))
            recomputeTracking()
        }
        groupDepth -= 1
        if groupDepth == 0 {
            let group = openGroup
            openGroup = nil
            if let group { commit(group) }
        }
    }

    /// Runs a single public edit as its own undo step unless a group is already open.
    func edit<R>(_ body: () throws -> R) throws -> R {
        try perform(nil, body)
    }

    /// Undoes the last step. Does nothing when there is none.
    public func undo() {
        precondition(groupDepth == 0, "undo() inside an open undo group")
        guard let group = undoStack.popLast() else { return }
        let reverse = replay(group)
        redoStack.append(reverse)
        settle()
        notify(reverse.changes, reason: .undo, actionName: group.name)
    }

    /// Redoes the last undone step. Does nothing when there is none.
    public func redo() {
        precondition(groupDepth == 0, "redo() inside an open undo group")
        guard let group = redoStack.popLast() else { return }
        let reverse = replay(group)
        undoStack.append(reverse)
        settle()
        notify(reverse.changes, reason: .redo, actionName: group.name)
    }

    /// Forgets all undo and redo steps.
    public func removeAllUndoSteps() {
        undoStack.removeAll()
        redoStack.removeAll()
    }

    /// Reverts every change since the last save and forgets the undo history, like Core Data.
    ///
    /// The last save is the last one that finished: a save still in progress does not count
    /// (when it finishes, the document holds what it wrote and the context has changes again).
    public func rollback() {
        precondition(groupDepth == 0, "rollback() inside an open undo group")
        let end = journal.count
        let from = savedPosition - journalOrigin
        replaying = true
        for change in journal[from ..< end].reversed() { revert(change) }
        replaying = false
        let reverse = Array(journal[end...])
        undoStack.removeAll()
        redoStack.removeAll()
        stateID = savedStateID
        settle()
        notify(reverse, reason: .rollback, actionName: nil)
    }

    /// Reverts the changes of `group` as one step; the state becomes the one before it, when
    /// still known.
    private func replay(_ group: UndoGroup) -> UndoGroup {
        replaying = true
        openGroup = UndoGroup(name: group.name)
        for change in group.changes.reversed() { revert(change) }
        var reverse = openGroup!
        openGroup = nil
        replaying = false
        reverse.start = stateID
        stateID = group.epoch == epoch ? group.start : newStateID()
        reverse.end = stateID
        reverse.epoch = epoch
        return reverse
    }

    /// A state id never used before.
    func newStateID() -> UInt64 {
        lastStateID += 1
        return lastStateID
    }

    /// Called for an edit made outside undo (registration off): the state is new, and undo
    /// steps made before it no longer lead to states seen before.
    func stateChangedOutsideUndo() {
        stateID = newStateID()
        epoch += 1
    }

    /// Rebuilds the inserted/updated/deleted sets from the journal since the saved state.
    func recomputeTracking() {
        tracked = ChangeSet(journal[(savedPosition - journalOrigin)...])
    }
}
