extension MigrationPlan {
    /// Infers the mapping from `source` to `destination` the way Core Data's lightweight
    /// migration does, with this project's stricter checks (see the migration rules).
    ///
    /// Never throws: everything that stops the migration is collected in ``blockers``.
    public static func infer(from source: Schema, to destination: Schema, options: MigrationOptions = MigrationOptions()) -> MigrationPlan {
        var plan = MigrationPlan(source: source, destination: destination, options: options)
        var planner = Planner(plan: plan)
        planner.run()
        plan = planner.plan
        return plan
    }
}

/// The inference itself, kept apart from the plan's public surface.
private struct Planner {
    var plan: MigrationPlan
    var source: Schema { plan.source }
    var destination: Schema { plan.destination }

    mutating func run() {
        let sourceByID = identifierIndex(source.entities.map(\.migrationIdentifier), side: "source", entity: nil)
        _ = identifierIndex(destination.entities.map(\.migrationIdentifier), side: "destination", entity: nil)
        var matched: Set<Int> = []
        for info in destination.infos {
            guard let s = sourceByID[info.entity.migrationIdentifier] else {
                plan.entities.append(
                    EntityMapping(
                        kind: .add, source: nil, destination: info.name, attributes: [],
                        relationships: [], removedAttributes: [], removedRelationships: []))
                continue
            }
            matched.insert(s)
            plan.entities.append(mapEntity(source.infos[s], to: info))
        }
        plan.removedEntities = source.entities.indices.filter { !matched.contains($0) }.map { source.entities[$0].name }
    }

    /// Maps identifiers to indices, reporting duplicates as blockers.
    mutating func identifierIndex(_ identifiers: [String], side: String, entity: String?) -> [String: Int] {
        var index: [String: Int] = [:]
        for (i, id) in identifiers.enumerated() {
            if index[id] != nil {
                plan.blockers.append(
                    MigrationBlocker(
                        code: .duplicateIdentifier, entity: entity ?? id, property: entity == nil ? nil : id,
                        from: side, to: side,
                        reason: "two \(entity == nil ? "entities" : "properties") of the \(side) model share the renaming identifier \"\(id)\"",
                        hint: "Give each a distinct renaming identifier (elementID) in the model."))
            } else {
                index[id] = i
            }
        }
        return index
    }

