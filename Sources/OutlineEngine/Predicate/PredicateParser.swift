/// A recursive-descent parser for Core Data's predicate format strings.
///
/// Grammar, loosest binding first (keywords in any case):
///
///     predicate  := and (("OR" | "||") and)*
///     and        := unary (("AND" | "&&") unary)*
///     unary      := ("NOT" | "!") unary | primary
///     primary    := "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := [ANY | SOME | ALL | NONE] expression operator ["[" c|d|cd "]"] expression
///
/// Expressions are described in `PredicateParser+Expressions.swift`. A parenthesis at the
/// start of a condition opens a predicate unless what follows its closing parenthesis
/// continues an expression (an operator, `.`, `[`): `(order + 1) * 2 > 5`.
///
/// Nesting of parentheses and `NOT` is limited to ``FetchPredicate/maximumNestingDepth``;
/// nesting of expressions (`CAST`, `SUBQUERY`, function calls, lists, parentheses around
/// values, unary minus, and each operator of an arithmetic chain) to
/// ``FetchPredicate/maximumExpressionNestingDepth``.
struct PredicateParser {
    let lexer: PredicateLexer
    let tokens: [PredicateToken]
    var position = 0
    let arguments: [FetchPredicate.Argument]
    var argumentIndex = 0
    var depth = 0
    /// How deeply expressions nest (CAST, functions, SUBQUERY, parentheses, lists, unary
    /// minus and arithmetic operators), limited separately: each level costs more stack.
    var expressionDepth = 0
    /// For each `(` token, the index of its matching `)` token (-1 when unmatched or not a `(`).
    let matchingParenthesis: [Int]

    init(format: String, arguments: [FetchPredicate.Argument]) throws {
        var lexer = PredicateLexer(format)
        tokens = try lexer.tokenize()
        self.lexer = lexer
        self.arguments = arguments
        var matching = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (i, token) in tokens.enumerated() {
            if token.isSymbol("(") { open.append(i) } else if token.isSymbol(")"), let o = open.popLast() { matching[o] = i }
        }
        matchingParenthesis = matching
    }

    var current: PredicateToken { tokens[position] }

    /// The text of the token before the current one, for "after ..." in messages.
    var previousText: String? { position > 0 ? tokens[position - 1].text : nil }

    /// The column just past the previous token.
    var previousEnd: Int {
        guard position > 0 else { return 1 }
        let t = tokens[position - 1]
        return t.column + t.text.count
    }

    @discardableResult
    mutating func advance() -> PredicateToken {
        let token = tokens[position]
        if !token.isEnd { position += 1 }
        return token
    }

    /// Parses the whole text as a predicate.
    mutating func parsePredicate() throws -> FetchPredicate {
        if current.isEnd {
            throw PredicateErrors.error(
                column: 1, "expected a predicate but the text is empty",
                hint: "Write a comparison such as text == \"milk\", or TRUEPREDICATE.")
        }
        let predicate = try parseOr()
        guard current.isEnd else {
            if current.isSymbol(")") {
                throw PredicateErrors.error(
                    column: current.column, "found \")\" without a matching \"(\"",
                    hint: "Remove the \")\" or add the \"(\" it closes.")
            }
            var hint = "Join conditions with AND or OR."
            if case .word(let w) = current.kind, let s = PredicateErrors.suggestion(for: w, among: ["AND", "OR"], quoted: false) {
                hint = s + " " + hint
            }
            throw PredicateErrors.expected("AND, OR or the end of the predicate", after: previousText, found: current, hint: hint)
        }
        try checkAllArgumentsUsed()
        return predicate
    }

