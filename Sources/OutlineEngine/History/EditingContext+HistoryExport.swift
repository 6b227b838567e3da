/// Giving the undo and redo steps away in stable terms, and joining steps.
extension EditingContext {
    /// The number of steps ``undo()`` can take back.
    public var undoStepCount: Int { undoStack.count }
    /// The number of steps ``redo()`` can make again.
    public var redoStepCount: Int { redoStack.count }
    /// The names of the steps ``undo()`` can take back, oldest first (the last is undone first).
    public var undoStepNames: [String?] { undoStack.map(\.name) }
    /// The names of the steps ``redo()`` can make again, in the order redo takes them.
    public var redoStepNames: [String?] { redoStack.reversed().map(\.name) }

    /// This context's undo and redo steps in stable terms (see ``UndoHistory``), for a document
    /// to keep beside its objects.
    ///
    /// Changes of transient properties are left out (a document does not keep those
    /// properties). A step that names a deleted object the history cannot bring back (a
    /// relationship whose delete rule is No Action still listing an object deleted before the
    /// oldest kept step) is left out with every step beyond it, so that what is given can be
    /// taken back and forth exactly.
    ///
    /// - Parameter limit: the most steps given, undo and redo together: the oldest undo steps
    ///   are left out first, then the farthest redo steps. Nil gives them all.
    /// - Complexity: O(c + d·p) for c changes in the steps given, d objects they delete and p
    ///   properties per object.
    public func exportUndoHistory(limit: Int? = nil) -> UndoHistory {
        precondition(groupDepth == 0, "exportUndoHistory() inside an open undo group")
        var undo = undoStack[...]
        var redo = redoStack[...]
        if let limit {
            precondition(limit >= 0, "exportUndoHistory(limit:) with a negative limit")
            if undo.count > limit { undo = undo.suffix(limit) }
            if redo.count > limit - undo.count { redo = redo.suffix(limit - undo.count) }
        }
        var revivable: Set<ManagedObject> = []
        for group in undo + redo {
            for case .killed(let object) in group.changes { revivable.insert(object) }
        }
        let describer = HistoryDescriber(context: self, revivable: revivable)
        // Nearest steps first, so that the first one that cannot be described ends the list.
        var undoSteps: [UndoHistory.Step] = []
        for group in undo.reversed() {
            guard let step = describer.step(group) else { break }
            undoSteps.append(step)
        }
        var redoSteps: [UndoHistory.Step] = []
        for group in redo.reversed() {
            guard let step = describer.step(group) else { break }
            redoSteps.append(step)
        }
        return UndoHistory(undoSteps: undoSteps.reversed(), redoSteps: redoSteps.reversed())
    }

    /// Joins the last `count` undo steps into one, so that they are undone together: what one
    /// command did in several edits becomes one step.
    ///
    /// - Parameters:
    ///   - count: how many of the last undo steps to join (fewer when there are fewer).
    ///   - name: the joined step's name; nil keeps the name of the first of them.
    public func mergeLastUndoSteps(_ count: Int, named name: String? = nil) {
        precondition(groupDepth == 0, "mergeLastUndoSteps(_:named:) inside an open undo group")
        precondition(count >= 0 && count <= undoStack.count, "mergeLastUndoSteps(\(count)) with \(undoStack.count) steps")
        guard count > 1 else { return }
        let joined = Array(undoStack.suffix(count))
        undoStack.removeLast(count)
        // From the state before the first to the state after the last; the first's epoch says
        // whether the state before it is still the one undo comes back to.
        undoStack.append(
            UndoGroup(
                name: name ?? joined[0].name, changes: joined.flatMap(\.changes),
                start: joined[0].start, end: joined[count - 1].end, epoch: joined[0].epoch))
    }
}

/// Describes undo groups in stable terms for ``EditingContext/exportUndoHistory(limit:)``.
private struct HistoryDescriber {
    let context: EditingContext
    /// Dead objects a described step brings back (each gets a snapshot).
    let revivable: Set<ManagedObject>

    var graph: ObjectGraph { context.graph }

    /// Whether a reloaded document will have the object, or the history bring it back.
    func isKnown(_ object: ManagedObject) -> Bool { graph.contains(object) || revivable.contains(object) }

    func id(_ object: ManagedObject) -> ObjectID { graph.objectID(of: object) }

    /// The group in stable terms, or nil when it names an object that cannot be known.
    func step(_ group: UndoGroup) -> UndoHistory.Step? {
        var changes: [UndoHistory.Change] = []
        changes.reserveCapacity(group.changes.count)
        for change in group.changes {
            let info = context.entity(of: change.object)
            guard isKnown(change.object) else { return nil }
            switch change {
            case .revived(let object):
                changes.append(.inserted(id(object)))
            case .killed(let object):
                changes.append(.deleted(snapshot(object)))
            case .attribute(let object, let a, let old):
                guard !info.attributes[a].isTransient else { continue }
                changes.append(.attribute(id(object), info.attributes[a].name, old: old))
            case .toOne(let object, let r, let old, _):
                guard !info.relationships[r].isTransient else { continue }
                if let old, !isKnown(old) { return nil }
                changes.append(.toOne(id(object), info.relationships[r].name, old: old.map(id)))
            case .memberInserted(let object, let r, let index, let member):
                guard !info.relationships[r].isTransient else { continue }
                guard isKnown(member) else { return nil }
                changes.append(.memberInserted(id(object), info.relationships[r].name, index: index, member: id(member)))
            case .memberRemoved(let object, let r, let index, let member):
                guard !info.relationships[r].isTransient else { continue }
                guard isKnown(member) else { return nil }
                changes.append(.memberRemoved(id(object), info.relationships[r].name, index: index, member: id(member)))
            case .membersReplaced(let object, let r, let old, _):
                guard !info.relationships[r].isTransient else { continue }
                guard old.allSatisfy(isKnown) else { return nil }
                changes.append(.membersReplaced(id(object), info.relationships[r].name, old: old.map(id)))
            }
        }
        return UndoHistory.Step(name: group.name, changes: changes)
    }

    /// The stored values of `object` as its row holds them. A deleted object's row keeps the
    /// values it had when it was deleted, which is what bringing it back restores. Links to
    /// objects that cannot be known are left out: saving drops them too.
    func snapshot(_ object: ManagedObject) -> UndoHistory.ObjectSnapshot {
        let info = context.entity(of: object)
        var snapshot = UndoHistory.ObjectSnapshot(id: id(object), entity: info.name)
        for a in info.attributeIndices where !info[a].isTransient {
            if let value = graph.attributeValue(of: object, a) { snapshot.attributes[info[a].name] = value }
        }
        for r in info.relationshipIndices where !info[r].isTransient {
            let relationship = info[r]
            if relationship.isToMany {
                let members = graph.relatedObjects(of: object, r).filter(isKnown)
                if !members.isEmpty { snapshot.toMany[relationship.name] = members.map(id) }
            } else if let target = graph.relatedObject(of: object, r), isKnown(target) {
                snapshot.toOne[relationship.name] = id(target)
            }
        }
        return snapshot
    }
}