    mutating func mapEntity(_ s: EntityInfo, to d: EntityInfo) -> EntityMapping {
        let name = d.name
        if d.entity.isAbstract && !s.entity.isAbstract {
            plan.blockers.append(
                MigrationBlocker(
                    code: .becameAbstract, entity: name, property: nil, from: "concrete \(s.name)", to: "abstract \(name)",
                    reason: "objects of a concrete entity cannot move to an abstract one",
                    hint: "Keep the entity concrete, or move its objects to a concrete subentity in an intermediate version."))
        }
        // Properties of both kinds, by identifier.
        enum Property {
            case attribute(Int)
            case relationship(Int)
        }
        var sourceProperties: [String: Property] = [:]
        var seen: [String] = []
        for (i, a) in s.attributes.enumerated() where !a.isTransient {
            sourceProperties[a.migrationIdentifier] = .attribute(i)
            seen.append(a.migrationIdentifier)
        }
        for (i, r) in s.relationships.enumerated() where !r.isTransient {
            sourceProperties[r.migrationIdentifier] = .relationship(i)
            seen.append(r.migrationIdentifier)
        }
        _ = identifierIndex(seen, side: "source", entity: name)
        _ = identifierIndex(
            d.attributes.filter { !$0.isTransient }.map(\.migrationIdentifier)
                + d.relationships.filter { !$0.isTransient }.map(\.migrationIdentifier), side: "destination", entity: name)

        var used: Set<String> = []
        var attributes: [AttributeMapping] = []
        for a in d.attributes where !a.isTransient {
            let id = a.migrationIdentifier
            switch sourceProperties[id] {
            case .attribute(let i)?:
                used.insert(id)
                attributes.append(mapAttribute(s.attributes[i], to: a, entity: name))
            case .relationship(let i)?:
                used.insert(id)
                plan.blockers.append(
                    MigrationBlocker(
                        code: .kindChanged, entity: name, property: a.name, from: "relationship \(s.relationships[i].name)",
                        to: "attribute \(a.name) (\(a.type.modelName))",
                        reason: "a relationship cannot become an attribute; its data would be lost",
                        hint: "Add the attribute under a new name and fill it from the relationship in code, or give it another renaming identifier.")
                )
            case nil:
                let value = a.defaultValue.flatMap { $0.converted(to: a.type) }
                attributes.append(
                    AttributeMapping(
                        destination: a.name, source: nil, action: .initialize(value),
                        fillsNilWithDefault: false, requiresValue: !a.isOptional))
                if !a.isOptional && value == nil {
                    plan.risks.append(
                        MigrationRisk(
                            kind: .newRequiredAttribute, entity: name, property: a.name, from: "absent",
                            to: "required \(a.type.modelName) without a default", fails: "every object, if any exists"))
                }
            }
        }
        var relationships: [RelationshipMapping] = []
        for (ri, r) in d.relationships.enumerated() where !r.isTransient {
            let id = r.migrationIdentifier
            switch sourceProperties[id] {
            case .relationship(let i)?:
                used.insert(id)
                relationships.append(mapRelationship(s, i, to: d, ri, entity: name))
            case .attribute(let i)?:
                used.insert(id)
                plan.blockers.append(
                    MigrationBlocker(
                        code: .kindChanged, entity: name, property: r.name,
                        from: "attribute \(s.attributes[i].name) (\(s.attributes[i].type.modelName))",
                        to: "relationship \(r.name)",
                        reason: "an attribute cannot become a relationship; its values would be lost",
                        hint: "Add the relationship under a new name and fill it in code, or give it another renaming identifier."))
            case nil:
                relationships.append(
                    RelationshipMapping(
                        destination: r.name, source: nil, action: .initialize,
                        requiresValue: !r.isOptional, notes: []))
                if !r.isOptional {
                    plan.risks.append(
                        MigrationRisk(
                            kind: .requiredRelationship, entity: name, property: r.name, from: "absent",
                            to: "required \(r.isToMany ? "to-many" : "to-one") to \(r.destination)",
                            fails: "every object, if any exists (a new relationship starts empty)"))
                }
            }
        }
        let removedAttributes = s.attributes.filter { !$0.isTransient && !used.contains($0.migrationIdentifier) }.map(\.name)
        let removedRelationships = s.relationships.filter { !$0.isTransient && !used.contains($0.migrationIdentifier) }.map(\.name)
        let same = source.versionHash(ofEntity: s.index) == destination.versionHash(ofEntity: d.index)
        return EntityMapping(
            kind: same ? .copy : .transform, source: s.name, destination: name, attributes: attributes,
            relationships: relationships, removedAttributes: removedAttributes, removedRelationships: removedRelationships)
    }

    mutating func mapAttribute(_ s: Attribute, to d: Attribute, entity: String) -> AttributeMapping {
        let action: AttributeMapping.Action
        switch TypeChange.classify(s.type, d.type, destinationUserInfo: d.userInfo) {
        case .same: action = .copy
        case .lossless: action = .promote(from: s.type, to: d.type)
        case .lossy: action = .narrow(from: s.type, to: d.type)
        case .incompatible:
            plan.blockers.append(
                MigrationBlocker(
                    code: .incompatibleTypes, entity: entity, property: d.name, from: s.type.modelName, to: d.type.modelName,
                    reason: "\(s.type.modelName) values cannot be converted to \(d.type.modelName)",
                    hint: "Keep the type, or add a new attribute under another name (with its own renaming identifier) and fill it in code."))
            action = .copy
        }
        let fills = s.isOptional && !d.isOptional && d.defaultValue != nil
        if s.isOptional && !d.isOptional && d.defaultValue == nil {
            plan.risks.append(
                MigrationRisk(
                    kind: .optionalToRequired, entity: entity, property: d.name,
                    from: "optional \(s.type.modelName)", to: "required \(d.type.modelName) without a default",
                    fails: "every object whose value is nil"))
        }
        if case .narrow(let from, let to) = action, !plan.options.allowsLossyConversions {
            plan.risks.append(
                MigrationRisk(
                    kind: .checkedNarrowing, entity: entity, property: d.name, from: from.modelName,
                    to: to.modelName, fails: "every object whose value does not fit \(to.modelName) exactly"))
        }
        return AttributeMapping(
            destination: d.name, source: s.name, action: action, fillsNilWithDefault: fills,
            requiresValue: !d.isOptional)
    }

