/// Checks declared entities and computes the flattened ``EntityInfo`` of each.
///
/// Resolution runs in phases, each stopping the next when it finds problems that would make
/// the later phases meaningless: names, then the inheritance hierarchy, then the flattened
/// property lists, then inverses.
struct SchemaResolver {
    struct Problem {
        var location: String
        var message: String
    }

    let entities: [Entity]

    func resolve() -> (infos: [EntityInfo], problems: [Problem]) {
        var problems: [Problem] = []
        let indexByName = entityNames(&problems)
        let superentities = hierarchy(indexByName, &problems)
        if !problems.isEmpty { return ([], problems) }

        var subentities = [[EntityIndex]](repeating: [], count: entities.count)
        for entity in entities.indices {
            for ancestor in superentities[entity] { subentities[ancestor.rawValue].append(EntityIndex(entity)) }
        }
        let infos = entities.indices.map { entity in
            flattened(
                EntityIndex(entity), superentities: superentities[entity], subentities: subentities[entity],
                indexByName, &problems)
        }
        if !problems.isEmpty { return (infos, problems) }
        let resolved = infos.map { withInverses($0, among: infos, &problems) }
        return (resolved, problems)
    }

    // MARK: Phases

    /// Every entity has a name no other entity has.
    private func entityNames(_ problems: inout [Problem]) -> [String: EntityIndex] {
        var indexByName: [String: EntityIndex] = [:]
        for (position, entity) in entities.enumerated() {
            if entity.name.isEmpty {
                problems.append(Problem(location: "entity #\(position + 1)", message: "the entity has no name"))
            } else if indexByName[entity.name] != nil {
                problems.append(Problem(location: entity.name, message: "two entities are called \"\(entity.name)\""))
            } else {
                indexByName[entity.name] = EntityIndex(position)
            }
        }
        return indexByName
    }

    /// Per entity, its chain of ancestors (parent first); parents exist and no chain is a cycle.
    private func hierarchy(_ indexByName: [String: EntityIndex], _ problems: inout [Problem]) -> [[EntityIndex]] {
        var parentOf = [EntityIndex?](repeating: nil, count: entities.count)
        for (position, entity) in entities.enumerated() {
            guard let parent = entity.parent, !parent.isEmpty else { continue }
            if let index = indexByName[parent] {
                parentOf[position] = index
            } else {
                problems.append(Problem(location: entity.name, message: "the parent entity \"\(parent)\" does not exist"))
            }
        }
        return entities.indices.map { position in
            var chain: [EntityIndex] = []
            var seen: Set<EntityIndex> = [EntityIndex(position)]
            var current = parentOf[position]
            while let ancestor = current {
                guard seen.insert(ancestor).inserted else {
                    problems.append(
                        Problem(
                            location: entities[position].name,
                            message: "the entity inherits from itself through its parents"))
                    return []
                }
                chain.append(ancestor)
                current = parentOf[ancestor.rawValue]
            }
            return chain
        }
    }

