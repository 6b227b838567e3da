/// Inserting objects, setting attributes and relationships, with inverses kept in step.
extension EditingContext {
    /// Inserts a new object of the entity called `entityName`, with the model's default values.
    @discardableResult
    public func insert(_ entityName: String) throws -> ManagedObject {
        try insert(entity: try entityIndex(entityName))
    }

    /// Inserts a new object of the entity at `entity` (an index into ``Schema/entities``).
    @discardableResult
    public func insert(entity: EntityIndex) throws -> ManagedObject {
        let info = schema.infos[entity]
        guard !info.entity.isAbstract else {
            throw EngineError(
                .typeMismatch, at: info.name, "\(info.name) is abstract and cannot have objects",
                hint: "Insert one of its subentities: \(info.subentities.map { schema.entities[$0].name }.joined(separator: ", ")).")
        }
        guard graph.nextID <= ObjectID.maximum else {
            throw EngineError(
                .limitExceeded, at: info.name,
                "the document has used every object id up to \(ObjectID(ObjectID.maximum)) (next would be \(ObjectID(graph.nextID)))",
                hint: "No more objects can be added to this document; copy its objects into a new one.")
        }
        let defaults = info.attributes.map { a in a.defaultValue.flatMap { $0.converted(to: a.type) } }
        return try edit { primitiveInsert(entity: entity, values: defaults) }
    }

    /// Sets the attribute called `key` of `object`; `nil` removes the value.
    public func setValue(_ value: Value?, forKey key: String, of object: ManagedObject) throws {
        try checkAlive(object)
        try setAttribute(value, try attributeIndex(key, of: object), of: object)
    }

    /// Sets attribute `attribute` (an index into the entity's ``EntityInfo/attributes``).
    ///
    /// - Throws: ``EngineError`` `typeMismatch` when the value does not fit the attribute's type.
    public func setAttribute(_ value: Value?, _ attribute: AttributeIndex, of object: ManagedObject) throws {
        try checkAlive(object)
        let definition = entity(of: object).attributes[attribute]
        var stored: Value? = nil
        if let value {
            guard let converted = value.converted(to: definition.type) else {
                throw EngineError(
                    .typeMismatch, at: "\(describe(object)).\(definition.name)",
                    "\(value.displayString) is not a valid \(definition.type.modelName) value",
                    hint: "Give a value of type \(definition.type.modelName).")
            }
            stored = converted
        }
        try edit { primitiveSetAttribute(object, attribute, stored) }
    }

    /// Sets the to-one relationship called `key` of `object` to `target` (or nil).
    public func setObject(_ target: ManagedObject?, forKey key: String, of object: ManagedObject) throws {
        try checkAlive(object)
        try setRelated(target, try relationshipIndex(key, of: object, toMany: false), of: object)
    }

    /// Adds `member` to the to-many relationship called `key` of `object`, at `index` or at the end.
    /// Adding a member that is already there moves it to `index`.
    public func add(_ member: ManagedObject, toKey key: String, of object: ManagedObject, at index: Int? = nil) throws {
        try checkAlive(object)
        try add(member, to: try relationshipIndex(key, of: object, toMany: true), of: object, at: index)
    }

    /// Removes `member` from the to-many relationship called `key` of `object`.
    public func remove(_ member: ManagedObject, fromKey key: String, of object: ManagedObject) throws {
        try checkAlive(object)
        try remove(member, from: try relationshipIndex(key, of: object, toMany: true), of: object)
    }

    /// Sets to-one relationship `relationship` of `object` to `target`, updating inverses.
    ///
    /// - Complexity: O(k) where k is the size of the inverse to-many relationship touched.
    public func setRelated(_ target: ManagedObject?, _ relationship: RelationshipIndex, of object: ManagedObject) throws {
        try checkAlive(object)
        let info = entity(of: object)
        precondition(!info.relationships[relationship].isToMany, "setRelated on a to-many relationship")
        if let target { try checkDestination(target, info, relationship) }
        try edit { link(object, relationship, to: target) }
    }

    /// Adds `member` to to-many relationship `relationship` of `object`, at `index` or at the end.
    ///
    /// - Complexity: O(k) in the number of members.
    public func add(_ member: ManagedObject, to relationship: RelationshipIndex, of object: ManagedObject, at index: Int? = nil) throws {
        try checkAlive(object)
        let info = entity(of: object)
        precondition(info.relationships[relationship].isToMany, "add on a to-one relationship")
        try checkDestination(member, info, relationship)
        let count = graph.relatedObjects(of: object, relationship).count
        if let index, index < 0 || index > count {
            throw EngineError(
                .invalidObject, at: "\(describe(object)).\(info.relationships[relationship].name)",
                "position \(index) is outside 0...\(count)")
        }
        try edit { addMember(member, relationship, of: object, at: index) }
    }

