/// Taking imported steps back and forth once with every change checked, so that the context's
/// unchecked ``EditingContext/undo()`` and ``EditingContext/redo()`` can take them afterwards.
extension EditingContext {
    /// Undoes every step of `undo` (newest first) and redoes them, then redoes every step of
    /// `redo` (nearest first) and undoes them, checking each change before applying it and the
    /// links of the objects each step touched after it. Ends where it started.
    ///
    /// - Returns: the steps as this context recorded them while taking them, in stack order.
    /// - Throws: ``EngineError`` `historyMismatch`; everything applied so far is taken back first.
    func rehearse(undo: [UndoGroup], redo: [UndoGroup]) throws -> (undo: [UndoGroup], redo: [UndoGroup]) {
        var applied: [UndoGroup] = []
        func take(_ groups: [UndoGroup], _ first: Int, _ total: Int, ascending: Bool) throws -> [UndoGroup] {
            var result: [UndoGroup] = []
            result.reserveCapacity(groups.count)
            for (offset, group) in groups.enumerated() {
                let number = ascending ? first + offset : first - offset
                let reverse = try checkedReplay(group, number: number, of: total)
                applied.append(reverse)
                result.append(reverse)
            }
            return result
        }
        let total = undo.count + redo.count
        do {
            let back = try take(undo.reversed(), undo.count, total, ascending: false)
            let undone = try take(back.reversed(), 1, total, ascending: true)
            let forward = try take(redo.reversed(), undo.count + 1, total, ascending: true)
            let redone = try take(forward.reversed(), total, total, ascending: false)
            return (undone, redone)
        } catch {
            for group in applied.reversed() { unwind(group) }
            throw error
        }
    }

    /// Applies the reverse of each change of `group`, the last first, each checked first; then
    /// checks the links of every object touched. On a failure nothing of the group stays applied.
    private func checkedReplay(_ group: UndoGroup, number: Int, of total: Int) throws -> UndoGroup {
        replaying = true
        openGroup = UndoGroup(name: group.name)
        var touched: Set<ManagedObject> = []
        var failure: String?
        for change in group.changes.reversed() {
            if let problem = problem(applying: change, touching: &touched) {
                failure = problem
                break
            }
            revert(change)
        }
        let reverse = openGroup ?? UndoGroup(name: group.name)
        openGroup = nil
        replaying = false
        if failure == nil { failure = linkProblem(among: touched) }
        guard let failure else { return reverse }
        unwind(reverse)
        throw HistoryResolver.mismatch("step \(number) of \(total) (\(group.name ?? "unnamed")): \(failure)")
    }

    /// Takes back the changes of `group` without checks (they were just applied).
    private func unwind(_ group: UndoGroup) {
        replaying = true
        for change in group.changes.reversed() { revert(change) }
        replaying = false
    }

    private func name(_ object: ManagedObject) -> String { "\(graph.objectID(of: object))" }

    private func name(_ object: ManagedObject, _ r: RelationshipIndex) -> String {
        "\(name(object)).\(entity(of: object)[r].name)"
    }

    /// Why the reverse of `change` cannot be applied now, or nil; adds the objects whose links
    /// it changes (before and after) to `touched`.
    private func problem(applying change: Change, touching touched: inout Set<ManagedObject>) -> String? {
        let object = change.object
        touched.insert(object)
        switch change {
        case .revived:
            return graph.contains(object) ? nil : "\(name(object)) is not there to delete again"
        case .killed:
            return graph.contains(object) ? "\(name(object)) already exists" : nil
        default:
            break
        }
        guard graph.contains(object) else { return "\(name(object)) does not exist at this step" }
        switch change {
        case .toOne(_, let r, let old, _):
            if let current = graph.relatedObject(of: object, r) { touched.insert(current) }
            if let old {
                guard graph.contains(old) else { return "\(name(object, r)) would point at \(name(old)), which does not exist" }
                touched.insert(old)
            }
        case .memberInserted(_, let r, let index, let member):
            let members = graph.relatedObjects(of: object, r)
            guard index < members.count, members[index] == member else {
                return "\(name(object, r)) does not hold \(name(member)) at position \(index + 1)"
            }
            touched.insert(member)
        case .memberRemoved(_, let r, let index, let member):
            let members = graph.relatedObjects(of: object, r)
            guard index <= members.count else { return "position \(index + 1) is past the end of \(name(object, r))" }
            guard graph.contains(member) else { return "\(name(member)) does not exist to go back into \(name(object, r))" }
            guard !members.contains(member) else { return "\(name(object, r)) already holds \(name(member))" }
            touched.insert(member)
        case .membersReplaced(_, let r, let old, _):
            touched.formUnion(graph.relatedObjects(of: object, r))
            guard Set(old).count == old.count else { return "\(name(object, r)) would list an object twice" }
            if let missing = old.first(where: { !graph.contains($0) }) {
                return "\(name(object, r)) would list \(name(missing)), which does not exist"
            }
            touched.formUnion(old)
        default:
            break
        }
        return nil
    }

    /// The first link among `objects` whose inverse does not agree, or nil. A live object's
    /// links must point at live objects that point back (a link to an object deleted under
    /// delete rule No Action excepted); nothing live may still point at a deleted object.
    ///
    /// - Complexity: O(links of the objects + members of each to-many inverse looked into, once each).
    private func linkProblem(among objects: Set<ManagedObject>) -> String? {
        var memberSets: [InverseKey: Set<ManagedObject>] = [:]
        func holds(_ target: ManagedObject, _ inverse: RelationshipIndex, _ object: ManagedObject) -> Bool {
            if !entity(of: target)[inverse].isToMany { return graph.relatedObject(of: target, inverse) == object }
            let key = InverseKey(object: target, relationship: inverse)
            if let members = memberSets[key] { return members.contains(object) }
            let members = Set(graph.relatedObjects(of: target, inverse))
            memberSets[key] = members
            return members.contains(object)
        }
        for object in objects.sorted() {
            let info = entity(of: object)
            let alive = graph.contains(object)
            for r in info.relationshipIndices where !info[r].isTransient {
                guard let inverse = info.inverse(of: r) else { continue }
                let targets = targets(of: object, r)
                if alive && info[r].isToMany && Set(targets).count != targets.count {
                    return "\(name(object, r)) lists an object twice"
                }
                for target in targets {
                    let targetAlive = graph.contains(target)
                    if alive && !targetAlive {
                        if entity(of: target)[inverse].deleteRule == .noAction { continue }
                        return "\(name(object, r)) points at \(name(target)), which does not exist"
                    }
                    if alive && !holds(target, inverse, object) {
                        return "\(name(object, r)) points at \(name(target)), whose \(entity(of: target)[inverse].name) does not point back"
                    }
                    if !alive && targetAlive && info[r].deleteRule != .noAction && holds(target, inverse, object) {
                        return "\(name(target, inverse)) still points at \(name(object)), which does not exist"
                    }
                }
            }
        }
        return nil
    }
}

/// A to-many relationship of one object, whose members ``EditingContext/linkProblem(among:)`` looked into.
private struct InverseKey: Hashable {
    var object: ManagedObject
    var relationship: RelationshipIndex
}
