import Foundation

/// Binds a ``FetchPredicate`` to an entity: resolves key paths, checks types, compiles patterns.
struct PredicateBinder {
    let schema: Schema
    let entity: EntityIndex

    /// Rejects predicate trees nested deeper than parsing can produce, without recursing.
    static func checkNestingDepth(_ predicate: FetchPredicate) throws {
        let limit = FetchPredicate.maximumNestingDepth + 1
        var stack: [(FetchPredicate, Int)] = [(predicate, 0)]
        while let (node, depth) = stack.popLast() {
            let children: [FetchPredicate]
            switch node {
            case .not(let inner): children = [inner]
            case .and(let operands), .or(let operands): children = operands
            case .constant, .comparison: children = []
            }
            guard !children.isEmpty else { continue }
            if depth + 1 > limit {
                throw PredicateErrors.error(column: nil, "the predicate nests more than \(limit) levels deep",
                                            hint: "NOT, AND and OR may nest at most \(limit) levels; simplify the predicate.")
            }
            stack += children.map { ($0, depth + 1) }
        }
    }

    func bind(_ predicate: FetchPredicate) throws -> BoundNode {
        switch predicate {
        case .constant(let value): .constant(value)
        case .not(let inner): .not(try bind(inner))
        case .and(let operands): .and(try operands.map(bind))
        case .or(let operands): .or(try operands.map(bind))
        case .comparison(let c): .comparison(try bind(c))
        }
    }

    private func bind(_ c: FetchPredicate.Comparison) throws -> BoundComparison {
        var left = try operand(c.left)
        var right = try operand(c.right)
        let opName = c.operator.rawValue

        // Shape: lists only on the right of IN and BETWEEN; BETWEEN takes exactly two values.
        if case .list = left {
            throw PredicateErrors.error(column: c.source.left, "a list can only be the right side of IN or BETWEEN",
                                        hint: "Write the key path first, as in order IN {1, 2}.")
        }
        switch (c.operator, right) {
        case (.between, .list(let values)) where values.count == 2: break
        case (.between, _):
            throw PredicateErrors.error(column: c.source.right, "BETWEEN needs a list of two values but found \(Self.shown(c.right))",
                                        hint: "Write the bounds as a list, as in order BETWEEN {1, 10}.")
        case (.in, _): break
        case (_, .list):
            throw PredicateErrors.error(column: c.source.right, "a list can only follow IN or BETWEEN, not \"\(opName)\"",
                                        hint: "Use IN to test membership, as in order IN {1, 2}.")
        default: break
        }

        // Several values on the left need (or imply) a modifier; on the right only IN takes them.
        let quantifier: BoundComparison.Quantifier
        switch (c.modifier, left.isMultiValued) {
        case (.direct, false): quantifier = .single
        case (.direct, true), (.any, true): quantifier = .any
        case (.all, true): quantifier = .all
        case (.none, true): quantifier = .none
        case (_, false):
            throw PredicateErrors.error(column: c.source.left, "\(c.modifier.rawValue) needs a to-many key path, but \(Self.shown(c.left)) has one value",
                                        hint: "Use \(c.modifier.rawValue) with a key path through a to-many relationship, as in \(c.modifier.rawValue) tags.name == \"work\"; or remove it.")
        }
        if right.isMultiValued && c.operator != .in {
            throw PredicateErrors.error(column: c.source.right, "the right side of \"\(opName)\" cannot be the to-many key path \(Self.shown(c.right))",
                                        hint: "Only IN takes a to-many key path on its right; put the to-many key path on the left, with ANY, ALL or NONE.")
        }

        try checkKinds(c, left: &left, right: &right)

        var pattern: StringPattern?
        if case .constant(.value(.string(let s))) = right {
            switch c.operator {
            case .like: pattern = .like(LikePattern(s, options: c.options))
            case .matches:
                guard let compiled = MatchesPattern(s, options: c.options) else {
                    throw PredicateErrors.error(column: c.source.right, "invalid regular expression \(PredicateFormatter.quoted(s)) after MATCHES",
                                                hint: "MATCHES takes an ICU regular expression that must match the whole string.")
                }
                pattern = .regex(compiled)
            case .contains, .beginsWith, .endsWith: pattern = .needle(PredicateStrings.fold(s, c.options))
            default: break
            }
        }
        return BoundComparison(quantifier: quantifier, left: left, op: c.operator, right: right, options: c.options, pattern: pattern)
    }

