/// Merging the changes of a scratch or background context as one undo step.
extension EditingContext {
    /// Applies `changes`, made in a context forked from this one, as one undo step named
    /// `actionName`; observers get one batch.
    ///
    /// Objects made there are inserted with their values (``MergeReport/insertedObjects``
    /// gives their handles here); attributes and relationships take their new values, with
    /// inverses kept in step; deleted objects are deleted with their delete rules. Changes
    /// this context made since the fork are dealt with as ``MergeConflict`` describes.
    /// - Parameters:
    ///   - changes: what the forked context changed (its ``changesSinceFork()``).
    ///   - actionName: the name of the undo step.
    ///   - finishing: called after the changes are applied, in the same undo step, to
    ///     restore what the domain keeps consistent across objects (such as the positions an
    ///     outline stores in lists that both sides changed).
    /// - Complexity: O(c + l) for c changed properties and l members of the lists they touch.
    @discardableResult
    public func merge(
        _ changes: ContextChanges, named actionName: String?,
        finishing: ((MergeReport) throws -> Void)? = nil
    ) throws -> MergeReport {
        precondition(changes.fork.parent == identity, "merge(_:named:) with the changes of a context forked from another context")
        var report = MergeReport()
        guard !changes.isEmpty else { return report }
        let fork = changes.fork
        // Before anything is applied (applying lists detaches deleted objects too).
        var changedHere = Set<ManagedObject>()
        for (object, state) in zip(changes.deletions, changes.deletedStates)
        where graph.contains(object) && changedSinceFork(object, base: state) {
            changedHere.insert(object)
        }
        try perform(actionName) {
            for insertion in changes.insertions {
                report.insertedObjects[insertion.object] = primitiveInsert(entity: insertion.object.entity, values: insertion.values)
            }
            let inserted = report.insertedObjects
            /// The object here for a handle of the scratch context; nil when deleted here.
            func here(_ object: ManagedObject) -> ManagedObject? {
                fork.isNew(object) ? inserted[object] : (graph.contains(object) ? object : nil)
            }
            func conflict(_ kind: MergeConflict.Kind, _ object: ManagedObject, _ property: String? = nil) {
                report.conflicts.append(
                    MergeConflict(
                        kind: kind, object: object, objectID: graph.objectID(of: object),
                        entity: schema.entities[object.entity].name, property: property))
            }

            for change in changes.attributes {
                let name = schema.infos[change.object.entity][change.attribute].name
                guard graph.contains(change.object) else {
                    conflict(.deletedInParent, change.object, name)
                    continue
                }
                let current = graph.attributeValue(of: change.object, change.attribute)
                if current != change.base && current != change.value { conflict(.changedInBoth, change.object, name) }
                primitiveSetAttribute(change.object, change.attribute, change.value)
            }

            // Every list's new members are worked out from the lists as the merge found them.
            var lists: [(owner: ManagedObject, relationship: RelationshipIndex, members: [ManagedObject])] = []
            for change in changes.toMany {
                let name = schema.infos[change.object.entity][change.relationship].name
                guard let owner = here(change.object) else {
                    conflict(.deletedInParent, change.object, name)
                    continue
                }
                var members: [ManagedObject] = []
                members.reserveCapacity(change.members.count)
                for member in change.members {
                    if let kept = here(member) { members.append(kept) } else { conflict(.deletedInParent, member) }
                }
                let current = fork.isNew(change.object) ? [] : graph.relatedObjects(of: owner, change.relationship)
                if current != change.base {
                    conflict(.changedInBoth, owner, name)
                    members = Self.mergeLists(base: change.base, scratch: members, parent: current)
                }
                lists.append((owner, change.relationship, members))
            }

            // To-one sides, unless a list on the other side carries them.
            for change in changes.toOne {
                let info = schema.infos[change.object.entity]
                let r = change.relationship
                if let inverse = info.inverses[r], schema.infos[info.destinations[r]].relationships[inverse].isToMany { continue }
                guard let owner = here(change.object) else {
                    conflict(.deletedInParent, change.object, info[r].name)
                    continue
                }
                var target: ManagedObject?
                if let wanted = change.target {
                    guard let kept = here(wanted) else {
                        conflict(.deletedInParent, wanted)
                        continue
                    }
                    target = kept
                }
                if !fork.isNew(change.object) {
                    let current = graph.relatedObject(of: owner, r)
                    if current != change.base && current != target { conflict(.changedInBoth, owner, info[r].name) }
                }
                link(owner, r, to: target)
            }
            for list in lists { setMembers(list.owner, list.relationship, list.members) }

            var doomed: [ManagedObject] = []
            for object in changes.deletions where graph.contains(object) {
                if changedHere.contains(object) { conflict(.deletedInScratch, object) }
                doomed.append(object)
            }
            if !doomed.isEmpty { try deleteMerged(doomed) { conflict(.deleteRefused, $0) } }
            try finishing?(report)
        }
        return report
    }

