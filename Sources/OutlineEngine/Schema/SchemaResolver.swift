/// Checks declared entities and computes the flattened ``EntityInfo`` of each.
struct SchemaResolver {
    struct Problem {
        var location: String
        var message: String
    }

    let entities: [Entity]

    func resolve() -> (infos: [EntityInfo], problems: [Problem]) {
        var problems: [Problem] = []
        var indexByName: [String: Int] = [:]
        for (i, e) in entities.enumerated() {
            if e.name.isEmpty {
                problems.append(Problem(location: "entity #\(i + 1)", message: "the entity has no name"))
            } else if indexByName[e.name] != nil {
                problems.append(Problem(location: e.name, message: "two entities are called \"\(e.name)\""))
            } else {
                indexByName[e.name] = i
            }
        }

        // Hierarchy: parent chains without cycles.
        var parentOf = [Int?](repeating: nil, count: entities.count)
        for (i, e) in entities.enumerated() {
            guard let p = e.parent, !p.isEmpty else { continue }
            if let pi = indexByName[p] {
                parentOf[i] = pi
            } else {
                problems.append(Problem(location: e.name, message: "the parent entity \"\(p)\" does not exist"))
            }
        }
        var superentities = [[Int]](repeating: [], count: entities.count)
        for i in entities.indices {
            var chain: [Int] = []
            var current = parentOf[i]
            var cyclic = false
            while let c = current {
                if c == i || chain.contains(c) { cyclic = true; break }
                chain.append(c)
                current = parentOf[c]
            }
            if cyclic {
                problems.append(Problem(location: entities[i].name, message: "the entity inherits from itself through its parents"))
                chain = []
            }
            superentities[i] = chain
        }
        if !problems.isEmpty { return ([], problems) }

        var subentities = [[Int]](repeating: [], count: entities.count)
        for i in entities.indices {
            for s in superentities[i] { subentities[s].append(i) }
        }

        // Flatten properties: root-most ancestor first.
        var flatAttributes = [[Attribute]](repeating: [], count: entities.count)
        var flatRelationships = [[Relationship]](repeating: [], count: entities.count)
        for i in entities.indices {
            for a in superentities[i].reversed() + [i] {
                flatAttributes[i] += entities[a].attributes
                flatRelationships[i] += entities[a].relationships
            }
        }

        var infos: [EntityInfo] = []
        for i in entities.indices {
            let e = entities[i]
            var attributeIndex: [String: Int] = [:]
            var relationshipIndex: [String: Int] = [:]
            var seen: Set<String> = []
            for (ai, a) in flatAttributes[i].enumerated() {
                if a.name.isEmpty {
                    problems.append(Problem(location: e.name, message: "an attribute has no name"))
                    continue
                }
                if !seen.insert(a.name).inserted {
                    problems.append(Problem(location: "\(e.name).\(a.name)", message: "two properties are called \"\(a.name)\""))
                }
                attributeIndex[a.name] = ai
                if a.type == .undefined && !a.isTransient {
                    problems.append(Problem(location: "\(e.name).\(a.name)",
                                            message: "the attribute has type Undefined but is not transient; only transient attributes may be Undefined"))
                }
                if let d = a.defaultValue, a.type != .undefined, d.converted(to: a.type) == nil {
                    problems.append(Problem(location: "\(e.name).\(a.name)",
                                            message: "the default value \(d.displayString) does not fit type \(a.type.modelName)"))
                }
            }
            var destinations: [Int] = []
            for r in flatRelationships[i] {
                if r.name.isEmpty {
                    problems.append(Problem(location: e.name, message: "a relationship has no name"))
                }
                if !seen.insert(r.name).inserted {
                    problems.append(Problem(location: "\(e.name).\(r.name)", message: "two properties are called \"\(r.name)\""))
                }
                relationshipIndex[r.name] = relationshipIndex[r.name] ?? destinations.count
                if let d = indexByName[r.destination] {
                    destinations.append(d)
                } else {
                    problems.append(Problem(location: "\(e.name).\(r.name)",
                                            message: "the destination entity \"\(r.destination)\" does not exist"))
                    destinations.append(-1)
                }
            }
            for constraint in e.uniquenessConstraints {
                for name in constraint where attributeIndex[name] == nil && relationshipIndex[name] == nil {
                    problems.append(Problem(location: e.name,
                                            message: "the uniqueness constraint names \"\(name)\", which is not a property of the entity"))
                }
            }
            var lowerA: [String: Int] = [:]
            for (k, v) in attributeIndex { lowerA[k.lowercased()] = v }
            var lowerR: [String: Int] = [:]
            for (k, v) in relationshipIndex { lowerR[k.lowercased()] = v }
            infos.append(EntityInfo(
                index: i, entity: e, attributes: flatAttributes[i], relationships: flatRelationships[i],
                superentities: superentities[i], subentities: subentities[i], destinations: destinations,
                inverses: [], attributeIndexByName: attributeIndex, relationshipIndexByName: relationshipIndex,
                attributeIndexByLowercasedName: lowerA, relationshipIndexByLowercasedName: lowerR))
        }
        if !problems.isEmpty { return (infos, problems) }

        // Inverses: must exist on the destination and point back.
        var resolved: [EntityInfo] = []
        for info in infos {
            var inverses: [Int?] = []
            for (ri, r) in info.relationships.enumerated() {
                guard let inverseName = r.inverse, !inverseName.isEmpty else { inverses.append(nil); continue }
                let destination = infos[info.destinations[ri]]
                let location = "\(info.name).\(r.name)"
                guard let inv = destination.relationshipIndex(named: inverseName) else {
                    problems.append(Problem(location: location,
                                            message: "the inverse \"\(inverseName)\" is not a relationship of \"\(destination.name)\""))
                    inverses.append(nil)
                    continue
                }
                let back = destination.relationships[inv]
                let backDestination = destination.destinations[inv]
                if back.inverse != r.name {
                    let says = back.inverse.map { "\"\($0)\"" } ?? "no inverse"
                    problems.append(Problem(location: location,
                                            message: "the inverse \"\(destination.name).\(inverseName)\" does not point back (it names \(says))"))
                } else if !(info.index == backDestination || info.superentities.contains(backDestination)
                            || info.subentities.contains(backDestination)) {
                    problems.append(Problem(location: location,
                                            message: "the inverse \"\(destination.name).\(inverseName)\" leads to \"\(infos[backDestination].name)\", not to \"\(info.name)\""))
                }
                inverses.append(inv)
            }
            resolved.append(EntityInfo(
                index: info.index, entity: info.entity, attributes: info.attributes, relationships: info.relationships,
                superentities: info.superentities, subentities: info.subentities, destinations: info.destinations,
                inverses: inverses, attributeIndexByName: info.attributeIndexByName,
                relationshipIndexByName: info.relationshipIndexByName,
                attributeIndexByLowercasedName: info.attributeIndexByLowercasedName,
                relationshipIndexByLowercasedName: info.relationshipIndexByLowercasedName))
        }
        return (resolved, problems)
    }
}
