/// Deleting objects with Core Data's delete rules.
extension EditingContext {
    /// Deletes `object` and applies the delete rules of its relationships: cascade deletes the
    /// destinations too, nullify removes the deleted objects from the inverses of survivors, deny
    /// refuses while a survivor is still related, no action leaves survivors untouched.
    ///
    /// - Throws: ``EngineError`` `deleteDenied` (nothing is changed) naming the relationship and object.
    /// - Complexity: O(d + s) where d is the number of objects deleted and s the size of the
    ///   surviving relationships they are removed from; never recursive.
    public func delete(_ object: ManagedObject) throws {
        try delete([object])
    }

    /// Deletes several objects as one step (see ``delete(_:)``).
    public func delete(_ objects: [ManagedObject]) throws {
        for object in objects { try checkAlive(object) }
        let doomed = cascadeClosure(of: objects)
        try checkDenyRules(doomed)
        try edit {
            detachFromSurvivors(doomed)
            for object in doomed.order { primitiveKill(object) }
        }
    }

    struct Doomed {
        var order: [ManagedObject] = []
        var members: Set<ManagedObject> = []
    }

    /// The objects to delete: `roots` and everything reachable through cascade rules.
    private func cascadeClosure(of roots: [ManagedObject]) -> Doomed {
        var doomed = Doomed()
        var stack: [ManagedObject] = []
        for root in roots where doomed.members.insert(root).inserted { stack.append(root) }
        while let object = stack.popLast() {
            doomed.order.append(object)
            let info = entity(of: object)
            for (r, relationship) in zip(info.relationshipIndices, info.relationships) where relationship.deleteRule == .cascade {
                for target in targets(of: object, r) where graph.contains(target) && doomed.members.insert(target).inserted {
                    stack.append(target)
                }
            }
        }
        return doomed
    }

    private func checkDenyRules(_ doomed: Doomed) throws {
        for object in doomed.order {
            let info = entity(of: object)
            for (r, relationship) in zip(info.relationshipIndices, info.relationships) where relationship.deleteRule == .deny {
                if let survivor = targets(of: object, r).first(where: { graph.contains($0) && !doomed.members.contains($0) }) {
                    throw EngineError(
                        .deleteDenied, at: "\(describe(object)).\(relationship.name)",
                        "cannot delete \(describe(object)): its relationship \"\(relationship.name)\" still refers to \(describe(survivor)) and its delete rule is Deny",
                        hint: "Remove or delete the related objects first.")
                }
            }
        }
    }

    /// Removes the doomed objects from the relationships of objects that survive.
    private func detachFromSurvivors(_ doomed: Doomed) {
        // Removals from survivors' to-many relationships, batched so each list is rewritten once.
        var removals: [ManagedObject: [RelationshipIndex: Set<ManagedObject>]] = [:]
        for object in doomed.order {
            let info = entity(of: object)
            for (r, relationship) in zip(info.relationshipIndices, info.relationships) {
                guard relationship.deleteRule != .noAction, let inverse = info.inverses[r] else { continue }
                for target in targets(of: object, r) where graph.contains(target) && !doomed.members.contains(target) {
                    if entity(of: target).relationships[inverse].isToMany {
                        removals[target, default: [:]][inverse, default: []].insert(object)
                    } else if graph.relatedObject(of: target, inverse) == object {
                        primitiveSetToOne(target, inverse, nil)
                    }
                }
            }
        }
        for survivor in removals.keys.sorted() {
            for (relationship, gone) in removals[survivor]!.sorted(by: { $0.key < $1.key }) {
                let members = graph.relatedObjects(of: survivor, relationship)
                if gone.count == 1, let index = members.firstIndex(of: gone.first!) {
                    primitiveRemoveMember(survivor, relationship, at: index)
                } else {
                    primitiveReplaceMembers(survivor, relationship, members.filter { !gone.contains($0) })
                }
            }
        }
    }

    func targets(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject] {
        if entity(of: object).relationships[relationship].isToMany {
            return graph.relatedObjects(of: object, relationship)
        }
        return graph.relatedObject(of: object, relationship).map { [$0] } ?? []
    }
}