    /// The entity's flattened properties (root-most ancestor's first), checked, with destinations.
    private func flattened(
        _ index: EntityIndex, superentities: [EntityIndex], subentities: [EntityIndex],
        _ indexByName: [String: EntityIndex], _ problems: inout [Problem]
    ) -> EntityInfo {
        let entity = entities[index.rawValue]
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var declaringEntities: [EntityIndex] = []
        for owner in superentities.reversed() + [index] {
            attributes += entities[owner.rawValue].attributes
            relationships += entities[owner.rawValue].relationships
            declaringEntities += repeatElement(owner, count: entities[owner.rawValue].relationships.count)
        }

        var attributeIndex: [String: AttributeIndex] = [:]
        var relationshipIndex: [String: RelationshipIndex] = [:]
        var seen: Set<String> = []
        for (position, attribute) in attributes.enumerated() {
            let location = "\(entity.name).\(attribute.name)"
            if attribute.name.isEmpty {
                problems.append(Problem(location: entity.name, message: "an attribute has no name"))
                continue
            }
            if !seen.insert(attribute.name).inserted {
                problems.append(Problem(location: location, message: "two properties are called \"\(attribute.name)\""))
            }
            attributeIndex[attribute.name] = AttributeIndex(position)
            if attribute.type == .undefined && !attribute.isTransient {
                problems.append(
                    Problem(
                        location: location,
                        message: "the attribute has type Undefined but is not transient; only transient attributes may be Undefined"))
            }
            if let value = attribute.defaultValue, attribute.type != .undefined, value.converted(to: attribute.type) == nil {
                problems.append(
                    Problem(
                        location: location,
                        message: "the default value \(value.displayString) does not fit type \(attribute.type.modelName)"))
            }
        }

        var destinations: [EntityIndex] = []
        for (position, relationship) in relationships.enumerated() {
            let location = "\(entity.name).\(relationship.name)"
            if relationship.name.isEmpty {
                problems.append(Problem(location: entity.name, message: "a relationship has no name"))
            }
            if !seen.insert(relationship.name).inserted {
                problems.append(Problem(location: location, message: "two properties are called \"\(relationship.name)\""))
            }
            if relationshipIndex[relationship.name] == nil { relationshipIndex[relationship.name] = RelationshipIndex(position) }
            if let destination = indexByName[relationship.destination] {
                destinations.append(destination)
            } else {
                problems.append(
                    Problem(
                        location: location,
                        message: "the destination entity \"\(relationship.destination)\" does not exist"))
                destinations.append(EntityIndex(-1))
            }
        }

        for constraint in entity.uniquenessConstraints {
            for name in constraint where attributeIndex[name] == nil && relationshipIndex[name] == nil {
                problems.append(
                    Problem(
                        location: entity.name,
                        message: "the uniqueness constraint names \"\(name)\", which is not a property of the entity"))
            }
        }

        return EntityInfo(
            index: index, entity: entity, attributes: attributes, relationships: relationships,
            superentities: superentities, subentities: subentities, destinations: destinations, inverses: [],
            declaringEntities: declaringEntities,
            attributeIndexByName: attributeIndex, relationshipIndexByName: relationshipIndex,
            attributeIndexByLowercasedName: Self.lowercasedKeys(attributeIndex),
            relationshipIndexByLowercasedName: Self.lowercasedKeys(relationshipIndex))
    }

    /// `info` with the inverse of each relationship, checked to exist on the destination and point back.
    private func withInverses(_ info: EntityInfo, among infos: [EntityInfo], _ problems: inout [Problem]) -> EntityInfo {
        var inverses: [RelationshipIndex?] = []
        for (position, relationship) in info.relationships.enumerated() {
            guard let inverseName = relationship.inverse, !inverseName.isEmpty else {
                inverses.append(nil)
                continue
            }
            let destination = infos[info.destinations[position].rawValue]
            let location = "\(info.name).\(relationship.name)"
            guard let inverse = destination.relationshipIndex(named: inverseName) else {
                problems.append(
                    Problem(
                        location: location,
                        message: "the inverse \"\(inverseName)\" is not a relationship of \"\(destination.name)\""))
                inverses.append(nil)
                continue
            }
            let back = destination[inverse]
            let backDestination = destination.destination(of: inverse)
            if back.inverse != relationship.name {
                let says = back.inverse.map { "\"\($0)\"" } ?? "no inverse"
                problems.append(
                    Problem(
                        location: location,
                        message: "the inverse \"\(destination.name).\(inverseName)\" does not point back (it names \(says))"))
            } else if !(info.isKind(of: backDestination) || info.subentities.contains(backDestination)) {
                problems.append(
                    Problem(
                        location: location,
                        message:
                            "the inverse \"\(destination.name).\(inverseName)\" leads to \"\(infos[backDestination.rawValue].name)\", not to \"\(info.name)\""
                    ))
            }
            inverses.append(inverse)
        }
        return EntityInfo(
            index: info.index, entity: info.entity, attributes: info.attributes, relationships: info.relationships,
            superentities: info.superentities, subentities: info.subentities, destinations: info.destinations,
            inverses: inverses, declaringEntities: info.declaringEntities,
            attributeIndexByName: info.attributeIndexByName, relationshipIndexByName: info.relationshipIndexByName,
            attributeIndexByLowercasedName: info.attributeIndexByLowercasedName,
            relationshipIndexByLowercasedName: info.relationshipIndexByLowercasedName)
    }

    /// The same lookup by lower-cased name; where two names differ only in case, the one declared first wins.
    private static func lowercasedKeys<Index: Comparable>(_ byName: [String: Index]) -> [String: Index] {
        var lowered: [String: Index] = [:]
        for (name, index) in byName.sorted(by: { $0.value < $1.value }) where lowered[name.lowercased()] == nil {
            lowered[name.lowercased()] = index
        }
        return lowered
    }
}
