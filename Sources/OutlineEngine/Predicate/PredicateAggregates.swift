import Foundation

/// `@sum`, `@avg`, `@min`, `@max` and the collection functions over values (`nil`s already left out).
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
            guard let current = best else {
                best = v
                continue
            }
            if PredicateComparator.order(v, current, options: []) == direction { best = v }
        }
        return best
    }

    /// The values that order among themselves (all numbers, all strings or all dates), sorted.
    private static func sorted(_ values: [Value]) -> [Value] {
        guard let first = values.first else { return [] }
        let comparable = values.filter { PredicateComparator.order($0, first, options: []) != nil }
        return comparable.sorted { PredicateComparator.order($0, $1, options: []) == .orderedAscending }
    }

    /// The middle value, or the mean of the two middle numbers (an integer when both are
    /// integers, truncated as Foundation does); `nil` when there are none.
    static func median(_ values: [Value]) -> Value? {
        let ordered = sorted(values)
        guard !ordered.isEmpty else { return nil }
        let middle = ordered.count / 2
        if ordered.count % 2 == 1 { return ordered[middle] }
        let (a, b) = (ordered[middle - 1], ordered[middle])
        if let i = a.integerValue, let j = b.integerValue {
            let (total, overflow) = i.addingReportingOverflow(j)
            if !overflow { return .integer(total / 2) }
        }
        guard let x = a.doubleValue, let y = b.doubleValue else { return a }
        return .double((x + y) / 2)
    }

    /// The most frequent values, in ascending order (several when tied).
    static func modes(_ values: [Value]) -> [Value] {
        let ordered = sorted(values)
        var result: [Value] = []
        var best = 0
        var index = 0
        while index < ordered.count {
            var end = index + 1
            while end < ordered.count, PredicateComparator.order(ordered[end], ordered[index], options: []) == .orderedSame { end += 1 }
            let run = end - index
            if run > best {
                best = run
                result = [ordered[index]]
            } else if run == best {
                result.append(ordered[index])
            }
            index = end
        }
        return result
    }

    /// The population standard deviation of the numbers, as Foundation's `stddev:`; `nil` when there are none.
    static func standardDeviation(_ values: [Value]) -> Value? {
        let numbers = values.compactMap(\.doubleValue)
        guard !numbers.isEmpty else { return nil }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        let squares = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return .double((squares / Double(numbers.count)).squareRoot())
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
