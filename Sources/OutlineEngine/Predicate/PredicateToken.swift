/// One token of a predicate format string, with where it was.
struct PredicateToken: Sendable {
    enum Kind: Equatable, Sendable {
        /// A bare word: a key, or a keyword such as `AND`, `ANY`, `YES`, `nil` (any case).
        case word(String)
        /// A word written with a leading `#` (`#in`): always a key, never a keyword.
        case escapedWord(String)
        /// `@count`, `@sum`, ...: the text including `@`.
        case collectionOperator(String)
        /// A quoted string with its escapes resolved.
        case string(String)
        /// A number literal without its sign: decimal, `0x`, `0o` or `0b` integers, decimals
        /// and exponents (a leading `-` is a separate symbol).
        case number(Value)
        /// A format placeholder: `@`, `K`, `d`, `f` or `s` (the conversion after `%` and any
        /// length modifiers, with `i`, `u`, `x`, `o` read as `d` and `e`, `g` as `f`).
        case placeholder(Character)
        /// `$name`: a substitution variable, or the variable of a `SUBQUERY`.
        case variable(String)
        /// Punctuation or an operator symbol in canonical spelling: `(`, `)`, `{`, `}`, `[`, `]`,
        /// `,`, `.`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, `+`, `-`, `*`, `/`,
        /// `**`, `:=`.
        case symbol(String)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// The 1-based column (in characters) where the token starts.
    var column: Int
    /// The token as written, for messages.
    var text: String

    /// Whether this is the word `keyword`, in any case.
    func isKeyword(_ keyword: String) -> Bool {
        if case .word(let w) = kind { return w.uppercased() == keyword }
        return false
    }

    /// Whether this is the symbol `symbol` (canonical spelling).
    func isSymbol(_ symbol: String) -> Bool {
        if case .symbol(let s) = kind { return s == symbol }
        return false
    }

    var isEnd: Bool { kind == .end }

    /// How messages show the token: `"AND"`; a string token shows with its own quotes.
    var quoted: String { PredicateErrors.quote(text) }
}

/// Words with a meaning in the syntax, upper-cased. A key with one of these names is written
/// with a leading `#` (`#in`).
enum PredicateKeywords {
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "LIKE", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE", "YES", "NO",
        "TRUE", "FALSE", "NIL", "NULL", "SELF", "CAST", "SUBQUERY", "FUNCTION", "FIRST", "LAST", "SIZE",
        "ANYKEY", "FETCH",
    ]

    /// Operator words and their operators.
    static let operatorWords: [String: FetchPredicate.Operator] = [
        "CONTAINS": .contains, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith,
        "LIKE": .like, "MATCHES": .matches, "IN": .in, "BETWEEN": .between,
    ]

    /// Operator words in a fixed order, for suggestions.
    static let operatorWordList = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "IN", "BETWEEN"]

    /// Operator symbols (canonical spelling) and their operators.
    static let operatorSymbols: [String: FetchPredicate.Operator] = [
        "==": .equalTo, "!=": .notEqualTo, "<": .lessThan, "<=": .lessThanOrEqualTo,
        ">": .greaterThan, ">=": .greaterThanOrEqualTo,
    ]

    static func isReserved(_ word: String) -> Bool { reserved.contains(word.uppercased()) }
}
