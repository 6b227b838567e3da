import Foundation

extension PredicateEvaluator {
    /// The functions of the grammar, with Foundation's results: collection functions skip
    /// `nil`s; numeric functions of `nil` (or of a value that is not a number) are `nil`.
    func evaluate(_ function: FetchPredicate.Function, _ arguments: [BoundExpression]) throws -> Operand {
        switch function {
        case .now: return .one(.value(.date(context.now)))
        case .random: return .one(.value(.double(Double.random(in: 0 ..< 1))))
        default: break
        }
        if function.takesCollection {
            let terms = try evaluate(arguments[0]).terms
            try context.spend(terms.count)
            if function == .count { return .one(.value(.integer(Int64(terms.count)))) }
            let values = terms.compactMap(\.value)
            switch function {
            case .sum: return .one(.value(PredicateAggregates.sum(values)))
            case .average: return .one(PredicateTerm(PredicateAggregates.average(values)))
            case .min: return .one(PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedAscending)))
            case .max: return .one(PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedDescending)))
            case .median: return .one(PredicateTerm(PredicateAggregates.median(values)))
            case .mode: return .many(PredicateAggregates.modes(values).map(PredicateTerm.value))
            default: return .one(PredicateTerm(PredicateAggregates.standardDeviation(values)))
            }
        }
        let value = try single(of: arguments[0]).value
        guard let value, let number = value.doubleValue else { return .one(.null) }
        switch function {
        case .sqrt: return .one(.value(.double(number.squareRoot())))
        case .log: return .one(.value(.double(Foundation.log10(number))))
        case .ln: return .one(.value(.double(Foundation.log(number))))
        case .exp: return .one(.value(.double(Foundation.exp(number))))
        case .floor: return .one(.value(.double(number.rounded(.down))))
        case .ceiling: return .one(.value(.double(number.rounded(.up))))
        case .trunc: return .one(.value(.double(number.rounded(.towardZero))))
        case .abs: return .one(.value(PredicateArithmetic.absolute(value)))
        default:
            // randomn(n): an integer in 0..<n.
            guard let n = value.integerValue ?? (number.isFinite && number == number.rounded() && Swift.abs(number) < 9e18 ? Int64(number) : nil),
                n > 0
            else {
                return .one(.null)
            }
            return .one(.value(.integer(Int64.random(in: 0 ..< n))))
        }
    }
}

/// Arithmetic as Foundation's function expressions do it: integers stay integers (an
/// overflowing result becomes a double instead of wrapping), decimals and doubles compute in
/// doubles, a date plus or minus seconds is a date, and a date minus a date is seconds.
/// `nil`, or values that do not fit, give `nil`.
enum PredicateArithmetic {
    static func apply(_ a: PredicateTerm, _ op: FetchPredicate.ArithmeticOperator, _ b: PredicateTerm) -> PredicateTerm {
        guard let x = a.value, let y = b.value else { return .null }
        switch (x, op, y) {
        case (.date(let d), .add, _): return y.doubleValue.map { .value(.date(d.addingTimeInterval($0))) } ?? .null
        case (_, .add, .date(let d)): return x.doubleValue.map { .value(.date(d.addingTimeInterval($0))) } ?? .null
        case (.date(let d), .subtract, .date(let e)): return .value(.double(d.timeIntervalSince(e)))
        case (.date(let d), .subtract, _): return y.doubleValue.map { .value(.date(d.addingTimeInterval(-$0))) } ?? .null
        default: break
        }
        if case .power = op {
            guard let p = x.doubleValue, let q = y.doubleValue else { return .null }
            return .value(.double(Foundation.pow(p, q)))
        }
        if let i = integer(x), let j = integer(y) {
            let result: (Int64, Bool)
            switch op {
            case .add: result = i.addingReportingOverflow(j)
            case .subtract: result = i.subtractingReportingOverflow(j)
            case .multiply: result = i.multipliedReportingOverflow(by: j)
            case .divide:
                // Integer division by zero has no value (Foundation answers 0, which would be a wrong answer).
                guard j != 0 else { return .null }
                result = i.dividedReportingOverflow(by: j)
            case .power: return .null
            }
            if !result.1 { return .value(.integer(result.0)) }
            return double(Double(i), op, Double(j))
        }
        guard let p = x.doubleValue, let q = y.doubleValue else { return .null }
        return double(p, op, q)
    }

    private static func double(_ p: Double, _ op: FetchPredicate.ArithmeticOperator, _ q: Double) -> PredicateTerm {
        switch op {
        case .add: .value(.double(p + q))
        case .subtract: .value(.double(p - q))
        case .multiply: .value(.double(p * q))
        case .divide: .value(.double(p / q))
        case .power: .value(.double(Foundation.pow(p, q)))
        }
    }

    /// Integers and booleans as integers; other values are not.
    private static func integer(_ v: Value) -> Int64? {
        switch v {
        case .integer(let i): i
        case .boolean(let b): b ? 1 : 0
        default: nil
        }
    }

    static func negate(_ a: PredicateTerm) -> PredicateTerm {
        guard let x = a.value else { return .null }
        switch x {
        case .integer, .boolean:
            let i = integer(x) ?? 0
            let (n, overflow) = Int64(0).subtractingReportingOverflow(i)
            return .value(overflow ? .double(-Double(i)) : .integer(n))
        case .double(let d): return .value(.double(-d))
        case .decimal(let d): return .value(.decimal(-d))
        default: return .null
        }
    }

    static func absolute(_ x: Value) -> Value {
        switch x {
        case .integer(let i): i == .min ? .double(-Double(i)) : .integer(Swift.abs(i))
        case .boolean(let b): .integer(b ? 1 : 0)
        case .decimal(let d): .decimal(d < 0 ? -d : d)
        default: .double(Swift.abs(x.doubleValue ?? 0))
        }
    }
}
