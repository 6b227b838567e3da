import Foundation

/// Evaluates a bound predicate for one object, reading the graph only through
/// ``ObjectGraphReading``. Recursion follows the predicate tree (bounded when binding), never
/// the data: key paths are followed with loops.
struct PredicateEvaluator<Graph: ObjectGraphReading> {
    let graph: Graph
    let object: ManagedObject

    /// The value(s) of an operand: one term, or several for lists and to-many key paths.
    enum Operand {
        case one(PredicateTerm)
        case many([PredicateTerm])
    }

    func evaluate(_ node: BoundNode) -> Bool {
        switch node {
        case .constant(let value): value
        case .not(let inner): !evaluate(inner)
        case .and(let operands): operands.allSatisfy { evaluate($0) }
        case .or(let operands): operands.contains { evaluate($0) }
        case .comparison(let c): evaluate(c)
        }
    }

    private func evaluate(_ c: BoundComparison) -> Bool {
        let right = evaluate(c.right)
        let pattern = c.pattern ?? Self.pattern(for: c, right: right)
        func test(_ left: PredicateTerm) -> Bool { Self.test(left, c, right, pattern) }
        switch (c.quantifier, evaluate(c.left)) {
        case (.single, .one(let left)): return test(left)
        case (.single, .many(let lefts)), (.any, .many(let lefts)): return lefts.contains(where: test)
        case (.any, .one(let left)): return test(left)
        case (.all, .many(let lefts)): return lefts.allSatisfy(test)
        case (.all, .one(let left)): return test(left)
        case (.none, .many(let lefts)): return !lefts.contains(where: test)
        case (.none, .one(let left)): return !test(left)
        }
    }

    /// Compiles the pattern of a string operator whose right side is a key path.
    private static func pattern(for c: BoundComparison, right: Operand) -> StringPattern? {
        guard c.op.isStringOperator, case .one(let term) = right, let s = term.stringValue else { return nil }
        switch c.op {
        case .like: return .like(LikePattern(s, options: c.options))
        case .matches: return MatchesPattern(s, options: c.options).map(StringPattern.regex)
        default: return .needle(PredicateStrings.fold(s, c.options))
        }
    }

    private static func test(_ left: PredicateTerm, _ c: BoundComparison, _ right: Operand, _ pattern: StringPattern?) -> Bool {
        let options = c.options
        switch (c.op, right) {
        case (.equalTo, .one(let r)):
            return PredicateComparator.equal(left, r, options: options)
        case (.notEqualTo, .one(let r)):
            return !PredicateComparator.equal(left, r, options: options)
        case (.lessThan, .one(let r)), (.lessThanOrEqualTo, .one(let r)), (.greaterThan, .one(let r)), (.greaterThanOrEqualTo, .one(let r)):
            return PredicateComparator.satisfies(PredicateComparator.order(left, r, options: options), c.op)
        case (.between, .many(let bounds)) where bounds.count == 2:
            return PredicateComparator.satisfies(PredicateComparator.order(left, bounds[0], options: options), .greaterThanOrEqualTo)
                && PredicateComparator.satisfies(PredicateComparator.order(left, bounds[1], options: options), .lessThanOrEqualTo)
        case (.in, .many(let candidates)):
            return candidates.contains { PredicateComparator.equal(left, $0, options: options) }
        case (.in, .one(let r)):
            guard let needle = left.stringValue, let haystack = r.stringValue else { return false }
            return PredicateStrings.matches(haystack, .contains, foldedNeedle: PredicateStrings.fold(needle, options), options: options)
        case (.contains, _), (.beginsWith, _), (.endsWith, _), (.like, _), (.matches, _):
            guard let s = left.stringValue, let pattern else { return false }
            switch pattern {
            case .needle(let needle): return PredicateStrings.matches(s, c.op, foldedNeedle: needle, options: options)
            case .like(let like): return like.matches(s)
            case .regex(let regex): return regex.matches(s)
            }
        default:
            return false
        }
    }

    private func evaluate(_ operand: BoundOperand) -> Operand {
        switch operand {
        case .constant(let term): .one(term)
        case .list(let terms): .many(terms)
        case .evaluatedObject: .one(.object(object))
        case .path(let path): evaluate(path)
        }
    }

