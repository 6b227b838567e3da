/// Expressions, loosest binding first:
///
///     expression     := additive
///     additive       := multiplicative (("+" | "-") multiplicative)*
///     multiplicative := power (("*" | "/") power)*
///     power          := unary ["**" power]
///     unary          := "-" unary | postfix
///     postfix        := atom ("." key | "[" index "]")*
///     atom           := literal | placeholder | "$" name | SELF | key | "(" expression ")"
///                     | "{" [expression ("," expression)*] "}" | CAST(...) | SUBQUERY(...)
///                     | TERNARY(...) | function "(" arguments ")"
///     index          := FIRST | LAST | SIZE | integer | placeholder | "$" name
///
/// A minus sign binds tighter than `**` (`-2 ** 2` is 4), and a minus before a number
/// literal makes a negative literal.
extension PredicateParser {
    /// Whether `token` can begin an expression.
    func startsExpression(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .string, .number, .placeholder, .escapedWord, .variable: return true
        case .symbol(let s): return s == "{" || s == "(" || s == "-"
        case .word(let w):
            return !PredicateKeywords.isReserved(w) || Self.valueWords.contains(w.uppercased())
        case .collectionOperator, .end: return false
        }
    }

    /// Reserved words that begin an expression (or a specific error about one).
    static let valueWords: Set<String> = [
        "YES", "NO", "TRUE", "FALSE", "NIL", "NULL", "SELF", "CAST", "SUBQUERY", "FUNCTION",
        "FETCH", "ANYKEY", "FIRST", "LAST", "SIZE",
    ]

    /// Whether `token` can begin an expression with several values (after `ANY`, `ALL`, `NONE`).
    func startsCollection(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .escapedWord, .variable: return true
        case .placeholder(let c): return c == "K" || c == "@"
        case .symbol(let s): return s == "(" || s == "{"
        case .word(let w): return !PredicateKeywords.isReserved(w) || ["SELF", "SUBQUERY", "FUNCTION", "FETCH"].contains(w.uppercased())
        default: return false
        }
    }

    /// Whether `token` can begin a key path (a bare `SELF` excepted).
    func startsKeyPath(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .escapedWord: return true
        case .placeholder(let c): return c == "K"
        case .word(let w): return !PredicateKeywords.isReserved(w) || w.uppercased() == "SELF"
        default: return false
        }
    }

    /// Parses one expression; the caller has checked ``startsExpression(_:)``.
    mutating func parseExpression() throws -> FetchPredicate.Expression {
        try parseChain(operators: ["+": .add, "-": .subtract]) {
            try $0.parseChain(operators: ["*": .multiply, "/": .divide]) { try $0.parsePower() }
        }
    }

    /// `operand (op operand)*`, left-associative; each operator counts as one level of nesting.
    private mutating func parseChain(
        operators: [String: FetchPredicate.ArithmeticOperator],
        operand: (inout PredicateParser) throws -> FetchPredicate.Expression
    ) throws -> FetchPredicate.Expression {
        var left = try operand(&self)
        let depthBefore = expressionDepth
        defer { expressionDepth = depthBefore }
        while case .symbol(let s) = current.kind, let op = operators[s] {
            try enterExpression(at: advance())
            try expectOperand(after: s)
            left = .arithmetic(left, op, try operand(&self))
        }
        return left
    }

    private mutating func parsePower() throws -> FetchPredicate.Expression {
        let base = try parseUnary()
        guard current.isSymbol("**") else { return base }
        try enterExpression(at: advance())
        defer { expressionDepth -= 1 }
        try expectOperand(after: "**")
        return .arithmetic(base, .power, try parsePower())
    }

    private mutating func expectOperand(after text: String) throws {
        guard startsExpression(current) else {
            throw PredicateErrors.expected(
                "a value", after: text, found: current,
                hint: "Put a number, a key path or a parenthesized expression after \(text).")
        }
    }

    private mutating func parseUnary() throws -> FetchPredicate.Expression {
        guard current.isSymbol("-") else { return try parsePostfix() }
        let minus = advance()
        if case .number(let value) = current.kind {
            let number = advance()
            return .constant(Self.negated(value, text: number.text))
        }
        try enterExpression(at: minus)
        defer { expressionDepth -= 1 }
        try expectOperand(after: "-")
        let operand = try parseUnary()
        if case .constant(let value) = operand {
            guard let value, value.doubleValue != nil, value.booleanValue == nil || Self.isInteger(value) else {
                throw PredicateErrors.error(
                    column: minus.column, "a minus sign needs a number, but found \(value?.displayString ?? "nil")",
                    hint: "Write negative numbers as -5; subtract with a - b.")
            }
            return .constant(Self.negated(value, text: nil))
        }
        return .negated(operand)
    }

    private static func isInteger(_ value: Value) -> Bool {
        if case .integer = value { return true }
        return false
    }

    /// `-value`, exactly: `-9223372036854775808` is an integer; other overflows become doubles.
    static func negated(_ value: Value, text: String?) -> Value {
        switch value {
        case .integer(let i):
            let (negated, overflow) = Int64(0).subtractingReportingOverflow(i)
            return overflow ? .double(-Double(i)) : .integer(negated)
        case .double(let d):
            if let text, d == 9_223_372_036_854_775_808, text.allSatisfy(\.isNumber), let exact = Int64("-" + text) { return .integer(exact) }
            return .double(-d)
        case .decimal(let d): return .decimal(-d)
        case .boolean(let b): return .integer(b ? -1 : 0)
        default: return value
        }
    }

    /// An atom and the key path components, index operators and collection operators after it.
    private mutating func parsePostfix() throws -> FetchPredicate.Expression {
        let (atom, mergeable) = try parseAtom()
        guard current.isSymbol(".") || current.isSymbol("[") else { return atom }
        var keyPath = FetchPredicate.KeyPath([], columns: [])
        if mergeable, case .keyPath(let start) = atom { keyPath = start }
        let base: FetchPredicate.Expression? = mergeable ? nil : atom
        if mergeable, case .evaluatedObject = atom, current.isSymbol("[") {
            throw PredicateErrors.error(
                column: current.column, "an index needs a to-many key path or a collection before it, not SELF",
                hint: "Index a to-many relationship, as in children[FIRST].")
        }
        while true {
            if current.isSymbol(".") {
                advance()
                try parseKeyComponent(into: &keyPath)
            } else if current.isSymbol("[") {
                try parseIndex(into: &keyPath)
            } else {
                break
            }
        }
        let validated = try Self.validateKeyPath(keyPath, hasBase: base != nil)
        return base.map { .path($0, validated) } ?? .keyPath(validated)
    }

    /// The atom, and whether key path components after it extend a key path from SELF.
    private mutating func parseAtom() throws -> (FetchPredicate.Expression, Bool) {
        let token = current
        switch token.kind {
        case .string(let s):
            advance()
            return (.constant(.string(s)), false)
        case .number(let v):
            advance()
            return (.constant(v), false)
        case .placeholder(let conversion):
            advance()
            let expression = try substitute(conversion, at: token)
            if case .keyPath = expression { return (expression, true) }
            return (expression, false)
        case .variable(let name):
            advance()
            return (.variable(name), false)
        case .escapedWord:
            return (.keyPath(try parseKeyPathStart()), true)
        case .symbol("{"):
            return (try parseList(), false)
        case .symbol("("):
            let open = advance()
            try enterExpression(at: open)
            defer { expressionDepth -= 1 }
            guard startsExpression(current) else {
                throw PredicateErrors.expected(
                    "a value", after: "(", found: current, hint: "Put an expression inside the parentheses, as in (order + 1) * 2.")
            }
            let inner = try parseExpression()
            guard current.isSymbol(")") else {
                throw PredicateErrors.expected(
                    "\")\" to close the \"(\" at column \(open.column)", after: nil, found: current,
                    hint: "Close every \"(\" with a \")\".")
            }
            advance()
            return (inner, false)
        case .word(let w):
            return try parseWordAtom(w, token: token)
        default:
            throw PredicateErrors.expected(
                "a value", after: previousText, found: token,
                hint: "Write a value (\"text\", 42, YES, nil), a key path or a list.")
        }
    }

    private mutating func parseWordAtom(_ w: String, token: PredicateToken) throws -> (FetchPredicate.Expression, Bool) {
        let upper = w.uppercased()
        let call = tokens[position + 1].isSymbol("(")
        switch upper {
        case "YES", "TRUE":
            advance()
            return (.constant(.boolean(true)), false)
        case "NO", "FALSE":
            advance()
            return (.constant(.boolean(false)), false)
        case "NIL", "NULL":
            advance()
            return (.constant(nil), false)
        case "SELF":
            advance()
            return (.evaluatedObject, true)
        case "CAST": return (try parseCast(), false)
        case "SUBQUERY": return (try parseSubquery(), false)
        case "TERNARY" where call: return (try parseTernary(), false)
        case "FUNCTION":
            throw PredicateErrors.error(
                column: token.column, "FUNCTION(...) is not supported",
                hint: "It calls methods by name, which this engine does not do; use the functions " + Self.functionList
                    + ", key paths and arithmetic instead.")
        case "FETCH":
            throw PredicateErrors.error(
                column: token.column, "FETCH(...) is not supported",
                hint: "It runs a fetch request inside a predicate; use SUBQUERY over a relationship instead.")
        case "ANYKEY":
            throw PredicateErrors.error(
                column: token.column, "ANYKEY is not supported",
                hint: "It is a Spotlight search term; name the key to compare, as in text CONTAINS \"milk\".")
        case "FIRST", "LAST", "SIZE":
            throw PredicateErrors.error(
                column: token.column, "\(upper) is only meaningful inside brackets after a to-many key path",
                hint: "Write children[\(upper)]; write #\(w) for a key called \(w).")
        default:
            break
        }
        if call {
            if let function = FetchPredicate.Function.allCases.first(where: { $0.rawValue == w.lowercased() }) {
                return (try parseFunction(function), false)
            }
            let known = FetchPredicate.Function.allCases.map(\.rawValue) + ["SUBQUERY", "CAST", "TERNARY"]
            let hint = PredicateErrors.suggestion(for: w, among: known, quoted: false).map { $0 + " " } ?? ""
            throw PredicateErrors.error(
                column: token.column, "unknown function \"\(w)\"",
                hint: hint + "The functions are " + Self.functionList + "; CAST, SUBQUERY and TERNARY also take arguments.")
        }
        guard !PredicateKeywords.isReserved(w) else {
            throw PredicateErrors.expected(
                "a value", after: previousText, found: token,
                hint: "Write a value (\"text\", 42, YES, nil), a key path or a list; write #\(w) for a key called \(w).")
        }
        return (.keyPath(try parseKeyPathStart()), true)
    }

    static let functionList = FetchPredicate.Function.allCases.map { $0.rawValue + "()" }.joined(separator: ", ")
}
