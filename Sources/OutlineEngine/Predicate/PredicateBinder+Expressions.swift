import Foundation

extension PredicateBinder {
    /// Binds an expression; `column` is where it starts in the parsed text, for messages.
    func bind(_ e: FetchPredicate.Expression, column: Int?) throws -> BoundSide {
        let text = Self.shown(e)
        switch e {
        case .constant(let v):
            let term = PredicateTerm(v)
            return BoundSide(.constant(term), kind: term.kind, text: text)
        case .list(let values):
            var side = BoundSide(.list(values.map { .constant(PredicateTerm($0)) }), kind: nil, text: text)
            side.isList = true
            side.isOrdered = true
            side.elements = values.map { BoundSide(.constant(PredicateTerm($0)), kind: PredicateTerm($0).kind, text: PredicateFormatter.literal($0)) }
            return side
        case .aggregate(let elements):
            let bound = try elements.map { element -> BoundSide in
                let side = try bind(element, column: column)
                if side.isMultiValued || side.isList {
                    throw PredicateErrors.error(
                        column: column, "each element of a list needs one value, but \(Self.shown(element)) has several",
                        hint: "Put single values in lists; compare with a to-many key path directly, as in \"work\" IN tags.name.")
                }
                return side
            }
            var side = BoundSide(.list(bound.map(\.expression)), kind: nil, text: text)
            side.isList = true
            side.isOrdered = true
            side.elements = bound
            return side
        case .keyPath(let keyPath):
            let path = try resolve(keyPath)
            var side = BoundSide(.path(nil, path), multi: path.isMultiValued, kind: path.kind, entity: path.entity, text: text)
            side.isOrdered = isOrderedCollection(path, from: entity)
            return side
        case .evaluatedObject:
            return BoundSide(.evaluatedObject, kind: .object, entity: entity, text: text)
        case .object(let object):
            guard schema.infos.indices.contains(object.entity.rawValue) else {
                throw PredicateErrors.error(
                    column: column, "the object \(object) is not an object of this schema",
                    hint: "Pass objects of the graph the predicate is evaluated on.")
            }
            return BoundSide(.constant(.object(object)), kind: .object, entity: object.entity, text: text)
        case .variable(let name):
            guard let (slot, variableEntity) = scope.lookup(name) else { throw Self.unboundVariable(name, column: column) }
            return BoundSide(.variable(slot), kind: .object, entity: variableEntity, text: text)
        case .path(let base, let keyPath):
            return try bindPath(base, keyPath, column: column, text: text)
        case .subquery(let s):
            return try bindSubquery(s, column: column, text: text)
        case .function(let function, let arguments):
            return try bindFunction(function, arguments, column: column, text: text)
        case .arithmetic(let l, let op, let r):
            return try bindArithmetic(l, op, r, column: column, text: text)
        case .negated(let operand):
            let side = try single(operand, column: column, what: "a minus sign")
            if let kind = side.kind, kind != .number, kind != .unknown {
                throw PredicateErrors.error(
                    column: column, "a minus sign needs a number, but \(Self.shown(operand)) is \(kind.phrase)",
                    hint: "Negate numbers only, as in -order.")
            }
            return BoundSide(.negated(side.expression), kind: .number, text: text)
        case .cast(let operand, let type):
            let side = try single(operand, column: column, what: "CAST")
            guard PredicateCasts.types.contains(type) else {
                throw PredicateErrors.error(column: column, "unknown CAST type \"\(type)\"", hint: PredicateCasts.typesHint)
            }
            let kinds: [String: PredicateValueKind] = [
                "NSDate": .date, "NSDecimalNumber": .number, "NSNumber": .number,
                "NSUUID": .uuid, "NSData": .binary, "NSString": .string,
            ]
            return BoundSide(.cast(side.expression, type), kind: kinds[type], text: text)
        case .conditional(let condition, let whenTrue, let whenFalse):
            let node = try bind(condition)
            let a = try single(whenTrue, column: column, what: "TERNARY")
            let b = try single(whenFalse, column: column, what: "TERNARY")
            let kind: PredicateValueKind? = a.kind == b.kind ? a.kind : a.kind == nil ? b.kind : b.kind == nil ? a.kind : .unknown
            return BoundSide(.conditional(node, a.expression, b.expression), kind: kind, entity: a.entity ?? b.entity, text: text)
        }
    }

    static func unboundVariable(_ name: String, column: Int?) -> EngineError {
        PredicateErrors.error(
            column: column, "the variable $\(name) has no value",
            hint: "Substitute a value for $\(name) before evaluating the predicate, or use it inside a SUBQUERY that names it.")
    }

    /// An operand that must have one value (of arithmetic, functions of one number, CAST).
    private func single(_ e: FetchPredicate.Expression, column: Int?, what: String) throws -> BoundSide {
        let side = try bind(e, column: column)
        if side.isMultiValued || side.isList {
            throw PredicateErrors.error(
                column: column, "\(what) needs one value, but \(Self.shown(e)) has several",
                hint: "Aggregate several values first, as in sum(children.order) or children.@count.")
        }
        return side
    }

