extension FetchPredicate {
    /// A value substituted for a placeholder of a format string, or for a `$variable` (see
    /// ``FetchPredicate/substituting(_:)``).
    ///
    /// `%@` takes any argument (a list becomes a list literal, for `IN` and `BETWEEN`; an
    /// object compares with relationships and `SELF`), `%K` takes a string that is a key path,
    /// `%d`/`%i`/`%ld`/`%lld`/`%u`/`%x`/`%o` take an integer or a boolean, `%f`/`%lf`/`%e`/`%g`
    /// take any number, `%s` takes a string. Literals make arguments directly:
    /// `try FetchPredicate(format: "%K IN %@", "order", [1, 2])`.
    public enum Argument: Hashable, Sendable {
        /// A single value, or `nil`.
        case value(Value?)
        /// A list of values.
        case list([Value?])
        /// An object of the graph: `parent == %@`.
        case object(ManagedObject)
        /// A list of objects: `SELF IN %@`.
        case objects([ManagedObject])
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
    ///
    /// - Precondition: the elements are all values (and value lists) or all objects (and
    ///   object lists); an empty list is a list of values.
    public init(arrayLiteral elements: FetchPredicate.Argument...) {
        var values: [Value?] = []
        var objects: [ManagedObject] = []
        for element in elements {
            switch element {
            case .value(let v): values.append(v)
            case .list(let vs): values += vs
            case .object(let o): objects.append(o)
            case .objects(let os): objects += os
            }
        }
        precondition(values.isEmpty || objects.isEmpty, "an argument list holds values or objects, not both")
        self = objects.isEmpty ? .list(values) : .objects(objects)
    }

    /// The value a literal of the format-string syntax spells: `42`, `-1.5`, `0x1F`, `YES`,
    /// `nil`, `"quoted text"`, `{1, 2}`, `CAST(721692800, "NSDate")`; `nil` when `text` is
    /// not exactly one literal (a bare word, an expression, a syntax error).
    ///
    /// A tool that takes variable values as text can use it to read `3` as a number and
    /// `"3"` as a string, and take anything else as the text it is.
    public init?(literal text: String) {
        guard var parser = try? PredicateParser(format: text, arguments: []), parser.startsExpression(parser.current),
            let expression = try? parser.parseExpression(), parser.current.isEnd
        else { return nil }
        switch expression {
        case .constant(let value): self = .value(value)
        case .list(let values): self = .list(values)
        default: return nil
        }
    }

    /// The argument as an expression: a constant, a list, an object or a list of objects.
    var expression: FetchPredicate.Expression {
        switch self {
        case .value(let v): .constant(v)
        case .list(let vs): .list(vs)
        case .object(let o): .object(o)
        case .objects(let os): .aggregate(os.map(FetchPredicate.Expression.object))
        }
    }

    /// The argument for messages: `"x"`, `5`, `nil`, `a list`, `an object`.
    var shown: String {
        switch self {
        case .value(let v?): v.displayString
        case .value(nil): "nil"
        case .list, .objects: "a list"
        case .object: "an object"
        }
    }
}
