extension PredicateBinder {
    /// Resolves a key path from the bound entity to relationship and attribute indices.
    func resolve(_ keyPath: FetchPredicate.KeyPath) throws -> BoundPath {
        try resolve(keyPath, from: entity)
    }

    /// Resolves `keyPath` starting at entity `start`.
    func resolve(_ keyPath: FetchPredicate.KeyPath, from start: EntityIndex) throws -> BoundPath {
        let keyPath = try PredicateParser.validateKeyPath(keyPath)
        let components = keyPath.components
        var info = schema.infos[start]
        var steps: [BoundPath.Step] = []
        for (index, name) in components.enumerated() {
            let column = keyPath.column(of: index)
            if let op = FetchPredicate.CollectionOperator(rawValue: name) {
                let before = components[..<index].joined(separator: ".")
                guard steps.contains(where: { if case .toMany = $0 { true } else { false } }) else {
                    throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" needs a to-many relationship before it, but \"\(before)\" is to-one",
                                                hint: "Write it after a to-many relationship, as in children.\(op.rawValue)\(op.takesKey ? ".order" : "").")
                }
                if op == .count {
                    return BoundPath(steps: steps, terminal: .object, aggregate: (.count, [], AttributeIndex(0)), kind: .number)
                }
                return try resolveAggregate(op, keyPath: keyPath, from: index + 1, in: info, steps: steps)
            }
            if let a = info.attributeIndex(named: name) {
                if index + 1 < components.count {
                    throw PredicateErrors.error(column: keyPath.column(of: index + 1),
                                                "\"\(name)\" is an attribute of \(info.name), so the key path cannot continue with \".\(components[index + 1])\"",
                                                hint: "Only relationships can be followed in a key path.")
                }
                return BoundPath(steps: steps, terminal: .attribute(a), aggregate: nil, kind: PredicateValueKind(info.attributes[a].type))
            }
            if let r = info.relationshipIndex(named: name) {
                steps.append(info.relationships[r].isToMany ? .toMany(r) : .toOne(r))
                info = schema.infos[info.destinations[r]]
                continue
            }
            throw unknownProperty(name, of: info, column: column)
        }
        return BoundPath(steps: steps, terminal: .object, aggregate: nil, kind: .object)
    }

    /// The key after `@sum`, `@avg`, `@min` or `@max`: to-one hops ending in an attribute.
    private func resolveAggregate(_ op: FetchPredicate.CollectionOperator, keyPath: FetchPredicate.KeyPath, from first: Int,
                                  in start: EntityInfo, steps: [BoundPath.Step]) throws -> BoundPath {
        let components = keyPath.components
        var info = start
        var valueSteps: [RelationshipIndex] = []
        for index in first..<components.count {
            let name = components[index]
            let column = keyPath.column(of: index)
            if let a = info.attributeIndex(named: name) {
                if index + 1 < components.count {
                    throw PredicateErrors.error(column: keyPath.column(of: index + 1),
                                                "\"\(name)\" is an attribute of \(info.name), so the key path cannot continue with \".\(components[index + 1])\"",
                                                hint: "Only relationships can be followed in a key path.")
                }
                let kind = PredicateValueKind(info.attributes[a].type)
                let numeric = op == .sum || op == .average
                if numeric ? !(kind == .number || kind == .unknown) : !kind.isOrdered {
                    throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" needs \(numeric ? "numbers" : "numbers, strings or dates"), but \"\(name)\" is \(kind.phrase)",
                                                hint: numeric ? "Sum and average number attributes; use @count to count objects." : "Use @min and @max on numbers, strings or dates.")
                }
                return BoundPath(steps: steps, terminal: .object, aggregate: (op, valueSteps, a), kind: numeric ? .number : kind)
            }
            if let r = info.relationshipIndex(named: name) {
                if info.relationships[r].isToMany {
                    throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" cannot aggregate through the to-many relationship \"\(name)\"",
                                                hint: "After a collection operator, follow only to-one relationships to an attribute.")
                }
                if index + 1 == components.count {
                    throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" needs an attribute to aggregate, but \"\(name)\" is a relationship",
                                                hint: "End the key path with an attribute, as in children.\(op.rawValue).order.")
                }
                valueSteps.append(r)
                info = schema.infos[info.destinations[r]]
                continue
            }
            throw unknownProperty(name, of: info, column: column)
        }
        // validateKeyPath guarantees a key after the operator.
        throw PredicateErrors.error(column: keyPath.column(of: first - 1), "\"\(op.rawValue)\" needs the key of the values to aggregate after it",
                                    hint: "Write the key after the operator, as in children.\(op.rawValue).order.")
    }

    /// `"txt" is not a property of entity Item`, with a did-you-mean hint.
    func unknownProperty(_ name: String, of info: EntityInfo, column: Int?) -> EngineError {
        let names = info.attributes.map(\.name) + info.relationships.map(\.name)
        let hint = PredicateErrors.suggestion(for: name, among: names)
            ?? "The properties of \(info.name) are \(names.sorted().joined(separator: ", "))."
        return PredicateErrors.error(column: column, "\"\(name)\" is not a property of entity \(info.name)", hint: hint)
    }
}