    /// Removes `member` from to-many relationship `relationship` of `object`.
    public func remove(_ member: ManagedObject, from relationship: RelationshipIndex, of object: ManagedObject) throws {
        try checkAlive(object)
        try edit {
            guard let index = graph.relatedObjects(of: object, relationship).firstIndex(of: member) else { return }
            primitiveRemoveMember(object, relationship, at: index)
            if let inverse = entity(of: object).inverses[relationship] {
                detachInverse(of: member, inverse, from: object)
            }
        }
    }

    // MARK: Inverse maintenance

    private func checkDestination(_ target: ManagedObject, _ info: EntityInfo, _ relationship: RelationshipIndex) throws {
        try checkAlive(target)
        let destination = info.destinations[relationship]
        guard schema.infos[target.entity].isKind(of: destination) else {
            throw EngineError(
                .typeMismatch, at: "\(info.name).\(info.relationships[relationship].name)",
                "\(describe(target)) is not entity \(schema.entities[destination].name) or one of its subentities")
        }
    }

    /// Points to-one `relationship` of `object` at `target`, fixing both old and new inverses.
    func link(_ object: ManagedObject, _ relationship: RelationshipIndex, to target: ManagedObject?) {
        let old = graph.relatedObject(of: object, relationship)
        guard old != target else { return }
        let inverse = entity(of: object).inverses[relationship]
        if let old, let inverse { detachInverse(of: old, inverse, from: object) }
        primitiveSetToOne(object, relationship, target)
        if let target, let inverse { attachInverse(of: target, inverse, to: object) }
    }

    /// Adds `member` at `index` (or the end), or moves it there if it is already a member.
    func addMember(_ member: ManagedObject, _ relationship: RelationshipIndex, of object: ManagedObject, at index: Int?) {
        let members = graph.relatedObjects(of: object, relationship)
        if let current = members.firstIndex(of: member) {
            guard let index, index != current else { return }
            primitiveRemoveMember(object, relationship, at: current)
            primitiveInsertMember(object, relationship, member, at: min(index, members.count - 1))
            return
        }
        primitiveInsertMember(object, relationship, member, at: index ?? members.count)
        if let inverse = entity(of: object).inverses[relationship] {
            attachInverse(of: member, inverse, to: object)
        }
    }

    /// Makes `inverse` of `target` include `object` (the other side of a link being made).
    func attachInverse(of target: ManagedObject, _ inverse: RelationshipIndex, to object: ManagedObject) {
        let definition = entity(of: target).relationships[inverse]
        if definition.isToMany {
            if !graph.relatedObjects(of: target, inverse).contains(object) {
                primitiveInsertMember(target, inverse, object, at: graph.relatedObjects(of: target, inverse).count)
            }
        } else {
            // A to-one inverse can hold one object: whoever held `target` before lets go of it.
            if let previous = graph.relatedObject(of: target, inverse), previous != object,
                let back = entity(of: target).inverses[inverse]
            {
                detachForward(previous, back, target)
            }
            primitiveSetToOne(target, inverse, object)
        }
    }

    /// Removes `object` from `inverse` of `target` (the other side of a link being broken).
    func detachInverse(of target: ManagedObject, _ inverse: RelationshipIndex, from object: ManagedObject) {
        if entity(of: target).relationships[inverse].isToMany {
            if let index = graph.relatedObjects(of: target, inverse).firstIndex(of: object) {
                primitiveRemoveMember(target, inverse, at: index)
            }
        } else if graph.relatedObject(of: target, inverse) == object {
            primitiveSetToOne(target, inverse, nil)
        }
    }

    /// Removes `target` from relationship `relationship` of `owner` without touching `target`.
    func detachForward(_ owner: ManagedObject, _ relationship: RelationshipIndex, _ target: ManagedObject) {
        if entity(of: owner).relationships[relationship].isToMany {
            if let index = graph.relatedObjects(of: owner, relationship).firstIndex(of: target) {
                primitiveRemoveMember(owner, relationship, at: index)
            }
        } else if graph.relatedObject(of: owner, relationship) == target {
            primitiveSetToOne(owner, relationship, nil)
        }
    }
}

extension EditingContext {
    /// Rearranges the stored order of an *unordered* to-many relationship without recording a
    /// change (the order of an unordered relationship carries no meaning, so nothing changes).
    ///
    /// Domain layers use it right after loading to keep members in a derived order. It is only
    /// allowed while there is no undo history and nothing unsaved, since recorded changes refer
    /// to member positions.
    public func arrangeUnorderedMembers(_ members: [ManagedObject], _ relationship: RelationshipIndex, of object: ManagedObject) {
        precondition(!hasChanges && !canUndo && !canRedo && journal.isEmpty, "arrangeUnorderedMembers with edits pending")
        precondition(!entity(of: object).relationships[relationship].isOrdered, "arrangeUnorderedMembers on an ordered relationship")
        precondition(members.count == graph.relatedObjects(of: object, relationship).count, "arrangeUnorderedMembers must keep the members")
        graph.replaceRelated(object, relationship, with: members)
    }
}
