/// A condition on objects, written in Core Data's predicate format-string syntax.
///
/// `NSPredicate(format:)` does not exist on Linux; this type parses the same syntax, prints it
/// back (``description`` is a canonical format string that parses to an equal predicate), and
/// is bound to a schema once (``bound(to:entity:indexOrdering:)``) before it is evaluated against objects.
///
/// ```swift
/// let predicate = try FetchPredicate(format: "ANY tags.name ==[c] %@ AND order < 10", "Work")
/// let bound = try predicate.bound(to: schema, entity: itemEntity)
/// let matches = try bound.filter(objects, in: graph)
/// ```
///
/// The name avoids Foundation's generic `Predicate` macro type.
public indirect enum FetchPredicate: Hashable, Sendable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// A comparison of two expressions, such as `order < 10`.
    case comparison(Comparison)
    /// `NOT p`.
    case not(FetchPredicate)
    /// `p AND q AND ...`. An empty list is true.
    case and([FetchPredicate])
    /// `p OR q OR ...`. An empty list is false.
    case or([FetchPredicate])

    /// The deepest nesting of parentheses, `NOT`, `AND` and `OR` that parsing and binding accept.
    ///
    /// Deeper predicates are rejected with ``EngineError/Code/invalidPredicate`` instead of
    /// exhausting the stack.
    public static let maximumNestingDepth = 1000

    /// The deepest nesting of expressions that parsing and binding accept: `CAST`, function
    /// calls, lists, parenthesized values, unary minus, and each operator of an arithmetic
    /// chain (`a + b + c` nests two levels) count one level; `SUBQUERY` and `TERNARY`, which
    /// hold a predicate, count four.
    ///
    /// Deeper expressions are rejected with ``EngineError/Code/invalidPredicate`` instead of
    /// exhausting the stack.
    public static let maximumExpressionNestingDepth = 250
}

extension FetchPredicate {
    /// A comparison `[modifier] left operator[options] right`, such as `ANY tags.name ==[c] "work"`.
    public struct Comparison: Hashable, Sendable {
        /// `ANY`, `ALL`, `NONE` or none, applying to a to-many left-hand side.
        public var modifier: Modifier
        /// The left-hand side, usually a key path.
        public var left: Expression
        /// How the sides are compared.
        public var `operator`: Operator
        /// The right-hand side, usually a value or a list.
        public var right: Expression
        /// `[c]`, `[d]` or `[cd]`; only string comparisons use them.
        public var options: Options
        /// Where the parts were in the parsed text (ignored by `==` and hashing).
        var source: SourceColumns

        /// Makes a comparison, such as `Comparison(.key("tags.name"), .equalTo, .constant(.string("x")), modifier: .any)`.
        public init(
            _ left: Expression, _ operator: Operator, _ right: Expression,
            modifier: Modifier = .direct, options: Options = []
        ) {
            self.init(modifier, left, `operator`, right, options: options, source: SourceColumns())
        }

        init(
            _ modifier: Modifier, _ left: Expression, _ operator: Operator, _ right: Expression,
            options: Options, source: SourceColumns
        ) {
            self.modifier = modifier
            self.left = left
            self.operator = `operator`
            self.right = right
            self.options = options
            self.source = source
        }

        /// Comparisons are equal when they compare the same way; where they were parsed does not matter.
        public static func == (lhs: Comparison, rhs: Comparison) -> Bool {
            guard lhs.modifier == rhs.modifier, lhs.operator == rhs.operator, lhs.options == rhs.options else { return false }
            return lhs.left == rhs.left && lhs.right == rhs.right
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(modifier)
            hasher.combine(left)
            hasher.combine(`operator`)
            hasher.combine(right)
            hasher.combine(options)
        }
    }

    /// The columns (1-based) of a comparison's parts in the text it was parsed from; `nil`
    /// when it was built in code.
    struct SourceColumns: Sendable {
        var left: Int?
        var `operator`: Int?
        var right: Int?
    }

    /// What to do when the left-hand side of a comparison has several values (a key path
    /// through a to-many relationship).
    public enum Modifier: String, Hashable, Sendable, CaseIterable {
        /// No modifier written. A to-many left-hand side is then treated as ``any``, as Core Data does.
        case direct = ""
        /// `ANY` (also spelled `SOME`): true when at least one value satisfies the comparison.
        case any = "ANY"
        /// `ALL`: true when every value satisfies it (also when there are none).
        case all = "ALL"
        /// `NONE`: true when no value satisfies it (also when there are none).
        case none = "NONE"
    }

    /// A comparison operator, with its canonical spelling as raw value.
    public enum Operator: String, Hashable, Sendable, CaseIterable {
        /// `==` (also `=`).
        case equalTo = "=="
        /// `!=` (also `<>`).
        case notEqualTo = "!="
        /// `<`.
        case lessThan = "<"
        /// `<=` (also `=<`).
        case lessThanOrEqualTo = "<="
        /// `>`.
        case greaterThan = ">"
        /// `>=` (also `=>`).
        case greaterThanOrEqualTo = ">="
        /// The left string contains the right string.
        case contains = "CONTAINS"
        /// The left string starts with the right string.
        case beginsWith = "BEGINSWITH"
        /// The left string ends with the right string.
        case endsWith = "ENDSWITH"
        /// The left string matches a pattern where `*` is any run of characters and `?` one character.
        case like = "LIKE"
        /// The left string matches a regular expression in full.
        case matches = "MATCHES"
        /// The left value is one of the right list or to-many key path (or a substring of a right string).
        case `in` = "IN"
        /// The left value lies between the two values of the right list, bounds included.
        case between = "BETWEEN"

        /// Whether the operator works on strings only.
        public var isStringOperator: Bool {
            switch self {
            case .contains, .beginsWith, .endsWith, .like, .matches: true
            default: false
            }
        }

        /// Whether the operator orders its operands (`<`, `<=`, `>`, `>=`, `BETWEEN`).
        public var isOrdering: Bool {
            switch self {
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between: true
            default: false
            }
        }
    }

    /// String comparison options, written in brackets after the operator: `==[cd]`.
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: Int
        /// Options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `[c]`: upper and lower case compare equal.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: accented and plain letters compare equal (`é` and `e`).
        public static let diacriticInsensitive = Options(rawValue: 2)

        /// The bracketed spelling, such as `[cd]`, or the empty string.
        public var formatString: String {
            if isEmpty { return "" }
            return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
    }
}

extension FetchPredicate {
    /// Parses a predicate in Core Data's format-string syntax, substituting `%@`, `%K`, `%d`
    /// and `%f` placeholders with `arguments` in order.
    ///
    /// - Throws: ``EngineError`` with code ``EngineError/Code/invalidPredicate`` whose
    ///   `location` is the 1-based column of the offending token, e.g. `column 14`, and whose
    ///   message says what was expected and what was found.
    public init(format: String, arguments: [Argument]) throws {
        let parser = try PredicateParser(format: format, arguments: arguments)
        self = try PredicateStack.run(depth: PredicateStack.parseDepth(of: parser.tokens)) {
            var parser = parser
            return try parser.parsePredicate()
        }
    }

    /// Parses a predicate in Core Data's format-string syntax; see ``init(format:arguments:)``.
    public init(format: String, _ arguments: Argument...) throws {
        try self.init(format: format, arguments: arguments)
    }
}
