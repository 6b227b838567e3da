/// The only functions that change the graph. Each records the reverse of what it did.
extension EditingContext {
    func record(_ change: Change) {
        if !replaying && !isUndoRegistrationEnabled { stateChangedOutsideUndo() }
        journal.append(change)
        openGroup?.changes.append(change)
        tracked.add(change)
    }

    func primitiveInsert(entity: EntityIndex, values: [Value?]) -> ManagedObject {
        let object = graph.appendObject(entity: entity, values: values)
        record(.revived(object))
        return object
    }

    func primitiveRevive(_ object: ManagedObject) {
        graph.setAlive(object, true)
        record(.revived(object))
    }

    func primitiveKill(_ object: ManagedObject) {
        graph.setAlive(object, false)
        record(.killed(object))
    }

    func primitiveSetAttribute(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Value?) {
        let old = graph.attributeValue(of: object, attribute)
        guard old != value else { return }
        graph.setAttribute(object, attribute, value)
        record(.attribute(object, attribute, old: old))
    }

    func primitiveSetToOne(_ object: ManagedObject, _ relationship: RelationshipIndex, _ target: ManagedObject?) {
        let old = graph.relatedObject(of: object, relationship)
        guard old != target else { return }
        graph.setRelated(object, relationship, target)
        record(.toOne(object, relationship, old: old, new: target))
    }

    func primitiveInsertMember(_ object: ManagedObject, _ relationship: RelationshipIndex, _ member: ManagedObject, at index: Int) {
        graph.insertRelated(object, relationship, member, at: index)
        record(.memberInserted(object, relationship, index: index, member: member))
    }

    func primitiveRemoveMember(_ object: ManagedObject, _ relationship: RelationshipIndex, at index: Int) {
        let member = graph.removeRelated(object, relationship, at: index)
        record(.memberRemoved(object, relationship, index: index, member: member))
    }

    func primitiveReplaceMembers(_ object: ManagedObject, _ relationship: RelationshipIndex, _ members: [ManagedObject]) {
        let old = graph.relatedObjects(of: object, relationship)
        graph.replaceRelated(object, relationship, with: members)
        record(.membersReplaced(object, relationship, old: old, new: members))
    }

    /// Applies the reverse of `change` (which records its own reverse in turn).
    func revert(_ change: Change) {
        switch change {
        case .revived(let o): primitiveKill(o)
        case .killed(let o): primitiveRevive(o)
        case .attribute(let o, let a, let old): primitiveSetAttribute(o, a, old)
        case .toOne(let o, let r, let old, _): primitiveSetToOne(o, r, old)
        case .memberInserted(let o, let r, let index, _): primitiveRemoveMember(o, r, at: index)
        case .memberRemoved(let o, let r, let index, let member): primitiveInsertMember(o, r, member, at: index)
        case .membersReplaced(let o, let r, let old, _): primitiveReplaceMembers(o, r, old)
        }
    }
}