    private func bindPath(_ base: FetchPredicate.Expression, _ keyPath: FetchPredicate.KeyPath, column: Int?, text: String) throws -> BoundSide {
        let baseSide = try bind(base, column: column)
        if baseSide.isList || baseSide.isMultiValued, baseSide.kind != .object, baseSide.kind != nil || baseSide.isList,
            !baseSide.elements.contains(where: { $0.kind == .object })
        {
            return try bindValueIndex(baseSide, keyPath, column: column, text: text)
        }
        guard baseSide.kind == .object || baseSide.isList, let baseEntity = baseSide.entity ?? commonEntity(of: baseSide.elements) else {
            throw PredicateErrors.error(
                column: keyPath.column(of: 0) ?? column, "cannot follow \"\(keyPath)\" from \(Self.shown(base)): it is not an object",
                hint: "Follow key paths from SELF, a SUBQUERY's variable or a collection of objects.")
        }
        let collection = baseSide.isMultiValued || baseSide.isList
        let path = try resolve(keyPath, from: baseEntity, fromCollection: collection, baseIsOrdered: baseSide.isOrdered)
        var side = BoundSide(.path(baseSide.expression, path), multi: path.isMultiValued, kind: path.kind, entity: path.entity, text: text)
        side.isOrdered = !collection && isOrderedCollection(path, from: baseEntity)
        return side
    }

    /// `{1, 2, 3}[FIRST]`, `{1, 2, 3}[SIZE]`, `{1, 2, 3}.@count`: an index or a count of a
    /// collection of values (which has no keys to follow).
    private func bindValueIndex(_ base: BoundSide, _ keyPath: FetchPredicate.KeyPath, column: Int?, text: String) throws -> BoundSide {
        let first = keyPath.components.first ?? ""
        let at = keyPath.column(of: 0) ?? column
        guard keyPath.components.count == 1 else {
            throw PredicateErrors.error(
                column: keyPath.column(of: 1) ?? at, "\(base.text) is a collection of values, so the key path cannot continue after \"\(first)\"",
                hint: "Values have no keys; index or count the collection, as in {1, 2}[FIRST] or {1, 2}.@count.")
        }
        if first == FetchPredicate.CollectionOperator.count.rawValue || FetchPredicate.IndexOperator(component: first) == .size {
            return BoundSide(.function(.count, [base.expression]), kind: .number, text: text)
        }
        guard let index = FetchPredicate.IndexOperator(component: first) else {
            throw PredicateErrors.error(
                column: at, "\(base.text) is a collection of values, not objects, so it has no key \"\(first)\"",
                hint: "Index or count a collection of values, as in {1, 2}[FIRST] or {1, 2}.@count.")
        }
        guard base.isOrdered else {
            throw PredicateErrors.error(
                column: at, "the collection before \(index.component) has no order, so the index picks no particular value",
                hint: "Index lists, as in {1, 2, 3}[0]; count other collections with [SIZE].")
        }
        let kinds = Set(base.elements.compactMap(\.kind))
        return BoundSide(.element(base.expression, index), kind: kinds.count == 1 ? kinds.first : kinds.isEmpty ? nil : .unknown, text: text)
    }

    /// Whether a path's values come in the order of one ordered to-many relationship (reached
    /// through to-one relationships), so that an index can pick among them.
    private func isOrderedCollection(_ path: BoundPath, from start: EntityIndex) -> Bool {
        guard path.isMultiValued, path.aggregate == nil, path.baseIndex == nil else { return false }
        var current = start
        for (i, step) in path.steps.enumerated() {
            switch step {
            case .toOne(let r): current = schema.infos[current].destinations[r]
            case .toMany(let r): return i == path.steps.count - 1 && schema.infos[current].relationships[r].isOrdered
            case .toManyAt(let r, _, _): current = schema.infos[current].destinations[r]
            }
        }
        return false
    }

    /// The entity shared by a list of objects (the first one's when they differ).
    private func commonEntity(of elements: [BoundSide]) -> EntityIndex? {
        guard !elements.isEmpty, elements.allSatisfy({ $0.kind == .object }) else { return nil }
        return elements.first?.entity
    }

    private func bindSubquery(_ s: FetchPredicate.Subquery, column: Int?, text: String) throws -> BoundSide {
        let collection = try bind(s.collection, column: column)
        guard collection.isMultiValued || collection.isList, collection.kind == .object || collection.isList,
            let collectionEntity = collection.entity ?? commonEntity(of: collection.elements)
        else {
            throw PredicateErrors.error(
                column: column, "SUBQUERY needs a collection of objects, but \(Self.shown(s.collection)) is not one",
                hint: PredicateParser.subqueryHint)
        }
        let slot = scope.slotCount
        scope.slotCount += 1
        scope.variables.append((s.variable, slot, collectionEntity))
        defer { scope.variables.removeLast() }
        let predicate = try bind(s.predicate)
        var side = BoundSide(
            .subquery(collection.expression, slot: slot, predicate), multi: true, kind: .object, entity: collectionEntity, text: text)
        side.isOrdered = collection.isOrdered
        return side
    }

