import Foundation

/// Lists, placeholders and the parenthesized forms: `CAST`, `SUBQUERY`, `TERNARY` and functions.
extension PredicateParser {
    /// `{expression, expression, ...}`: a ``FetchPredicate/Expression/list(_:)`` when every
    /// element is a literal value, else an ``FetchPredicate/Expression/aggregate(_:)``;
    /// `%@` lists are flattened into it.
    mutating func parseList() throws -> FetchPredicate.Expression {
        let open = advance()
        try enterExpression(at: open)
        defer { expressionDepth -= 1 }
        var elements: [FetchPredicate.Expression] = []
        if current.isSymbol("}") {
            advance()
            return .list([])
        }
        while true {
            let token = current
            if token.isSymbol("{") {
                throw PredicateErrors.error(
                    column: token.column, "lists cannot be nested",
                    hint: "Write the values of one list, as in {1, 2, 3}.")
            }
            guard startsExpression(token) else {
                throw PredicateErrors.expected("a value in the list", after: previousText, found: token, hint: Self.listHint)
            }
            switch try parseExpression() {
            case .list(let values): elements += values.map(FetchPredicate.Expression.constant)
            case .aggregate(let inner): elements += inner
            case let element: elements.append(element)
            }
            if current.isSymbol(",") {
                advance()
                continue
            }
            if current.isSymbol("}") {
                advance()
                return .makeList(elements)
            }
            throw PredicateErrors.expected(
                "\",\" or \"}\" in the list starting at column \(open.column)", after: nil, found: current,
                hint: Self.listHint)
        }
    }

