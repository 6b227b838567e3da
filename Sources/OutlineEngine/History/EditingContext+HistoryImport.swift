/// Taking over undo and redo steps kept in stable terms.
extension EditingContext {
    /// Takes over `history` as this context's undo and redo steps: after it, ``undo()`` and
    /// ``redo()`` take them back and forth as if they had been made in this context.
    ///
    /// The context must be fresh from loading the document the history was kept with: nothing
    /// changed, no steps. Objects the history deletes are recreated as deleted objects with their
    /// ids and values, ready to be brought back. Then every step is taken back and forth once,
    /// each change checked before it is applied (the object exists, or does not yet; positions
    /// are in range and hold the member the step names; links and their inverses agree after
    /// each step), so that a history that does not fit the objects is refused here and never
    /// leaves the graph half changed.
    ///
    /// - Throws: ``EngineError`` `historyMismatch`, naming the step and what does not fit; the
    ///   objects are then as they were (and the context has no steps).
    /// - Complexity: O(c + d·p + n) for c changes, d deleted objects with p properties each, and
    ///   n objects in the graph (one pass to find the objects the history names).
    public func importUndoHistory(_ history: UndoHistory) throws {
        precondition(
            groupDepth == 0 && undoStack.isEmpty && redoStack.isEmpty && !hasChanges && journal.isEmpty,
            "importUndoHistory(_:) needs a context without changes or steps")
        guard !history.isEmpty else { return }
        var resolver = HistoryResolver(context: self)
        try resolver.prepare(history)
        let undo = try history.undoSteps.enumerated().map { try resolver.group($1, number: $0 + 1, of: history) }
        let redo = try history.redoSteps.enumerated().map {
            try resolver.group($1, number: history.undoSteps.count + history.redoSteps.count - $0, of: history)
        }
        let rehearsed: (undo: [UndoGroup], redo: [UndoGroup])
        do {
            rehearsed = try rehearse(undo: undo, redo: redo)
        } catch {
            markSaved()
            throw error
        }
        markSaved()
        undoStack = rehearsed.undo
        redoStack = rehearsed.redo
        numberStates()
    }

    /// Gives the taken-over steps the states of a timeline that ends, for the undo steps, at
    /// the current (saved) state: undo step i leads from state i-1 to state i, redo steps lead
    /// back from the state they make to the one before it, so undoing and redoing back to the
    /// saved state reports no changes.
    private func numberStates() {
        var states = [UInt64](repeating: 0, count: undoStack.count + redoStack.count + 1)
        for i in states.indices where i != undoStack.count { states[i] = newStateID() }
        states[undoStack.count] = stateID
        for i in undoStack.indices {
            undoStack[i].start = states[i]
            undoStack[i].end = states[i + 1]
            undoStack[i].epoch = epoch
        }
        // The redo stack's last step is redone first: it makes the state after the current one.
        for (offset, i) in redoStack.indices.reversed().enumerated() {
            let made = undoStack.count + offset + 1
            redoStack[i].start = states[made]
            redoStack[i].end = states[made - 1]
            redoStack[i].epoch = epoch
        }
    }
}

/// Turns a history's stable terms into the context's objects and indices, recreating the
/// objects it deletes as dead rows.
struct HistoryResolver {
    let context: EditingContext
    /// Every object the history names: live ones, and the dead rows made for its snapshots.
    private var objects: [ObjectID: ManagedObject] = [:]

    init(context: EditingContext) {
        self.context = context
    }

    var schema: Schema { context.schema }
    var graph: ObjectGraph { context.graph }

    static func mismatch(_ message: String, at location: String? = nil) -> EngineError {
        EngineError(
            .historyMismatch, at: location, message,
            hint: "The undo history does not belong to these objects; it cannot be used.")
    }