    private func operand(_ expression: FetchPredicate.Expression) throws -> BoundOperand {
        switch expression {
        case .constant(let v): .constant(PredicateTerm(v))
        case .list(let vs): .list(vs.map(PredicateTerm.init))
        case .evaluatedObject: .evaluatedObject
        case .keyPath(let keyPath): .path(try resolve(keyPath))
        }
    }

    /// Checks that the two sides can ever satisfy the operator; converts string constants
    /// compared with UUID attributes to UUIDs.
    private func checkKinds(_ c: FetchPredicate.Comparison, left: inout BoundOperand, right: inout BoundOperand) throws {
        guard let leftKind = left.kind else { return }
        let opName = c.operator.rawValue
        func mismatch(_ rightText: String, _ rightKind: PredicateValueKind) -> EngineError {
            PredicateErrors.error(column: c.source.operator, "cannot compare \(Self.shown(c.left)) (\(leftKind.phrase)) with \(rightText) (\(rightKind.phrase)) using \"\(opName)\"",
                                  hint: "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\").")
        }
        // A string constant against a UUID attribute means the UUID it spells.
        func convert(_ term: PredicateTerm) throws -> PredicateTerm {
            guard leftKind == .uuid, case .value(.string(let s)) = term else { return term }
            guard let uuid = UUID(uuidString: s) else { throw mismatch(PredicateFormatter.quoted(s), .string) }
            return .value(.uuid(uuid))
        }
        if case .constant(let term) = right { right = .constant(try convert(term)) }
        if case .list(let terms) = right { right = .list(try terms.map(convert)) }

        if c.operator.isStringOperator {
            guard leftKind == .string || leftKind == .unknown else {
                throw PredicateErrors.error(column: c.source.operator, "\(opName) needs strings, but \(Self.shown(c.left)) is \(leftKind.phrase)",
                                            hint: "Use \(opName) on string attributes; compare numbers and dates with ==, <, > or BETWEEN.")
            }
            if let rightKind = right.kind, rightKind != .string, rightKind != .unknown {
                throw PredicateErrors.error(column: c.source.right, "\(opName) needs a string on its right, but \(Self.shown(c.right)) is \(rightKind.phrase)",
                                            hint: "Quote the text to look for, as in text \(opName) \"milk\".")
            }
            return
        }
        let rightTerms: [(text: String, kind: PredicateValueKind)]
        switch right {
        case .list(let terms):
            rightTerms = terms.compactMap { term in term.kind.map { (PredicateFormatter.literal(term.value), $0) } }
        default:
            rightTerms = right.kind.map { [(Self.shown(c.right), $0)] } ?? []
        }
        if c.operator == .in, !right.isMultiValued, !isList(right) {
            // `x IN "text"` tests for a substring.
            guard let rightKind = right.kind else { return }
            guard rightKind == .string || rightKind == .unknown, leftKind == .string || leftKind == .unknown else {
                throw PredicateErrors.error(column: c.source.right, "IN needs a list, a to-many key path or a string on its right, but \(Self.shown(c.right)) is \(rightKind.phrase)",
                                            hint: "Write the candidates as a list, as in order IN {1, 2}.")
            }
            return
        }
        for (text, kind) in rightTerms where !leftKind.isComparable(with: kind) {
            throw mismatch(text, kind)
        }
        if c.operator.isOrdering && !leftKind.isOrdered {
            throw PredicateErrors.error(column: c.source.operator, "cannot order \(Self.shown(c.left)) (\(leftKind.phrase)) with \"\(opName)\"",
                                        hint: "Only numbers, strings and dates have an order; use == or != instead.")
        }
    }

    /// An expression for messages: key paths quoted (`"parent.text"`), values as literals.
    static func shown(_ expression: FetchPredicate.Expression) -> String {
        if case .keyPath = expression { return "\"\(expression)\"" }
        return expression.description
    }

    private func isList(_ operand: BoundOperand) -> Bool {
        if case .list = operand { return true }
        return false
    }
}

extension BoundOperand {
    /// Whether the operand has several values (a key path through a to-many relationship).
    var isMultiValued: Bool {
        if case .path(let path) = self { return path.isMultiValued }
        return false
    }

    /// The kind of the operand's values; `nil` for `nil` constants and lists.
    var kind: PredicateValueKind? {
        switch self {
        case .constant(let term): term.kind
        case .list: nil
        case .evaluatedObject: .object
        case .path(let path): path.kind
        }
    }
}

extension PredicateTerm {
    var kind: PredicateValueKind? {
        switch self {
        case .null: nil
        case .value(let v): PredicateValueKind(v)
        case .object: .object
        }
    }
}