    /// The value of the next argument for placeholder `conversion` (`@`, `K`, `d`, `f` or `s`).
    mutating func substitute(_ conversion: Character, at token: PredicateToken) throws -> FetchPredicate.Expression {
        guard argumentIndex < arguments.count else {
            let given = arguments.count == 1 ? "1 argument was" : "\(arguments.count) arguments were"
            throw PredicateErrors.error(
                column: token.column, "\(token.quoted) has no argument: only \(given) given",
                hint: "Pass one argument per placeholder (%@, %K, %d, %f), in order.")
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let number = argumentIndex
        func mismatch(_ needs: String) -> EngineError {
            PredicateErrors.error(
                column: token.column, "\(token.quoted) needs \(needs), but argument \(number) is \(argument.shown)",
                hint: "Pass arguments in the order of the placeholders.")
        }
        switch (conversion, argument) {
        case ("@", _): return argument.expression
        case ("K", .value(.string(let text)?)):
            let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let keyPath = FetchPredicate.KeyPath(components, columns: Array(repeating: token.column, count: components.count))
            return .keyPath(try Self.validateKeyPath(keyPath))
        case ("K", _): throw mismatch("a key path string")
        case ("d", .value(let v?)) where v.integerValue != nil:
            return .constant(.integer(v.integerValue ?? 0))
        case ("d", _): throw mismatch("an integer")
        case ("s", .value(.string(let s)?)): return .constant(.string(s))
        case ("s", _): throw mismatch("a string")
        case ("f", .value(let v?)) where v.doubleValue != nil:
            if case .boolean = v { return .constant(.double(v.doubleValue ?? 0)) }
            return .constant(v)
        default: throw mismatch("a number")
        }
    }

    /// `CAST(value, "type")`: folded now when the value is a constant, else converted when evaluated.
    mutating func parseCast() throws -> FetchPredicate.Expression {
        advance()
        guard current.isSymbol("(") else { throw PredicateErrors.expected("\"(\"", after: "CAST", found: current, hint: Self.castHint) }
        // The value may itself be a CAST: count it as nesting, so deep input fails instead of overflowing the stack.
        try enterExpression(at: advance())
        defer { expressionDepth -= 1 }
        let valueToken = current
        guard startsExpression(valueToken) else {
            throw PredicateErrors.expected(
                "a value to convert", after: "CAST(", found: valueToken,
                hint: "Write CAST(721692800, \"NSDate\") for a date.")
        }
        let operand = try parseExpression()
        guard current.isSymbol(",") else { throw PredicateErrors.expected("\",\"", after: previousText, found: current, hint: Self.castHint) }
        advance()
        let typeToken = current
        guard case .string(let typeName) = typeToken.kind else {
            throw PredicateErrors.expected("a type name such as \"NSDate\"", after: ",", found: typeToken, hint: Self.castHint)
        }
        advance()
        guard current.isSymbol(")") else {
            throw PredicateErrors.expected("\")\" to close CAST", after: previousText, found: current, hint: Self.castHint)
        }
        advance()
        guard PredicateCasts.types.contains(typeName) else {
            throw PredicateErrors.error(column: typeToken.column, "unknown CAST type \"\(typeName)\"", hint: PredicateCasts.typesHint)
        }
        switch operand {
        case .constant(let value):
            guard let result = PredicateCasts.cast(value, to: typeName) else {
                throw PredicateErrors.error(
                    column: valueToken.column, "cannot CAST \(valueToken.text) to \(typeName)",
                    hint: PredicateCasts.hints[typeName] ?? Self.castHint)
            }
            return .constant(result)
        case .list, .aggregate:
            throw PredicateErrors.error(column: valueToken.column, "cannot CAST a list", hint: Self.castHint)
        default:
            return .cast(operand, typeName)
        }
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    mutating func parseSubquery() throws -> FetchPredicate.Expression {
        advance()
        guard current.isSymbol("(") else { throw PredicateErrors.expected("\"(\"", after: "SUBQUERY", found: current, hint: Self.subqueryHint) }
        try enterExpression(at: advance(), weight: Self.predicateWeight)
        defer { expressionDepth -= Self.predicateWeight }
        guard startsExpression(current) else {
            throw PredicateErrors.expected("a to-many key path", after: "SUBQUERY(", found: current, hint: Self.subqueryHint)
        }
        let collection = try parseExpression()
        guard current.isSymbol(",") else { throw PredicateErrors.expected("\",\"", after: previousText, found: current, hint: Self.subqueryHint) }
        advance()
        guard case .variable(let variable) = current.kind else {
            throw PredicateErrors.expected("a variable such as $x", after: ",", found: current, hint: Self.subqueryHint)
        }
        advance()
        guard current.isSymbol(",") else { throw PredicateErrors.expected("\",\"", after: previousText, found: current, hint: Self.subqueryHint) }
        advance()
        guard !current.isEnd, !current.isSymbol(")") else {
            throw PredicateErrors.expected("a predicate", after: ",", found: current, hint: Self.subqueryHint)
        }
        let predicate = try parseOr()
        guard current.isSymbol(")") else {
            throw PredicateErrors.expected("\")\" to close SUBQUERY", after: previousText, found: current, hint: Self.subqueryHint)
        }
        advance()
        return .subquery(.init(collection: collection, variable: variable, predicate: predicate))
    }

    /// `TERNARY(predicate, whenTrue, whenFalse)`.
    mutating func parseTernary() throws -> FetchPredicate.Expression {
        advance()
        try enterExpression(at: advance(), weight: Self.predicateWeight)
        defer { expressionDepth -= Self.predicateWeight }
        guard !current.isEnd, !current.isSymbol(")") else {
            throw PredicateErrors.expected("a predicate", after: "TERNARY(", found: current, hint: Self.ternaryHint)
        }
        let condition = try parseOr()
        var branches: [FetchPredicate.Expression] = []
        for _ in 0 ..< 2 {
            guard current.isSymbol(",") else { throw PredicateErrors.expected("\",\"", after: previousText, found: current, hint: Self.ternaryHint) }
            advance()
            guard startsExpression(current) else { throw PredicateErrors.expected("a value", after: ",", found: current, hint: Self.ternaryHint) }
            branches.append(try parseExpression())
        }
        guard current.isSymbol(")") else {
            throw PredicateErrors.expected("\")\" to close TERNARY", after: previousText, found: current, hint: Self.ternaryHint)
        }
        advance()
        return .conditional(condition, branches[0], branches[1])
    }

    /// `name(argument, ...)` for a function of the grammar.
    mutating func parseFunction(_ function: FetchPredicate.Function) throws -> FetchPredicate.Expression {
        let nameToken = advance()
        try enterExpression(at: advance())
        defer { expressionDepth -= 1 }
        var arguments: [FetchPredicate.Expression] = []
        if !current.isSymbol(")") {
            while true {
                guard startsExpression(current) else {
                    throw PredicateErrors.expected("an argument", after: previousText, found: current, hint: Self.functionHint(function))
                }
                arguments.append(try parseExpression())
                if current.isSymbol(",") {
                    advance()
                    continue
                }
                break
            }
        }
        guard current.isSymbol(")") else {
            throw PredicateErrors.expected(
                "\")\" to close \(function.rawValue)(", after: previousText, found: current, hint: Self.functionHint(function))
        }
        advance()
        guard arguments.count == function.argumentCount else {
            let takes =
                function.argumentCount == 0 ? "no arguments" : function.argumentCount == 1 ? "1 argument" : "\(function.argumentCount) arguments"
            throw PredicateErrors.error(
                column: nameToken.column, "\(function.rawValue)() takes \(takes) but was given \(arguments.count)",
                hint: Self.functionHint(function))
        }
        return .function(function, arguments)
    }

    static func functionHint(_ function: FetchPredicate.Function) -> String {
        switch function.argumentCount {
        case 0: "Write \(function.rawValue)() with nothing between the parentheses."
        default:
            function.takesCollection
                ? "Pass one collection, as in \(function.rawValue)(children.order) or \(function.rawValue)({1, 2, 3})."
                : "Pass one number, as in \(function.rawValue)(order)."
        }
    }

    /// How many levels of expression nesting a SUBQUERY or TERNARY counts for.
    static let predicateWeight = 4

    static let listHint = "Separate the values of a list with commas and close it with }, as in {1, 2}."
    static let castHint = "Write CAST(value, \"type\"), as in CAST(721692800, \"NSDate\")."
    static let subqueryHint = "Write SUBQUERY(collection, $variable, predicate), as in SUBQUERY(children, $c, $c.done == NO).@count > 0."
    static let ternaryHint = "Write TERNARY(predicate, value if true, value if false), as in TERNARY(done == YES, 1, 0)."
}

extension FetchPredicate.Expression {
    /// A list literal of `elements`: ``list(_:)`` when all are constants, else ``aggregate(_:)``.
    static func makeList(_ elements: [FetchPredicate.Expression]) -> FetchPredicate.Expression {
        var values: [Value?] = []
        for element in elements {
            guard case .constant(let v) = element else { return .aggregate(elements) }
            values.append(v)
        }
        return .list(values)
    }

    /// Whether this is a list literal (of values or of other expressions).
    var isListLiteral: Bool { listCount != nil }

    /// The number of elements of a list literal; `nil` for other expressions.
    var listCount: Int? {
        switch self {
        case .list(let values): values.count
        case .aggregate(let elements): elements.count
        default: nil
        }
    }

    /// Whether this is a single constant (not a list).
    var isConstant: Bool {
        switch self {
        case .constant, .object: true
        default: false
        }
    }
}
