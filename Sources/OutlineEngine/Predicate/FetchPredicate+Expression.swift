extension FetchPredicate {
    /// One side of a comparison: a value, a key path, or an expression computed from them.
    public indirect enum Expression: Hashable, Sendable {
        /// A literal value; `nil` is written `nil` or `NULL`.
        case constant(Value?)
        /// A literal list of values `{1, 2, 3}`, as the right-hand side of `IN` and `BETWEEN`.
        case list([Value?])
        /// A key path from the evaluated object, such as `parent.text`, `children.@count` or
        /// `children[FIRST].text`.
        case keyPath(KeyPath)
        /// `SELF`: the evaluated object itself.
        case evaluatedObject
        /// An object of the graph, substituted for `%@` or a variable (`parent == %@`).
        case object(ManagedObject)
        /// `$name`: a substitution variable (see ``FetchPredicate/substituting(_:)``), or the
        /// iteration variable inside a `SUBQUERY`.
        case variable(String)
        /// A list `{a, b}` whose elements are not all literal values (key paths, variables,
        /// objects, arithmetic). Lists of literal values are ``list(_:)``.
        case aggregate([Expression])
        /// A key path followed from the value of another expression: `$c.done`,
        /// `SUBQUERY(...).@count`, `SUBQUERY(...)[FIRST]`.
        case path(Expression, KeyPath)
        /// `SUBQUERY(collection, $variable, predicate)`: the objects of `collection` for which
        /// `predicate` holds with `$variable` standing for each of them.
        case subquery(Subquery)
        /// A function of the format-string grammar, such as `average(children.order)` or `now()`.
        case function(Function, [Expression])
        /// `left + right`, `left - right`, `left * right`, `left / right` or `left ** right`.
        case arithmetic(Expression, ArithmeticOperator, Expression)
        /// `-operand` for an operand that is not a number literal.
        case negated(Expression)
        /// `CAST(operand, "type")` of an operand that is not a constant (constants are cast when parsed).
        case cast(Expression, String)
        /// `TERNARY(condition, whenTrue, whenFalse)`.
        case conditional(FetchPredicate, Expression, Expression)

        /// The key path expression for `text` (`"parent.text"`, `"children.@count"`), unchecked.
        ///
        /// Use ``KeyPath/init(parsing:)`` to check the syntax of text that comes from a user.
        public static func key(_ text: String) -> Expression {
            .keyPath(KeyPath(text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// The parts of a `SUBQUERY(collection, $variable, predicate)` expression.
    public struct Subquery: Hashable, Sendable {
        /// The objects iterated, usually a to-many key path such as `children`.
        public var collection: Expression
        /// The name of the iteration variable, without `$`.
        public var variable: String
        /// The condition each object must satisfy; `$variable` stands for the object, while
        /// `SELF` and key paths without `$` still refer to the object the predicate evaluates,
        /// as in Foundation.
        public var predicate: FetchPredicate

        /// Makes a subquery.
        public init(collection: Expression, variable: String, predicate: FetchPredicate) {
            self.collection = collection
            self.variable = variable
            self.predicate = predicate
        }
    }

    /// An arithmetic operator of the format-string grammar, with its spelling as raw value.
    public enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
        /// `+`: numbers, or a date and a number of seconds.
        case add = "+"
        /// `-`: numbers, a date minus seconds, or the seconds between two dates.
        case subtract = "-"
        /// `*`.
        case multiply = "*"
        /// `/`: integer division when both sides are integers.
        case divide = "/"
        /// `**`: raise to a power (a double).
        case power = "**"
    }

    /// The functions of the format-string grammar (`sum(...)`, `now()`, ...), with their
    /// spelling as raw value.
    public enum Function: String, Hashable, Sendable, CaseIterable {
        /// The sum of a collection of numbers (0 when empty).
        case sum
        /// The number of elements of a collection.
        case count
        /// The smallest element of a collection (`nil` when empty).
        case min
        /// The largest element of a collection (`nil` when empty).
        case max
        /// The mean of a collection of numbers, a double (`nil` when empty).
        case average
        /// The middle element of the sorted collection, or the mean of the two middle ones.
        case median
        /// The most frequent elements of a collection (several values when tied).
        case mode
        /// The population standard deviation of a collection of numbers.
        case stddev
        /// The square root of a number.
        case sqrt
        /// The base-10 logarithm of a number.
        case log
        /// The natural logarithm of a number.
        case ln
        /// e raised to a number.
        case exp
        /// The largest whole number not greater than a number (a double).
        case floor
        /// The smallest whole number not less than a number (a double).
        case ceiling
        /// The absolute value of a number.
        case abs
        /// A number without its fractional part (a double).
        case trunc
        /// A random double in 0..<1.
        case random
        /// A random integer in 0..<n.
        case randomn
        /// The current date and time.
        case now

        /// How many arguments the function takes.
        public var argumentCount: Int {
            switch self {
            case .random, .now: 0
            default: 1
            }
        }

        /// Whether the argument is a collection (a list or a to-many key path) rather than one number.
        public var takesCollection: Bool {
            switch self {
            case .sum, .count, .min, .max, .average, .median, .mode, .stddev: true
            default: false
            }
        }
    }

    /// A dotted path of property names from the evaluated object, optionally with a collection
    /// operator or index operators: `parent.text`, `tags.name`, `children.@count`,
    /// `children.@sum.order`, `children[FIRST].text`, `children[SIZE]`.
    ///
    /// Components are property names, matched exactly; a ``CollectionOperator`` spelling
    /// (`@count`, `@sum`, ...); or an index operator spelled `[FIRST]`, `[LAST]`, `[SIZE]` or
    /// `[n]` (a non-negative integer), which applies to the to-many relationship before it.
    /// `@count` and `[SIZE]` end a path; `@sum`, `@avg`, `@min`, `@max` and the
    /// `@unionOf...` operators are followed by the key of the values they collect.
    public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
        /// The components, such as `["children", "@sum", "order"]` or `["children", "[FIRST]", "text"]`.
        public var components: [String]
        /// The 1-based column of each component in the parsed text; empty when built in code.
        var columns: [Int]

        /// Makes a key path from its components, unchecked (binding checks them).
        public init(_ components: [String]) {
            self.components = components
            self.columns = []
        }

        init(_ components: [String], columns: [Int]) {
            self.components = components
            self.columns = columns
        }

        /// Parses a dotted key path such as `parent.text`, `children.@count` or `children[LAST].text`.
        ///
        /// Reserved words may be used as keys when prefixed with `#` (`#order` is not needed,
        /// but `#in` is).
        /// - Throws: ``EngineError`` (`invalidPredicate`) with the column of the bad component.
        public init(parsing text: String) throws {
            var parser = try PredicateParser(format: text, arguments: [])
            self = try parser.parseStandaloneKeyPath()
        }

        /// The 1-based column of component `index` in the parsed text, if known.
        func column(of index: Int) -> Int? {
            index < columns.count ? columns[index] : nil
        }

        /// Key paths are equal when their components are; where they were parsed does not matter.
        public static func == (lhs: KeyPath, rhs: KeyPath) -> Bool { lhs.components == rhs.components }
        /// Hashes the components.
        public func hash(into hasher: inout Hasher) { hasher.combine(components) }

        /// The dotted spelling, with `#` before components that are reserved words and index
        /// operators attached without a dot (`children[FIRST].text`).
        public var description: String {
            var text = ""
            for (i, component) in components.enumerated() {
                if i > 0 && IndexOperator(component: component) == nil { text += "." }
                text += PredicateFormatter.keyComponent(component)
            }
            return text
        }
    }

    /// An index operator of a key path: `[FIRST]`, `[LAST]`, `[SIZE]` or `[n]`.
    enum IndexOperator: Hashable, Sendable {
        case first, last, size
        case at(Int)

        /// The operator a key path component spells, if it is one (`"[FIRST]"`, `"[2]"`).
        init?(component: String) {
            guard component.hasPrefix("["), component.hasSuffix("]"), component.count >= 3 else { return nil }
            let inner = component.dropFirst().dropLast()
            switch inner.uppercased() {
            case "FIRST": self = .first
            case "LAST": self = .last
            case "SIZE": self = .size
            default:
                guard inner.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(inner) else { return nil }
                self = .at(n)
            }
        }

        /// The canonical component spelling.
        var component: String {
            switch self {
            case .first: "[FIRST]"
            case .last: "[LAST]"
            case .size: "[SIZE]"
            case .at(let n): "[\(n)]"
            }
        }
    }

    /// A collection operator in a key path: it turns the values of a to-many key path into one
    /// value (`@count`, `@sum`, `@avg`, `@min`, `@max`) or into the collected values of a key
    /// (the `@unionOf...` operators).
    public enum CollectionOperator: String, Hashable, Sendable, CaseIterable {
        /// The number of objects.
        case count = "@count"
        /// The sum of the numbers (0 when there are none).
        case sum = "@sum"
        /// The mean of the numbers (`nil` when there are none).
        case average = "@avg"
        /// The smallest value (`nil` when there are none).
        case minimum = "@min"
        /// The largest value (`nil` when there are none).
        case maximum = "@max"
        /// The values of the key after it, once each.
        case distinctUnionOfObjects = "@distinctUnionOfObjects"
        /// The values of the key after it, repeated values kept.
        case unionOfObjects = "@unionOfObjects"
        /// The values of the key after it, followed through to-many relationships, once each.
        case distinctUnionOfArrays = "@distinctUnionOfArrays"
        /// The values of the key after it, followed through to-many relationships.
        case unionOfArrays = "@unionOfArrays"
        /// The values of the key after it, followed through to-many relationships, once each.
        case distinctUnionOfSets = "@distinctUnionOfSets"
        /// The values of the key after it, followed through to-many relationships (a set: once each).
        case unionOfSets = "@unionOfSets"

        /// Whether the operator needs a key after it (`@sum.order`); `@count` does not.
        public var takesKey: Bool { self != .count }

        /// Whether the operator yields several values (the `@unionOf...` operators).
        public var isUnion: Bool {
            switch self {
            case .count, .sum, .average, .minimum, .maximum: false
            default: true
            }
        }

        /// Whether a union operator keeps each value once.
        var isDistinct: Bool {
            switch self {
            case .distinctUnionOfObjects, .distinctUnionOfArrays, .distinctUnionOfSets, .unionOfSets: true
            default: false
            }
        }

        /// The operator spelled `text` in any case (`@COUNT`, `@distinctunionofobjects`).
        init?(spelling text: String) {
            guard let op = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else { return nil }
            self = op
        }
    }
}