    mutating func parseOr() throws -> FetchPredicate {
        var operands = [try parseAnd()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws -> FetchPredicate {
        var operands = [try parseUnary()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            advance()
            operands.append(try parseUnary())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseUnary() throws -> FetchPredicate {
        guard current.isKeyword("NOT") || current.isSymbol("!") else { return try parsePrimary() }
        try enterNesting(at: advance())
        defer { depth -= 1 }
        return .not(try parseUnary())
    }

    private mutating func parsePrimary() throws -> FetchPredicate {
        let token = current
        if token.isSymbol("("), !parenthesisOpensExpression(at: position) {
            try enterNesting(at: advance())
            defer { depth -= 1 }
            let inner = try parseOr()
            guard current.isSymbol(")") else {
                throw PredicateErrors.expected(
                    "\")\" to close the \"(\" at column \(token.column)", after: nil, found: current,
                    hint: "Close every \"(\" with a \")\"; conditions are joined with AND or OR.")
            }
            advance()
            return inner
        }
        if token.isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if token.isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return .comparison(try parseComparison())
    }

    /// Counts one level of expression nesting (`weight` levels for SUBQUERY and TERNARY,
    /// which nest a whole predicate and take more stack).
    mutating func enterExpression(at token: PredicateToken, weight: Int = 1) throws {
        expressionDepth += weight
        if expressionDepth > FetchPredicate.maximumExpressionNestingDepth {
            let limit = FetchPredicate.maximumExpressionNestingDepth
            throw PredicateErrors.error(
                column: token.column, "expressions nest more than \(limit) levels deep",
                hint:
                    "CAST, SUBQUERY, functions, lists, parentheses around values and arithmetic operators may nest at most \(limit) levels; simplify the predicate."
            )
        }
    }

    mutating func enterNesting(at token: PredicateToken) throws {
        depth += 1
        if depth > FetchPredicate.maximumNestingDepth {
            throw PredicateErrors.error(
                column: token.column, "the predicate nests more than \(FetchPredicate.maximumNestingDepth) levels deep",
                hint: "Parentheses and NOT may nest at most \(FetchPredicate.maximumNestingDepth) levels; simplify the predicate.")
        }
    }

    /// Whether the `(` at token `index` opens an expression rather than a predicate: what
    /// follows its `)` continues an expression or is a comparison operator.
    func parenthesisOpensExpression(at index: Int) -> Bool {
        let close = matchingParenthesis[index]
        guard close >= 0 else { return false }
        let next = tokens[close + 1]
        switch next.kind {
        case .symbol(let s):
            return ["+", "-", "*", "/", "**", ".", "["].contains(s) || PredicateKeywords.operatorSymbols[s] != nil
        case .word(let w):
            return PredicateKeywords.operatorWords[w.uppercased()] != nil
        default:
            return false
        }
    }

    private static let modifiers: [String: FetchPredicate.Modifier] = ["ANY": .any, "SOME": .any, "ALL": .all, "NONE": .none]

    private mutating func parseComparison() throws -> FetchPredicate.Comparison {
        var modifier = FetchPredicate.Modifier.direct
        if case .word(let w) = current.kind, let m = Self.modifiers[w.uppercased()] {
            let modifierToken = advance()
            modifier = m
            guard startsCollection(current) else {
                throw PredicateErrors.expected(
                    "a key path", after: modifierToken.text, found: current,
                    hint: "\(m.rawValue) applies to a to-many key path, as in \(m.rawValue) tags.name == \"work\".")
            }
        } else if !startsExpression(current) {
            throw PredicateErrors.expected(
                "a comparison", after: previousText, found: current,
                hint: "Write a comparison such as text == \"milk\".")
        }
        let leftColumn = current.column
        var left = try parseExpression()
        let leftText = lexer.text(from: leftColumn, to: previousEnd)
        let operatorToken = current
        var op = try parseOperator(after: leftText)
        let options = try parseOptions()
        let operatorText = lexer.text(from: operatorToken.column, to: previousEnd)
        guard startsExpression(current) else {
            throw PredicateErrors.expected(
                "a value", after: operatorText, found: current,
                hint: "Put a value, a key path or a list after the operator.")
        }
        var rightColumn = current.column
        var right = try parseExpression()
        let rightText = lexer.text(from: rightColumn, to: previousEnd)
        var columns = FetchPredicate.SourceColumns(left: leftColumn, operator: operatorToken.column, right: rightColumn)
        if left.isListLiteral {
            // `{1, 2} CONTAINS order` is `order IN {1, 2}`: CONTAINS tests membership in a collection.
            guard op == .contains, modifier == .direct, !right.isListLiteral else {
                throw PredicateErrors.error(
                    column: leftColumn, "a list can only be the right side of IN or BETWEEN, or the left side of CONTAINS",
                    hint: "Write the key path first, as in order IN {1, 2}.")
            }
            (left, right, op) = (right, left, .in)
            columns = .init(left: rightColumn, operator: operatorToken.column, right: leftColumn)
            rightColumn = leftColumn
        }
        switch (op, right.listCount) {
        case (.between, let count?) where count != 2:
            throw PredicateErrors.error(
                column: rightColumn, "BETWEEN needs a list of two values but the list has \(count)",
                hint: "Write the bounds as a list, as in order BETWEEN {1, 10}.")
        case (.between, nil) where right.isConstant:
            throw PredicateErrors.error(
                column: rightColumn, "BETWEEN needs a list of two values but found \"\(rightText)\"",
                hint: "Write the bounds as a list, as in order BETWEEN {1, 10}.")
        case (.between, _), (.in, _):
            break
        case (_, _?):
            throw PredicateErrors.error(
                column: rightColumn, "a list can only follow IN or BETWEEN, not \"\(operatorText)\"",
                hint: "Use IN to test membership, as in order IN {1, 2}.")
        default:
            break
        }
        return FetchPredicate.Comparison(modifier, left, op, right, options: options, source: columns)
    }

    private mutating func parseOperator(after leftText: String) throws -> FetchPredicate.Operator {
        let token = current
        if token.isKeyword("UTI"), tokens[position + 1].isSymbol("-") {
            throw PredicateErrors.error(
                column: token.column, "UTI-CONFORMS-TO and UTI-EQUALS are not supported",
                hint: "They compare uniform type identifiers, which outline documents do not have; compare strings with ==, BEGINSWITH or IN.")
        }
        switch token.kind {
        case .symbol(let s):
            if let op = PredicateKeywords.operatorSymbols[s] {
                advance()
                return op
            }
            if s == ":=" {
                throw PredicateErrors.error(
                    column: token.column, "assignments such as \"$x := value\" are not supported in predicates",
                    hint: "A predicate is a condition; give variables values by substitution instead.")
            }
        case .word(let w):
            if let op = PredicateKeywords.operatorWords[w.uppercased()] {
                advance()
                return op
            }
            if !PredicateKeywords.isReserved(w) {
                let hint = PredicateErrors.suggestion(for: w, among: PredicateKeywords.operatorWordList, quoted: false).map { $0 + " " } ?? ""
                throw PredicateErrors.error(column: token.column, "unknown operator \"\(w)\"", hint: hint + PredicateErrors.operatorHint)
            }
        default:
            break
        }
        var hint = PredicateErrors.operatorHint
        if token.isEnd || token.isKeyword("AND") || token.isKeyword("OR") || token.isSymbol(")") {
            hint = "A key path alone is not a condition; compare it, as in \(leftText) == YES."
        }
        throw PredicateErrors.expected("an operator", after: leftText, found: token, hint: hint)
    }

    /// `[c]`, `[d]`, `[cd]` after an operator, or nothing.
    private mutating func parseOptions() throws -> FetchPredicate.Options {
        guard current.isSymbol("[") else { return [] }
        advance()
        guard case .word(let letters) = current.kind else {
            throw PredicateErrors.expected("comparison options c, d or cd", after: "[", found: current, hint: PredicateErrors.optionsHint)
        }
        var options: FetchPredicate.Options = []
        for (offset, letter) in letters.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            default:
                throw PredicateErrors.error(
                    column: current.column + offset,
                    "unknown comparison option \"\(letter)\" in \"[\(letters)]\"",
                    hint: PredicateErrors.optionsHint)
            }
        }
        advance()
        guard current.isSymbol("]") else {
            throw PredicateErrors.expected("\"]\" to close the options", after: letters, found: current, hint: PredicateErrors.optionsHint)
        }
        advance()
        return options
    }

    private func checkAllArgumentsUsed() throws {
        guard argumentIndex < arguments.count else { return }
        let given = arguments.count == 1 ? "1 argument was" : "\(arguments.count) arguments were"
        let used = argumentIndex == 1 ? "1 placeholder" : "\(argumentIndex) placeholders"
        throw PredicateErrors.error(
            column: nil, "\(given) given but the format has only \(used)",
            hint: "Pass one argument per placeholder (%@, %K, %d, %f), in order.")
    }
}
