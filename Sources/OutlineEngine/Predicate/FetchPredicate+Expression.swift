extension FetchPredicate {
    /// One side of a comparison.
    public enum Expression: Hashable, Sendable {
        /// A literal value; `nil` is written `nil` or `NULL`.
        case constant(Value?)
        /// A literal list `{1, 2, 3}`, the right-hand side of `IN` and `BETWEEN`.
        case list([Value?])
        /// A key path from the evaluated object, such as `parent.text` or `children.@count`.
        case keyPath(KeyPath)
        /// `SELF`: the evaluated object itself.
        case evaluatedObject

        /// The key path expression for `text` (`"parent.text"`, `"children.@count"`), unchecked.
        ///
        /// Use ``KeyPath/init(parsing:)`` to check the syntax of text that comes from a user.
        public static func key(_ text: String) -> Expression {
            .keyPath(KeyPath(text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// A dotted path of property names from the evaluated object, optionally with a collection
    /// operator: `parent.text`, `tags.name`, `children.@count`, `children.@sum.order`.
    ///
    /// Components are property names, matched exactly, or a ``CollectionOperator`` spelling
    /// (`@count`, `@sum`, ...). `@count` ends a path; `@sum`, `@avg`, `@min` and `@max` are
    /// followed by the key of the value to aggregate.
    public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
        /// The components, such as `["children", "@sum", "order"]`.
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

        /// Parses a dotted key path such as `parent.text` or `children.@count`.
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

        /// The dotted spelling, with `#` before components that are reserved words.
        public var description: String {
            components.map { PredicateFormatter.keyComponent($0) }.joined(separator: ".")
        }
    }

    /// A collection operator in a key path: it turns the values of a to-many key path into one value.
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

        /// Whether the operator needs a key after it (`@sum.order`); `@count` does not.
        public var takesKey: Bool { self != .count }
    }
}