    /// The value of a single-valued path (an aggregate or through to-one relationships only).
    func single(of path: BoundPath) -> PredicateTerm {
        switch evaluate(path) {
        case .one(let term): term
        case .many(let terms): terms.first ?? .null
        }
    }

    private func evaluate(_ path: BoundPath) -> Operand {
        if path.aggregate == nil && !path.isMultiValued {
            // One value: follow to-one relationships without collecting.
            var current: ManagedObject? = object
            for case .toOne(let r) in path.steps {
                current = current.flatMap { graph.relatedObject(of: $0, r) }
            }
            return .one(current.map { terminal(path.terminal, of: $0) } ?? .null)
        }
        var objects = [object]
        for step in path.steps {
            switch step {
            case .toOne(let r): objects = objects.compactMap { graph.relatedObject(of: $0, r) }
            case .toMany(let r): objects = objects.flatMap { graph.relatedObjects(of: $0, r) }
            }
        }
        if let aggregate = path.aggregate {
            return .one(self.aggregate(aggregate.op, steps: aggregate.steps, attribute: aggregate.attribute, over: objects))
        }
        return .many(objects.map { terminal(path.terminal, of: $0) })
    }

    private func terminal(_ terminal: BoundPath.Terminal, of object: ManagedObject) -> PredicateTerm {
        switch terminal {
        case .attribute(let a): PredicateTerm(graph.attributeValue(of: object, a))
        case .object: .object(object)
        }
    }

    private func aggregate(_ op: FetchPredicate.CollectionOperator, steps: [RelationshipIndex], attribute: AttributeIndex,
                           over objects: [ManagedObject]) -> PredicateTerm {
        if op == .count { return .value(.integer(Int64(objects.count))) }
        let values: [Value] = objects.compactMap { start in
            var current: ManagedObject? = start
            for r in steps { current = current.flatMap { graph.relatedObject(of: $0, r) } }
            return current.flatMap { graph.attributeValue(of: $0, attribute) }
        }
        switch op {
        case .count: return .value(.integer(Int64(objects.count)))
        case .sum: return .value(PredicateAggregates.sum(values))
        case .average: return PredicateTerm(PredicateAggregates.average(values))
        case .minimum: return PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedAscending))
        case .maximum: return PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedDescending))
        }
    }
}

/// `@sum`, `@avg`, `@min` and `@max` over attribute values (`nil`s already left out).
enum PredicateAggregates {
    /// The sum: an integer when every value is an integer or boolean and the sum fits, a
    /// decimal when any value is a decimal, else a double. Values that are not numbers are skipped.
    static func sum(_ values: [Value]) -> Value {
        let numbers = values.filter { $0.doubleValue != nil }
        if numbers.allSatisfy({ $0.integerValue != nil }) {
            var total: Int64 = 0
            var overflow = false
            for v in numbers {
                let (partial, didOverflow) = total.addingReportingOverflow(v.integerValue ?? 0)
                total = partial
                overflow = overflow || didOverflow
            }
            if !overflow { return .integer(total) }
        } else if numbers.contains(where: { if case .decimal = $0 { true } else { false } }) {
            var total = Decimal(0)
            for v in numbers { total += decimalValue(v) }
            return .decimal(total)
        }
        return .double(numbers.reduce(0) { $0 + ($1.doubleValue ?? 0) })
    }

    /// The mean as a double (a decimal when any value is a decimal); `nil` when there are no numbers.
    static func average(_ values: [Value]) -> Value? {
        let numbers = values.filter { $0.doubleValue != nil }
        guard !numbers.isEmpty else { return nil }
        switch sum(numbers) {
        case .decimal(let d): return .decimal(d / Decimal(numbers.count))
        case let total: return .double((total.doubleValue ?? 0) / Double(numbers.count))
        }
    }

    /// The smallest (`.orderedAscending`) or largest (`.orderedDescending`) value; values that
    /// do not compare with the first are skipped.
    static func extreme(_ values: [Value], keeping direction: ComparisonResult) -> Value? {
        var best: Value?
        for v in values {
            guard let current = best else { best = v; continue }
            if PredicateComparator.order(v, current, options: []) == direction { best = v }
        }
        return best
    }

    private static func decimalValue(_ v: Value) -> Decimal {
        switch v {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .boolean(let b): b ? 1 : 0
        case .double(let d): d.isFinite ? Decimal(d) : 0
        default: 0
        }
    }
}
