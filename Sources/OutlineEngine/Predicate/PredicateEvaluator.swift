import Foundation

/// Evaluates a bound predicate for one object, reading the graph only through
/// ``ObjectGraphReading``. Recursion follows the predicate tree (bounded when binding), never
/// the data: key paths are followed with loops. All work is charged to the context's budget.
struct PredicateEvaluator<Graph: ObjectGraphReading> {
    let graph: Graph
    let object: ManagedObject
    let context: PredicateEvaluationContext

    /// The value(s) of an operand: one term, or several for lists and to-many key paths.
    enum Operand {
        case one(PredicateTerm)
        case many([PredicateTerm])

        var terms: [PredicateTerm] {
            switch self {
            case .one(let term): [term]
            case .many(let terms): terms
            }
        }
    }

    func evaluate(_ node: BoundNode) throws -> Bool {
        switch node {
        case .constant(let value): return value
        case .not(let inner): return !(try evaluate(inner))
        case .and(let operands):
            for operand in operands where !(try evaluate(operand)) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand) { return true }
            return false
        case .comparison(let c): return try evaluate(c)
        }
    }

    private func evaluate(_ c: BoundComparison) throws -> Bool {
        try context.spend(1)
        let right = try evaluate(c.right)
        let pattern = try c.pattern ?? pattern(for: c, right: right)
        func test(_ left: PredicateTerm) throws -> Bool { try self.test(left, c, right, pattern) }
        switch (c.quantifier, try evaluate(c.left)) {
        case (.single, .one(let left)), (.any, .one(let left)), (.all, .one(let left)): return try test(left)
        case (.single, .many(let lefts)), (.any, .many(let lefts)):
            for left in lefts where try test(left) { return true }
            return false
        case (.all, .many(let lefts)):
            for left in lefts where !(try test(left)) { return false }
            return true
        case (.none, .many(let lefts)):
            for left in lefts where try test(left) { return false }
            return true
        case (.none, .one(let left)): return !(try test(left))
        }
    }

    /// Compiles the pattern of a string operator whose right side is not a constant.
    private func pattern(for c: BoundComparison, right: Operand) throws -> StringPattern? {
        guard c.op.isStringOperator, case .one(let term) = right, let s = term.stringValue else { return nil }
        try context.spend(s.utf8.count)
        switch c.op {
        case .like: return .like(LikePattern(s, options: c.options))
        case .matches:
            do {
                return .regex(try PredicateRegex(s, options: c.options))
            } catch let error as PredicateRegexError {
                throw PredicateEvaluationFailure.invalidPattern(pattern: s, column: c.rightColumn, error)
            }
        default: return .needle(PredicateNeedle(s, options: c.options))
        }
    }

    private func test(_ left: PredicateTerm, _ c: BoundComparison, _ right: Operand, _ pattern: StringPattern?) throws -> Bool {
        let options = c.options
        switch (c.op, right) {
        case (.equalTo, .one(let r)):
            return try equal(left, r, options: options)
        case (.notEqualTo, .one(let r)):
            return !(try equal(left, r, options: options))
        case (.lessThan, .one(let r)), (.lessThanOrEqualTo, .one(let r)), (.greaterThan, .one(let r)), (.greaterThanOrEqualTo, .one(let r)):
            try chargeStrings(left, r)
            return PredicateComparator.satisfies(PredicateComparator.order(left, r, options: options), c.op)
        case (.between, .many(let bounds)) where bounds.count == 2:
            try chargeStrings(left, bounds[0])
            try chargeStrings(left, bounds[1])
            return PredicateComparator.satisfies(PredicateComparator.order(left, bounds[0], options: options), .greaterThanOrEqualTo)
                && PredicateComparator.satisfies(PredicateComparator.order(left, bounds[1], options: options), .lessThanOrEqualTo)
        case (.in, .many(let candidates)):
            for candidate in candidates where try equal(left, candidate, options: options) { return true }
            return false
        case (.in, .one(let r)):
            guard let needle = left.stringValue, let haystack = r.stringValue else { return false }
            try context.spend(needle.utf8.count)
            return try PredicateNeedle(needle, options: options).matches(haystack, .contains, context: context)
        case (.contains, _), (.beginsWith, _), (.endsWith, _), (.like, _), (.matches, _):
            guard let s = left.stringValue, let pattern else { return false }
            switch pattern {
            case .needle(let needle): return try needle.matches(s, c.op, context: context)
            case .like(let like): return try like.matches(s, context: context)
            case .regex(let regex):
                do {
                    return try regex.matches(s, context: context)
                } catch PredicateRegexLimit.backtracking(let limit) {
                    throw PredicateEvaluationFailure.backtrackingLimit(pattern: regex.source, column: c.rightColumn, limit: limit)
                }
            }
        default:
            return false
        }
    }

    private func equal(_ a: PredicateTerm, _ b: PredicateTerm, options: FetchPredicate.Options) throws -> Bool {
        try chargeStrings(a, b)
        return PredicateComparator.equal(a, b, options: options)
    }

    /// Comparing strings costs their length.
    private func chargeStrings(_ a: PredicateTerm, _ b: PredicateTerm) throws {
        if case .value(.string(let s)) = a { try context.spend(s.utf8.count / 8) }
        if case .value(.string(let s)) = b { try context.spend(s.utf8.count / 8) }
    }

    func evaluate(_ expression: BoundExpression) throws -> Operand {
        switch expression {
        case .constant(let term): return .one(term)
        case .list(let elements):
            return .many(try elements.map { try single(of: $0) })
        case .evaluatedObject: return .one(.object(object))
        case .variable(let slot): return .one(context.slots[slot].map(PredicateTerm.object) ?? .null)
        case .path(let base, let path): return try evaluate(path, from: base)
        case .subquery(let collection, let slot, let predicate):
            return try subquery(collection, slot: slot, predicate)
        case .function(let function, let arguments):
            return try evaluate(function, arguments)
        case .arithmetic(let l, let op, let r):
            return .one(PredicateArithmetic.apply(try single(of: l), op, try single(of: r)))
        case .negated(let operand):
            return .one(PredicateArithmetic.negate(try single(of: operand)))
        case .cast(let operand, let type):
            let term = try single(of: operand)
            return .one(PredicateTerm(PredicateCasts.cast(term.value, to: type)))
        case .element(let collection, let index):
            let terms = try evaluate(collection).terms
            switch index {
            case .first: return .one(terms.first ?? .null)
            case .last: return .one(terms.last ?? .null)
            case .at(let n): return .one(n < terms.count ? terms[n] : .null)
            case .size: return .one(.value(.integer(Int64(terms.count))))
            }
        case .conditional(let condition, let whenTrue, let whenFalse):
            return try evaluate(try evaluate(condition) ? whenTrue : whenFalse)
        }
    }

    /// The value of an expression that has one (binding checked it).
    func single(of expression: BoundExpression) throws -> PredicateTerm {
        switch try evaluate(expression) {
        case .one(let term): term
        case .many(let terms): terms.first ?? .null
        }
    }

    private func subquery(_ collection: BoundExpression, slot: Int, _ predicate: BoundNode) throws -> Operand {
        let outer = context.slots[slot]
        defer { context.slots[slot] = outer }
        var matches: [PredicateTerm] = []
        for term in try evaluate(collection).terms {
            guard case .object(let element) = term else { continue }
            try context.spend(1)
            context.slots[slot] = element
            if try evaluate(predicate) { matches.append(term) }
        }
        return .many(matches)
    }
}

extension PredicateTerm {
    /// The object, if this is one.
    var object: ManagedObject? {
        if case .object(let o) = self { return o }
        return nil
    }
}
