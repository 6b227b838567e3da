import Foundation

/// Binds a ``FetchPredicate`` to an entity: resolves key paths, checks types, compiles patterns.
struct PredicateBinder {
    let schema: Schema
    let entity: EntityIndex
    /// For unordered to-many relationships, by name: the attribute of their objects that
    /// index operators (`children[FIRST]`) order them by.
    var indexOrdering: [String: String] = [:]
    /// The `SUBQUERY` variables in scope while binding, and the slots they take.
    let scope = PredicateScope()

    /// Rejects predicate trees nested deeper than parsing can produce, without recursing.
    static func checkNestingDepth(_ predicate: FetchPredicate) throws {
        try PredicateTree.checkNestingDepth(predicate)
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
        var left = try bind(c.left, column: c.source.left)
        var right = try bind(c.right, column: c.source.right)
        let opName = c.operator.rawValue

        // Shape: lists only on the right of IN and BETWEEN; BETWEEN takes exactly two values.
        if left.isList {
            throw PredicateErrors.error(
                column: c.source.left, "a list can only be the right side of IN or BETWEEN",
                hint: "Write the key path first, as in order IN {1, 2}.")
        }
        switch c.operator {
        case .between:
            guard right.isList, right.elements.count == 2 else {
                throw PredicateErrors.error(
                    column: c.source.right, "BETWEEN needs a list of two values but found \(Self.shown(c.right))",
                    hint: "Write the bounds as a list, as in order BETWEEN {1, 10}.")
            }
        case .in: break
        default:
            if right.isList {
                throw PredicateErrors.error(
                    column: c.source.right, "a list can only follow IN or BETWEEN, not \"\(opName)\"",
                    hint: "Use IN to test membership, as in order IN {1, 2}.")
            }
        }

        // Several values on the left need (or imply) a modifier; on the right only IN takes them.
        let quantifier: BoundComparison.Quantifier
        switch (c.modifier, left.isMultiValued) {
        case (.direct, false): quantifier = .single
        case (.direct, true), (.any, true): quantifier = .any
        case (.all, true): quantifier = .all
        case (.none, true): quantifier = .none
        case (_, false):
            throw PredicateErrors.error(
                column: c.source.left, "\(c.modifier.rawValue) needs a to-many key path, but \(Self.shown(c.left)) has one value",
                hint:
                    "Use \(c.modifier.rawValue) with a key path through a to-many relationship, as in \(c.modifier.rawValue) tags.name == \"work\"; or remove it."
            )
        }
        if right.isMultiValued && c.operator != .in {
            throw PredicateErrors.error(
                column: c.source.right, "the right side of \"\(opName)\" cannot be the to-many key path \(Self.shown(c.right))",
                hint: "Only IN takes a to-many key path on its right; put the to-many key path on the left, with ANY, ALL or NONE.")
        }

        try checkKinds(c, left: &left, right: &right)

        var pattern: StringPattern?
        if case .constant(.value(.string(let s))) = right.expression {
            switch c.operator {
            case .like: pattern = .like(LikePattern(s, options: c.options))
            case .matches:
                do {
                    pattern = .regex(try PredicateRegex(s, options: c.options))
                } catch let error as PredicateRegexError {
                    let shown = PredicateFormatter.quotedForMessage(s)
                    throw PredicateErrors.error(
                        column: c.source.right, "invalid regular expression \(shown) after MATCHES: \(error.message)", hint: error.hint)
                }
            case .contains, .beginsWith, .endsWith: pattern = .needle(PredicateNeedle(s, options: c.options))
            default: break
            }
        }
        return BoundComparison(
            quantifier: quantifier, left: left.expression, op: c.operator, right: right.expression,
            options: c.options, pattern: pattern, rightColumn: c.source.right)
    }

    /// Checks that the two sides can ever satisfy the operator; converts string constants
    /// compared with UUID attributes to UUIDs.
    private func checkKinds(_ c: FetchPredicate.Comparison, left: inout BoundSide, right: inout BoundSide) throws {
        guard let leftKind = left.kind else { return }
        let opName = c.operator.rawValue
        func mismatch(_ rightText: String, _ rightKind: PredicateValueKind) -> EngineError {
            PredicateErrors.error(
                column: c.source.operator,
                "cannot compare \(Self.shown(c.left)) (\(leftKind.phrase)) with \(rightText) (\(rightKind.phrase)) using \"\(opName)\"",
                hint: "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\").")
        }
        // A string constant against a UUID attribute means the UUID it spells.
        func convert(_ side: BoundSide) throws -> BoundSide {
            guard leftKind == .uuid, case .constant(.value(.string(let s))) = side.expression else { return side }
            guard let uuid = UUID(uuidString: s) else { throw mismatch(PredicateFormatter.quoted(s), .string) }
            return BoundSide(.constant(.value(.uuid(uuid))), kind: .uuid, text: side.text)
        }
        if right.isList {
            right.elements = try right.elements.map(convert)
            right.expression = .list(right.elements.map(\.expression))
        } else {
            right = try convert(right)
        }

        if c.operator.isStringOperator {
            guard leftKind == .string || leftKind == .unknown else {
                throw PredicateErrors.error(
                    column: c.source.operator, "\(opName) needs strings, but \(Self.shown(c.left)) is \(leftKind.phrase)",
                    hint: "Use \(opName) on string attributes; compare numbers and dates with ==, <, > or BETWEEN.")
            }
            if let rightKind = right.kind, rightKind != .string, rightKind != .unknown {
                throw PredicateErrors.error(
                    column: c.source.right, "\(opName) needs a string on its right, but \(Self.shown(c.right)) is \(rightKind.phrase)",
                    hint: "Quote the text to look for, as in text \(opName) \"milk\".")
            }
            return
        }
        let rightTerms: [(text: String, kind: PredicateValueKind)]
        if right.isList {
            rightTerms = right.elements.compactMap { element in element.kind.map { (element.text, $0) } }
        } else {
            rightTerms = right.kind.map { [(Self.shown(c.right), $0)] } ?? []
        }
        if c.operator == .in, !right.isMultiValued, !right.isList {
            // `x IN "text"` tests for a substring.
            guard let rightKind = right.kind else { return }
            guard rightKind == .string || rightKind == .unknown, leftKind == .string || leftKind == .unknown else {
                throw PredicateErrors.error(
                    column: c.source.right,
                    "IN needs a list, a to-many key path or a string on its right, but \(Self.shown(c.right)) is \(rightKind.phrase)",
                    hint: "Write the candidates as a list, as in order IN {1, 2}.")
            }
            return
        }
        for (text, kind) in rightTerms where !leftKind.isComparable(with: kind) {
            throw mismatch(text, kind)
        }
        if c.operator.isOrdering && !leftKind.isOrdered {
            throw PredicateErrors.error(
                column: c.source.operator, "cannot order \(Self.shown(c.left)) (\(leftKind.phrase)) with \"\(opName)\"",
                hint: "Only numbers, strings and dates have an order; use == or != instead.")
        }
    }

    /// An expression for messages: key paths quoted (`"parent.text"`), values as literals.
    static func shown(_ expression: FetchPredicate.Expression) -> String {
        switch expression {
        case .keyPath, .path, .variable, .subquery, .function, .arithmetic, .negated, .cast, .conditional:
            return "\"\(expression)\""
        default:
            return expression.description
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