    mutating func mapRelationship(_ s: EntityInfo, _ si: Int, to d: EntityInfo, _ di: Int, entity: String) -> RelationshipMapping {
        let sr = s.relationships[si]
        let dr = d.relationships[di]
        var notes: [String] = []
        // The source destination entity must map into the new destination entity's family.
        let sourceTarget = source.entities[s.destinations[si]]
        let destinationTarget = d.destinations[di]
        if let mapped = destination.entities.firstIndex(where: { $0.migrationIdentifier == sourceTarget.migrationIdentifier }) {
            if !destination.infos[mapped].isKind(of: destinationTarget) {
                plan.blockers.append(
                    MigrationBlocker(
                        code: .destinationChanged, entity: entity, property: dr.name, from: "to \(sourceTarget.name)",
                        to: "to \(destination.entities[destinationTarget].name)",
                        reason:
                            "objects of \(sourceTarget.name) become \(destination.entities[mapped].name), which is not entity \(destination.entities[destinationTarget].name) or one of its subentities",
                        hint: "Point the relationship at the entity its old destination maps to, or use a new relationship."))
            }
        }
        let action: RelationshipMapping.Action
        switch (sr.isToMany, dr.isToMany) {
        case (false, false), (true, true): action = .copy
        case (false, true):
            action = .wrap
            notes.append("to-one becomes to-many")
        case (true, false):
            if plan.options.allowsToManyToToOne {
                action = .collapse
                notes.append("to-many becomes to-one where each object has at most one destination")
                plan.risks.append(
                    MigrationRisk(
                        kind: .toManyToToOne, entity: entity, property: dr.name, from: "to-many",
                        to: "to-one", fails: "every object with more than one destination"))
            } else {
                action = .copy
                plan.blockers.append(
                    MigrationBlocker(
                        code: .toManyToToOne, entity: entity, property: dr.name, from: "to-many", to: "to-one",
                        reason: "a to-many relationship cannot become to-one without choosing which destination to keep",
                        hint:
                            "Keep it to-many, or allow the change (MigrationOptions.allowsToManyToToOne) when no object has more than one destination."
                    ))
            }
        }
        if sr.isToMany && dr.isToMany && sr.isOrdered != dr.isOrdered {
            notes.append(dr.isOrdered ? "becomes ordered (in stored order)" : "becomes unordered")
        }
        if sr.isOptional && !dr.isOptional {
            plan.risks.append(
                MigrationRisk(
                    kind: .requiredRelationship, entity: entity, property: dr.name,
                    from: "optional \(sr.isToMany ? "to-many" : "to-one")",
                    to: "required \(dr.isToMany ? "to-many" : "to-one")",
                    fails: "every object left without a destination"))
        }
        if sr.deleteRule != dr.deleteRule { notes.append("delete rule \(sr.deleteRule.rawValue) -> \(dr.deleteRule.rawValue)") }
        if sr.inverse != dr.inverse { notes.append("inverse \(sr.inverse ?? "none") -> \(dr.inverse ?? "none")") }
        if sr.name != dr.name { notes.append("renamed from \(sr.name)") }
        return RelationshipMapping(
            destination: dr.name, source: sr.name, action: action,
            requiresValue: !dr.isOptional, notes: notes)
    }
}

/// How an attribute type change is classified.
enum TypeChange {
    case same, lossless, lossy, incompatible

    static func classify(_ from: AttributeType, _ to: AttributeType, destinationUserInfo: [String: String]) -> TypeChange {
        if from == to { return .same }
        let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float, .boolean]
        if numeric.contains(from) && numeric.contains(to) {
            let lossless: Set<[AttributeType]> = [
                [.integer16, .integer32], [.integer16, .integer64], [.integer32, .integer64],
                [.integer16, .double], [.integer32, .double], [.integer16, .float], [.float, .double],
                [.integer16, .decimal], [.integer32, .decimal], [.integer64, .decimal],
                [.boolean, .integer16], [.boolean, .integer32], [.boolean, .integer64],
                [.boolean, .double], [.boolean, .float], [.boolean, .decimal],
            ]
            return lossless.contains([from, to]) ? .lossless : .lossy
        }
        let binary: Set<AttributeType> = [.binary, .transformable]
        if binary.contains(from) && binary.contains(to) && destinationUserInfo["NSMigrationAllowTypeTransformation"] != nil {
            return .lossless
        }
        return .incompatible
    }
}