    private func bindFunction(_ function: FetchPredicate.Function, _ arguments: [FetchPredicate.Expression], column: Int?, text: String) throws
        -> BoundSide
    {
        guard arguments.count == function.argumentCount else {
            throw PredicateErrors.error(
                column: column,
                "\(function.rawValue)() takes \(function.argumentCount) argument\(function.argumentCount == 1 ? "" : "s") but was given \(arguments.count)",
                hint: PredicateParser.functionHint(function))
        }
        let bound = try arguments.map { try bind($0, column: column) }
        let expression = BoundExpression.function(function, bound.map(\.expression))
        switch function {
        case .now: return BoundSide(expression, kind: .date, text: text)
        case .random: return BoundSide(expression, kind: .number, text: text)
        default: break
        }
        let argument = bound[0]
        if function.takesCollection {
            guard argument.isMultiValued || argument.isList else {
                throw PredicateErrors.error(
                    column: column, "\(function.rawValue)() needs a collection, but \(Self.shown(arguments[0])) has one value",
                    hint: PredicateParser.functionHint(function))
            }
            let elementKind = argument.isList ? commonKind(argument.elements) : argument.kind
            switch function {
            case .count:
                return BoundSide(expression, kind: .number, text: text)
            case .min, .max, .mode:
                if let kind = elementKind, !kind.isOrdered {
                    throw PredicateErrors.error(
                        column: column, "\(function.rawValue)() needs numbers, strings or dates, but \(Self.shown(arguments[0])) has \(kind.phrase)",
                        hint: PredicateParser.functionHint(function))
                }
                return BoundSide(expression, multi: function == .mode, kind: elementKind, text: text)
            default:
                if let kind = elementKind, kind != .number, kind != .unknown {
                    throw PredicateErrors.error(
                        column: column, "\(function.rawValue)() needs numbers, but \(Self.shown(arguments[0])) has \(kind.phrase)",
                        hint: PredicateParser.functionHint(function))
                }
                return BoundSide(expression, kind: .number, text: text)
            }
        }
        if argument.isMultiValued || argument.isList {
            throw PredicateErrors.error(
                column: column, "\(function.rawValue)() needs one number, but \(Self.shown(arguments[0])) has several values",
                hint: PredicateParser.functionHint(function))
        }
        if let kind = argument.kind, kind != .number, kind != .unknown {
            throw PredicateErrors.error(
                column: column, "\(function.rawValue)() needs a number, but \(Self.shown(arguments[0])) is \(kind.phrase)",
                hint: PredicateParser.functionHint(function))
        }
        return BoundSide(expression, kind: .number, text: text)
    }

    /// The kind all elements share, `.unknown` when they differ, `nil` when none is known.
    private func commonKind(_ elements: [BoundSide]) -> PredicateValueKind? {
        let kinds = Set(elements.compactMap(\.kind))
        return kinds.count <= 1 ? kinds.first : .unknown
    }

    private func bindArithmetic(
        _ l: FetchPredicate.Expression, _ op: FetchPredicate.ArithmeticOperator, _ r: FetchPredicate.Expression,
        column: Int?, text: String
    ) throws -> BoundSide {
        let left = try single(l, column: column, what: "\"\(op.rawValue)\"")
        let right = try single(r, column: column, what: "\"\(op.rawValue)\"")
        let expression = BoundExpression.arithmetic(left.expression, op, right.expression)
        func known(_ kind: PredicateValueKind?) -> PredicateValueKind? { kind == .unknown ? nil : kind }
        switch (known(left.kind), op, known(right.kind)) {
        case (.number?, _, .number?), (nil, _, .number?), (.number?, _, nil):
            return BoundSide(expression, kind: .number, text: text)
        case (.date?, .add, .number?), (.number?, .add, .date?), (.date?, .subtract, .number?):
            return BoundSide(expression, kind: .date, text: text)
        case (.date?, .subtract, .date?):
            return BoundSide(expression, kind: .number, text: text)
        case (.date?, .add, nil), (nil, .add, .date?), (.date?, .subtract, nil):
            return BoundSide(expression, kind: .unknown, text: text)
        case (nil, _, nil):
            return BoundSide(expression, kind: .unknown, text: text)
        default:
            let lk = left.kind?.phrase ?? "nil"
            let rk = right.kind?.phrase ?? "nil"
            throw PredicateErrors.error(
                column: column, "cannot compute \(Self.shown(l)) (\(lk)) \(op.rawValue) \(Self.shown(r)) (\(rk))",
                hint: "Arithmetic works on numbers; a date plus or minus seconds is a date, and one date minus another is seconds.")
        }
    }
}
