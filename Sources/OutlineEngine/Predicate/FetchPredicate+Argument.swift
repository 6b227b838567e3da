extension FetchPredicate {
    /// A value substituted for a placeholder of a format string.
    ///
    /// `%@` takes any argument (a list becomes a list literal, for `IN` and `BETWEEN`),
    /// `%K` takes a string that is a key path, `%d`/`%i`/`%ld`/`%lld` take an integer or a
    /// boolean, `%f`/`%lf` take any number. Literals make arguments directly:
    /// `try FetchPredicate(format: "%K IN %@", "order", [1, 2])`.
    public enum Argument: Hashable, Sendable {
        /// A single value, or `nil`.
        case value(Value?)
        /// A list of values.
        case list([Value?])
    }
}

extension FetchPredicate.Argument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .value(.string(value)) }
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .value(.integer(value)) }
    /// A double value.
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .value(.boolean(value)) }
    /// No value: `nil`.
    public init(nilLiteral: ()) { self = .value(nil) }

    /// A list; elements that are themselves lists are flattened into it.
    public init(arrayLiteral elements: FetchPredicate.Argument...) {
        self = .list(elements.flatMap { element -> [Value?] in
            switch element {
            case .value(let v): [v]
            case .list(let vs): vs
            }
        })
    }
}
