import Foundation

/// What an expression evaluates to: nothing, an attribute value, or an object.
enum PredicateTerm: Hashable, Sendable {
    case null
    case value(Value)
    case object(ManagedObject)

    init(_ value: Value?) {
        self = value.map(PredicateTerm.value) ?? .null
    }

    var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }

    var stringValue: String? { value?.stringValue }
}

/// The kind of values an expression can have, for checking comparisons when binding.
enum PredicateValueKind: Equatable, Sendable {
    case number, string, date, binary, uuid, object
    /// Transformable and Undefined attributes: not checked.
    case unknown

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: self = .number
        case .string, .uri, .objectID: self = .string
        case .date: self = .date
        case .binary: self = .binary
        case .uuid: self = .uuid
        case .transformable, .undefined: self = .unknown
        }
    }

    init(_ value: Value) {
        switch value {
        case .integer, .double, .decimal, .boolean: self = .number
        case .string: self = .string
        case .date: self = .date
        case .binary: self = .binary
        case .uuid: self = .uuid
        }
    }

    /// Whether values of these kinds can ever compare equal.
    func isComparable(with other: PredicateValueKind) -> Bool {
        self == .unknown || other == .unknown || self == other
    }

    /// Whether values of this kind have an order (`<`, `BETWEEN`, `@min`, sorting).
    var isOrdered: Bool { self == .number || self == .string || self == .date || self == .unknown }

    /// The kind with an article, for messages: "a number".
    var phrase: String {
        switch self {
        case .number: "a number"
        case .string: "a string"
        case .date: "a date"
        case .binary: "binary data"
        case .uuid: "a UUID"
        case .object: "an object"
        case .unknown: "a value"
        }
    }
}

/// Foundation's comparison semantics for predicate terms.
///
/// `nil` equals only `nil` and has no order. Numbers (integers, doubles, decimals and
/// booleans) compare by value across types, exactly. Strings compare with the comparison
/// options. Dates compare in time. UUIDs, binary data and objects compare for equality only;
/// a UUID also equals its string spelling. Values of different kinds are never equal and have
/// no order.
enum PredicateComparator {
    /// `a == b` under `options`.
    static func equal(_ a: PredicateTerm, _ b: PredicateTerm, options: FetchPredicate.Options) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.object(let x), .object(let y)): return x == y
        case (.value(let x), .value(let y)): return equal(x, y, options: options)
        default: return false
        }
    }

    static func equal(_ x: Value, _ y: Value, options: FetchPredicate.Options) -> Bool {
        switch (x, y) {
        case (.string(let s), .string(let t)):
            return options.isEmpty ? s == t : PredicateStrings.fold(s, options) == PredicateStrings.fold(t, options)
        case (.uuid(let u), .string(let s)), (.string(let s), .uuid(let u)):
            return UUID(uuidString: s) == u
        case (.uuid(let u), .uuid(let v)): return u == v
        case (.binary(let d), .binary(let e)): return d == e
        case (.date(let d), .date(let e)): return d == e
        default: return compareNumbers(x, y) == .orderedSame
        }
    }

    /// The order of `a` and `b`, or `nil` when they have none (nil, different kinds, NaN).
    static func order(_ a: PredicateTerm, _ b: PredicateTerm, options: FetchPredicate.Options) -> ComparisonResult? {
        guard case .value(let x) = a, case .value(let y) = b else { return nil }
        return order(x, y, options: options)
    }

    static func order(_ x: Value, _ y: Value, options: FetchPredicate.Options) -> ComparisonResult? {
        switch (x, y) {
        case (.string(let s), .string(let t)): return PredicateStrings.compare(s, t, options)
        case (.date(let d), .date(let e)): return d == e ? .orderedSame : d < e ? .orderedAscending : .orderedDescending
        default: return compareNumbers(x, y)
        }
    }

    /// Whether `result` satisfies an ordering operator.
    static func satisfies(_ result: ComparisonResult?, _ op: FetchPredicate.Operator) -> Bool {
        guard let result else { return false }
        switch op {
        case .lessThan: return result == .orderedAscending
        case .lessThanOrEqualTo: return result != .orderedDescending
        case .greaterThan: return result == .orderedDescending
        case .greaterThanOrEqualTo: return result != .orderedAscending
        default: return false
        }
    }

    /// Exact numeric comparison across integer, double, decimal and boolean values.
    static func compareNumbers(_ x: Value, _ y: Value) -> ComparisonResult? {
        switch (x, y) {
        case (.decimal(let d), _):
            return decimal(y).map { ordered(d, $0) }
        case (_, .decimal(let e)):
            return decimal(x).map { ordered($0, e) }
        case (.double(let d), .double(let e)):
            return d.isNaN || e.isNaN ? nil : ordered(d, e)
        case (.double(let d), _):
            return y.integerValue.flatMap { i in compare(i, d).map(reversed) }
        case (_, .double(let e)):
            return x.integerValue.flatMap { i in compare(i, e) }
        default:
            guard let i = x.integerValue, let j = y.integerValue else { return nil }
            return ordered(i, j)
        }
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
    }

    private static func reversed(_ r: ComparisonResult) -> ComparisonResult {
        switch r {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    /// An integer against a double without rounding the integer to a double.
    private static func compare(_ i: Int64, _ d: Double) -> ComparisonResult? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if d < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = d.rounded(.down)
        let wholeInt = Int64(whole)
        if i != wholeInt { return ordered(i, wholeInt) }
        return whole == d ? .orderedSame : .orderedAscending
    }

    private static func decimal(_ v: Value) -> Decimal? {
        switch v {
        case .decimal(let d): d
        case .integer(let i): Decimal(i)
        case .boolean(let b): b ? 1 : 0
        case .double(let d): d.isFinite ? Decimal(d) : nil
        default: nil
        }
    }
}
