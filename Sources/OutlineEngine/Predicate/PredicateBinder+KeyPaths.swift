extension PredicateBinder {
    /// Resolves a key path from the bound entity to relationship and attribute indices.
    func resolve(_ keyPath: FetchPredicate.KeyPath) throws -> BoundPath {
        try resolve(keyPath, from: entity)
    }

    /// Resolves `keyPath` starting at entity `start`.
    func resolve(_ keyPath: FetchPredicate.KeyPath, from start: EntityIndex) throws -> BoundPath {
        try resolve(keyPath, from: start, fromCollection: false)
    }

    /// Resolves `keyPath` starting at objects of entity `start`: one object, or a collection
    /// of them (`fromCollection`, for key paths after a `SUBQUERY`), which an index or a
    /// collection operator may then begin with (`[FIRST]`, `[LAST]` and `[n]` only when the
    /// collection has an order, `baseIsOrdered`).
    func resolve(_ keyPath: FetchPredicate.KeyPath, from start: EntityIndex, fromCollection: Bool, baseIsOrdered: Bool = false) throws -> BoundPath {
        let keyPath = try PredicateParser.validateKeyPath(keyPath, hasBase: true)
        let components = keyPath.components
        var current = start
        var steps: [BoundPath.Step] = []
        var multi = fromCollection
        var multiBeforeStep = multi
        var baseIndex: FetchPredicate.IndexOperator?
        var index = 0
        if let first = components.first, let op = FetchPredicate.IndexOperator(component: first) {
            guard fromCollection else {
                throw PredicateErrors.error(
                    column: keyPath.column(of: 0), "the index \(op.component) needs a collection before it, but there is one object",
                    hint: PredicateParser.indexHint)
            }
            if op == .size {
                return BoundPath(steps: [], terminal: .object, aggregate: .count, kind: .number, isMultiValued: false)
            }
            guard baseIsOrdered else {
                throw PredicateErrors.error(
                    column: keyPath.column(of: 0), "the collection before \(op.component) has no order, so the index picks no particular object",
                    hint: "Index lists and the results of a SUBQUERY over an ordered relationship; count others with [SIZE].")
            }
            baseIndex = op
            multi = false
            index = 1
        }
        while index < components.count {
            let name = components[index]
            let column = keyPath.column(of: index)
            let info = schema.infos[current]
            if name.hasPrefix("[$") {
                throw Self.unboundVariable(String(name.dropFirst(2).dropLast()), column: column)
            }
            if let op = FetchPredicate.IndexOperator(component: name) {
                guard case .toMany(let r)? = steps.last, let owner = owner(ofLastStepFrom: start, steps: steps) else {
                    let before = components[..<index].joined(separator: ".")
                    throw PredicateErrors.error(
                        column: column, "the index \(op.component) needs a to-many relationship before it, but \"\(before)\" is not one",
                        hint: PredicateParser.indexHint)
                }
                let relationship = schema.infos[owner].relationships[r]
                if op == .size {
                    steps.removeLast()
                    return BoundPath(
                        baseIndex: baseIndex, steps: steps, terminal: .size(r), aggregate: nil, kind: .number, isMultiValued: multiBeforeStep)
                }
                var orderBy: AttributeIndex?
                if !relationship.isOrdered {
                    let destination = schema.infos[schema.infos[owner].destinations[r]]
                    guard let key = indexOrdering[relationship.name], let a = destination.attributeIndex(named: key),
                        PredicateValueKind(destination.attributes[a].type).isOrdered
                    else {
                        throw PredicateErrors.error(
                            column: column, "\"\(relationship.name)\" is unordered, so the index \(op.component) picks no particular object",
                            hint:
                                "Index ordered relationships, or unordered ones given an attribute to order them by; count with [SIZE] or @count, or filter with SUBQUERY."
                        )
                    }
                    orderBy = a
                }
                steps[steps.count - 1] = .toManyAt(r, op, orderBy: orderBy)
                multi = multiBeforeStep
                index += 1
                continue
            }
            if let op = FetchPredicate.CollectionOperator(spelling: name) {
                guard multi else {
                    let before = components[..<index].joined(separator: ".")
                    throw PredicateErrors.error(
                        column: column, "\"\(op.rawValue)\" needs a to-many relationship before it, but \"\(before)\" is to-one",
                        hint: "Write it after a to-many relationship, as in children.\(op.rawValue)\(op.takesKey ? ".order" : "").")
                }
                if op == .count {
                    return BoundPath(baseIndex: baseIndex, steps: steps, terminal: .object, aggregate: .count, kind: .number, isMultiValued: false)
                }
                if op.isUnion {
                    return try resolveUnion(op, keyPath: keyPath, from: index + 1, entity: current, baseIndex: baseIndex, steps: steps)
                }
                return try resolveAggregate(op, keyPath: keyPath, from: index + 1, entity: current, baseIndex: baseIndex, steps: steps)
            }
            if let a = info.attributeIndex(named: name) {
                if index + 1 < components.count {
                    throw PredicateErrors.error(
                        column: keyPath.column(of: index + 1),
                        "\"\(name)\" is an attribute of \(info.name), so the key path cannot continue with \".\(components[index + 1])\"",
                        hint: "Only relationships can be followed in a key path.")
                }
                return BoundPath(
                    baseIndex: baseIndex, steps: steps, terminal: .attribute(a), aggregate: nil,
                    kind: PredicateValueKind(info.attributes[a].type), isMultiValued: multi)
            }
            if let r = info.relationshipIndex(named: name) {
                multiBeforeStep = multi
                if info.relationships[r].isToMany {
                    steps.append(.toMany(r))
                    multi = true
                } else {
                    steps.append(.toOne(r))
                }
                current = info.destinations[r]
                index += 1
                continue
            }
            throw unknownProperty(name, of: info, column: column)
        }
        return BoundPath(baseIndex: baseIndex, steps: steps, terminal: .object, aggregate: nil, kind: .object, entity: current, isMultiValued: multi)
    }

    /// The entity that owns the relationship of the last of `steps`.
    private func owner(ofLastStepFrom start: EntityIndex, steps: [BoundPath.Step]) -> EntityIndex? {
        var current = start
        for step in steps.dropLast() {
            switch step {
            case .toOne(let r), .toMany(let r), .toManyAt(let r, _, _): current = schema.infos[current].destinations[r]
            }
        }
        return steps.isEmpty ? nil : current
    }

    /// The key after `@sum`, `@avg`, `@min` or `@max`: to-one hops ending in an attribute.
    private func resolveAggregate(
        _ op: FetchPredicate.CollectionOperator, keyPath: FetchPredicate.KeyPath, from first: Int, entity start: EntityIndex,
        baseIndex: FetchPredicate.IndexOperator?, steps: [BoundPath.Step]
    ) throws -> BoundPath {
        let components = keyPath.components
        var info = schema.infos[start]
        var valueSteps: [RelationshipIndex] = []
        for index in first ..< components.count {
            let name = components[index]
            let column = keyPath.column(of: index)
            if let a = info.attributeIndex(named: name) {
                if index + 1 < components.count {
                    throw PredicateErrors.error(
                        column: keyPath.column(of: index + 1),
                        "\"\(name)\" is an attribute of \(info.name), so the key path cannot continue with \".\(components[index + 1])\"",
                        hint: "Only relationships can be followed in a key path.")
                }
                let kind = PredicateValueKind(info.attributes[a].type)
                let numeric = op == .sum || op == .average
                if numeric ? !(kind == .number || kind == .unknown) : !kind.isOrdered {
                    throw PredicateErrors.error(
                        column: column,
                        "\"\(op.rawValue)\" needs \(numeric ? "numbers" : "numbers, strings or dates"), but \"\(name)\" is \(kind.phrase)",
                        hint: numeric
                            ? "Sum and average number attributes; use @count to count objects." : "Use @min and @max on numbers, strings or dates.")
                }
                return BoundPath(
                    baseIndex: baseIndex, steps: steps, terminal: .object, aggregate: .numeric(op, steps: valueSteps, attribute: a),
                    kind: numeric ? .number : kind, isMultiValued: false)
            }
            if let r = info.relationshipIndex(named: name) {
                if info.relationships[r].isToMany {
                    throw PredicateErrors.error(
                        column: column, "\"\(op.rawValue)\" cannot aggregate through the to-many relationship \"\(name)\"",
                        hint: "After a collection operator, follow only to-one relationships to an attribute.")
                }
                if index + 1 == components.count {
                    throw PredicateErrors.error(
                        column: column, "\"\(op.rawValue)\" needs an attribute to aggregate, but \"\(name)\" is a relationship",
                        hint: "End the key path with an attribute, as in children.\(op.rawValue).order.")
                }
                valueSteps.append(r)
                info = schema.infos[info.destinations[r]]
                continue
            }
            throw unknownProperty(name, of: info, column: column)
        }
        // validateKeyPath guarantees a key after the operator.
        throw PredicateErrors.error(
            column: keyPath.column(of: first - 1), "\"\(op.rawValue)\" needs the key of the values to aggregate after it",
            hint: "Write the key after the operator, as in children.\(op.rawValue).order.")
    }

    /// The key path after an `@unionOf...` operator: relationships (to-one or to-many) ending
    /// in an attribute or a relationship.
    private func resolveUnion(
        _ op: FetchPredicate.CollectionOperator, keyPath: FetchPredicate.KeyPath, from first: Int, entity start: EntityIndex,
        baseIndex: FetchPredicate.IndexOperator?, steps: [BoundPath.Step]
    ) throws -> BoundPath {
        let components = keyPath.components
        var current = start
        var unionSteps: [BoundPath.Step] = []
        for index in first ..< components.count {
            let name = components[index]
            let info = schema.infos[current]
            if let a = info.attributeIndex(named: name) {
                if index + 1 < components.count {
                    throw PredicateErrors.error(
                        column: keyPath.column(of: index + 1),
                        "\"\(name)\" is an attribute of \(info.name), so the key path cannot continue with \".\(components[index + 1])\"",
                        hint: "Only relationships can be followed in a key path.")
                }
                return BoundPath(
                    baseIndex: baseIndex, steps: steps, terminal: .object,
                    aggregate: .union(distinct: op.isDistinct, steps: unionSteps, terminal: .attribute(a)),
                    kind: PredicateValueKind(info.attributes[a].type), isMultiValued: true)
            }
            if let r = info.relationshipIndex(named: name) {
                unionSteps.append(info.relationships[r].isToMany ? .toMany(r) : .toOne(r))
                current = info.destinations[r]
                continue
            }
            throw unknownProperty(name, of: info, column: keyPath.column(of: index))
        }
        return BoundPath(
            baseIndex: baseIndex, steps: steps, terminal: .object,
            aggregate: .union(distinct: op.isDistinct, steps: unionSteps, terminal: .object),
            kind: .object, entity: current, isMultiValued: true)
    }

    /// `"txt" is not a property of entity Item`, with a did-you-mean hint.
    func unknownProperty(_ name: String, of info: EntityInfo, column: Int?) -> EngineError {
        let names = info.attributes.map(\.name) + info.relationships.map(\.name)
        let hint =
            PredicateErrors.suggestion(for: name, among: names)
            ?? "The properties of \(info.name) are \(names.sorted().joined(separator: ", "))."
        return PredicateErrors.error(column: column, "\"\(name)\" is not a property of entity \(info.name)", hint: hint)
    }
}