    /// Deletes what a scratch context deleted; objects a Deny rule keeps here are kept and
    /// passed to `refused`.
    private func deleteMerged(_ doomed: [ManagedObject], refused: (ManagedObject) -> Void) throws {
        do {
            try delete(doomed)
        } catch let error as EngineError where error.code == .deleteDenied {
            // One at a time: keep those a Deny rule protects here.
            for object in doomed where graph.contains(object) {
                do {
                    try delete(object)
                } catch let error as EngineError where error.code == .deleteDenied {
                    refused(object)
                }
            }
        }
    }

    /// Replaces the members of to-many `relationship` of `object` with `members`, keeping
    /// inverses in step, as one recorded change of the list.
    ///
    /// - Complexity: O(k + m) for the old and new members (plus, for each member that moves from
    ///   another object's list, the size of that list).
    func setMembers(_ object: ManagedObject, _ relationship: RelationshipIndex, _ members: [ManagedObject]) {
        let current = graph.relatedObjects(of: object, relationship)
        guard current != members else { return }
        let inverse = entity(of: object).inverses[relationship]
        if let inverse {
            let kept = Set(members)
            for member in current where !kept.contains(member) { detachInverse(of: member, inverse, from: object) }
        }
        primitiveReplaceMembers(object, relationship, members)
        if let inverse {
            let had = Set(current)
            for member in members where !had.contains(member) { attachInverse(of: member, inverse, to: object) }
        }
    }

    /// The scratch context's list with the parent's own changes since the fork put back: its
    /// additions after their neighbours (at the start when none is left), its removals taken out.
    static func mergeLists(base: [ManagedObject], scratch: [ManagedObject], parent: [ManagedObject]) -> [ManagedObject] {
        let inBase = Set(base)
        let inParent = Set(parent)
        let result = scratch.filter { !inBase.contains($0) || inParent.contains($0) }
        let inResult = Set(result)
        var runs: [ManagedObject?: [ManagedObject]] = [:]
        var anchor: ManagedObject?
        for member in parent {
            if inResult.contains(member) {
                anchor = member
            } else if !inBase.contains(member) {
                runs[anchor, default: []].append(member)
            }
        }
        guard !runs.isEmpty else { return result }
        var merged = runs[nil] ?? []
        merged.reserveCapacity(result.count + runs.values.reduce(0) { $0 + $1.count })
        for member in result {
            merged.append(member)
            if let run = runs[member] { merged.append(contentsOf: run) }
        }
        return merged
    }

    /// Whether `object` differs from `base`, its state at the fork: any attribute or relationship.
    func changedSinceFork(_ object: ManagedObject, base: ContextChanges.ObjectState) -> Bool {
        let info = schema.infos[object.entity]
        for (i, a) in info.attributeIndices.enumerated() where graph.attributeValue(of: object, a) != base.attributes[i] { return true }
        for (i, r) in info.relationshipIndices.enumerated() {
            if info[r].isToMany {
                if graph.relatedObjects(of: object, r) != base.relationships[i] { return true }
            } else if graph.relatedObject(of: object, r) != base.relationships[i].first {
                return true
            }
        }
        return false
    }
}