    /// Finds the live objects the history names and makes a dead row for each snapshot.
    mutating func prepare(_ history: UndoHistory) throws {
        var snapshots: [ObjectID: UndoHistory.ObjectSnapshot] = [:]
        var named: Set<UInt64> = []
        for step in history.undoSteps + history.redoSteps {
            for change in step.changes {
                switch change {
                case .deleted(let snapshot):
                    guard snapshots.updateValue(snapshot, forKey: snapshot.id) == nil else {
                        throw Self.mismatch("object \(snapshot.id) is deleted twice in the history")
                    }
                    for target in snapshot.toOne.values { named.insert(target.rawValue) }
                    for members in snapshot.toMany.values { for member in members { named.insert(member.rawValue) } }
                case .inserted(let id), .attribute(let id, _, _):
                    named.insert(id.rawValue)
                case .toOne(let id, _, let old):
                    named.insert(id.rawValue)
                    if let old { named.insert(old.rawValue) }
                case .memberInserted(let id, _, _, let member), .memberRemoved(let id, _, _, let member):
                    named.insert(id.rawValue)
                    named.insert(member.rawValue)
                case .membersReplaced(let id, _, let old):
                    named.insert(id.rawValue)
                    for member in old { named.insert(member.rawValue) }
                }
            }
        }
        for id in snapshots.keys { named.insert(id.rawValue) }
        for (raw, object) in graph.liveObjects(withIDs: named) { objects[ObjectID(raw)] = object }

        let ordered = snapshots.keys.sorted()
        for id in ordered {
            let snapshot = snapshots[id]!
            guard objects[id] == nil else {
                throw Self.mismatch("object \(id) is deleted in the history but exists in the document", at: "\(id)")
            }
            guard id.rawValue < graph.nextID else {
                throw Self.mismatch("object \(id) is deleted in the history, but the document never had an object with that id", at: "\(id)")
            }
            guard let entity = schema.entityIndex(named: snapshot.entity), !schema.entities[entity].isAbstract else {
                throw Self.mismatch(
                    "object \(id) is of entity \"\(snapshot.entity)\", which the model does not have as a concrete entity", at: "\(id)")
            }
            let info = schema.infos[entity]
            var values = [Value?](repeating: nil, count: info.attributes.count)
            for (name, value) in snapshot.attributes {
                let a = try attribute(name, of: info, location: "\(id)")
                values[a] = try checked(value, for: info, a, location: "\(id)")
            }
            for name in snapshot.toOne.keys { _ = try relationship(name, of: info, toMany: false, location: "\(id)") }
            for name in snapshot.toMany.keys { _ = try relationship(name, of: info, toMany: true, location: "\(id)") }
            objects[id] = graph.appendDeadObject(entity: entity, id: id.rawValue, values: values)
        }
        for id in ordered {
            let snapshot = snapshots[id]!
            guard let object = objects[id] else { continue }
            let info = context.entity(of: object)
            for (name, targetID) in snapshot.toOne {
                let r = try relationship(name, of: info, toMany: false, location: "\(id)")
                graph.setRelated(object, r, try target(targetID, of: info, r, location: "\(id).\(name)"))
            }
            for (name, memberIDs) in snapshot.toMany {
                let r = try relationship(name, of: info, toMany: true, location: "\(id)")
                let members = try memberIDs.map { try target($0, of: info, r, location: "\(id).\(name)") }
                guard Set(members).count == members.count else {
                    throw Self.mismatch("\(name) of deleted object \(id) lists an object twice", at: "\(id).\(name)")
                }
                graph.replaceRelated(object, r, with: members)
            }
        }
    }

    /// The step as an undo group of the context.
    func group(_ step: UndoHistory.Step, number: Int, of history: UndoHistory) throws -> UndoGroup {
        var changes: [Change] = []
        changes.reserveCapacity(step.changes.count)
        do {
            for change in step.changes { changes.append(try self.change(change)) }
        } catch var error as EngineError {
            error.message = "step \(number) of \(history.count) (\(step.name ?? "unnamed")): \(error.message)"
            throw error
        }
        return UndoGroup(name: step.name, changes: changes)
    }

    private func change(_ change: UndoHistory.Change) throws -> Change {
        switch change {
        case .inserted(let id):
            return .revived(try object(id))
        case .deleted(let snapshot):
            return .killed(try object(snapshot.id))
        case .attribute(let id, let name, let old):
            let object = try object(id)
            let info = context.entity(of: object)
            let a = try attribute(name, of: info, location: "\(id)")
            return .attribute(object, a, old: try old.map { try checked($0, for: info, a, location: "\(id)") })
        case .toOne(let id, let name, let old):
            let object = try object(id)
            let info = context.entity(of: object)
            let r = try relationship(name, of: info, toMany: false, location: "\(id)")
            // What it became is known only once the step is taken; the rehearsal records it.
            return .toOne(object, r, old: try old.map { try target($0, of: info, r, location: "\(id).\(name)") }, new: nil)
        case .memberInserted(let id, let name, let index, let member):
            let (object, r, resolved) = try membership(id, name, index, member)
            return .memberInserted(object, r, index: index, member: resolved)
        case .memberRemoved(let id, let name, let index, let member):
            let (object, r, resolved) = try membership(id, name, index, member)
            return .memberRemoved(object, r, index: index, member: resolved)
        case .membersReplaced(let id, let name, let old):
            let object = try object(id)
            let info = context.entity(of: object)
            let r = try relationship(name, of: info, toMany: true, location: "\(id)")
            return .membersReplaced(object, r, old: try old.map { try target($0, of: info, r, location: "\(id).\(name)") }, new: [])
        }
    }

    private func membership(_ id: ObjectID, _ name: String, _ index: Int, _ member: ObjectID) throws
        -> (ManagedObject, RelationshipIndex, ManagedObject)
    {
        let object = try object(id)
        let info = context.entity(of: object)
        let r = try relationship(name, of: info, toMany: true, location: "\(id)")
        guard index >= 0 else { throw Self.mismatch("position \(index) of \(name) is negative", at: "\(id).\(name)") }
        return (object, r, try target(member, of: info, r, location: "\(id).\(name)"))
    }

    // MARK: Names and values

    private func object(_ id: ObjectID) throws -> ManagedObject {
        guard let object = objects[id] else {
            throw Self.mismatch("the history names object \(id), which neither the document nor the history has", at: "\(id)")
        }
        return object
    }

    private func target(_ id: ObjectID, of info: EntityInfo, _ r: RelationshipIndex, location: String) throws -> ManagedObject {
        let object = try object(id)
        guard schema.infos[object.entity].isKind(of: info.destination(of: r)) else {
            throw Self.mismatch(
                "\(id) is a \(schema.entities[object.entity].name), not a \(schema.entities[info.destination(of: r)].name)",
                at: location)
        }
        return object
    }

    private func attribute(_ name: String, of info: EntityInfo, location: String) throws -> AttributeIndex {
        guard let a = info.attributeIndex(named: name), !info[a].isTransient else {
            throw Self.mismatch("\(info.name) has no stored attribute \"\(name)\"", at: location)
        }
        return a
    }

    private func relationship(_ name: String, of info: EntityInfo, toMany: Bool, location: String) throws -> RelationshipIndex {
        guard let r = info.relationshipIndex(named: name), !info[r].isTransient else {
            throw Self.mismatch("\(info.name) has no stored relationship \"\(name)\"", at: location)
        }
        guard info[r].isToMany == toMany else {
            throw Self.mismatch("\(info.name).\(name) is a \(toMany ? "to-one" : "to-many") relationship", at: location)
        }
        return r
    }

    /// `value` when it is in the storage form of the attribute's type.
    private func checked(_ value: Value, for info: EntityInfo, _ a: AttributeIndex, location: String) throws -> Value {
        let type = info[a].type
        guard Self.isStorageForm(value, of: type) else {
            throw Self.mismatch(
                "\(value.displayString) is not a stored \(type.modelName) value of \(info.name).\(info[a].name)",
                at: location)
        }
        return value
    }

    /// Whether `value` is how the engine holds a value of `type` (Float as a Double, URI as a
    /// String, ...), integers within the type's range.
    static func isStorageForm(_ value: Value, of type: AttributeType) -> Bool {
        switch (value, type) {
        case (.integer(let n), .integer16), (.integer(let n), .integer32), (.integer(let n), .integer64):
            type.integerRange?.contains(n) == true
        case (.double, .double), (.double, .float), (.decimal, .decimal), (.boolean, .boolean), (.date, .date),
            (.string, .string), (.string, .uri), (.string, .objectID), (.binary, .binary), (.binary, .transformable),
            (.uuid, .uuid):
            true
        default:
            false
        }
    }
}
