import Foundation

extension PredicateParser {
    /// Whether `token` can begin an expression (a value, key path, list, placeholder, `SELF`, `CAST`).
    func startsExpression(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .string, .number, .placeholder, .escapedWord: return true
        case .symbol(let s): return s == "{"
        case .word(let w):
            let upper = w.uppercased()
            return !PredicateKeywords.isReserved(w) || ["YES", "NO", "TRUE", "FALSE", "NIL", "NULL", "SELF", "CAST", "SUBQUERY", "FUNCTION"].contains(upper)
        case .collectionOperator, .end: return false
        }
    }

    /// Whether `token` can begin a key path (after `ANY`, `ALL`, `NONE`).
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
        let token = current
        switch token.kind {
        case .string(let s):
            advance()
            return .constant(.string(s))
        case .number(let v):
            advance()
            return .constant(v)
        case .placeholder(let conversion):
            advance()
            return try substitute(conversion, at: token)
        case .escapedWord:
            return .keyPath(try parseKeyPath())
        case .symbol("{"):
            return try parseList()
        case .word(let w):
            switch w.uppercased() {
            case "YES", "TRUE": advance(); return .constant(.boolean(true))
            case "NO", "FALSE": advance(); return .constant(.boolean(false))
            case "NIL", "NULL": advance(); return .constant(nil)
            case "CAST": return try parseCast()
            case "SELF":
                advance()
                guard current.isSymbol(".") else { return .evaluatedObject }
                advance()
                return .keyPath(try parseKeyPath())
            default:
                if tokens[position + 1].isSymbol("(") {
                    throw PredicateErrors.error(column: token.column, "unknown function \"\(w)\"",
                                                hint: "Only CAST(value, \"type\") is supported; SUBQUERY and FUNCTION are not.")
                }
                if PredicateKeywords.isReserved(w) { break }
                return .keyPath(try parseKeyPath())
            }
        default:
            break
        }
        throw PredicateErrors.expected("a value", after: previousText, found: token,
                                       hint: "Write a value (\"text\", 42, YES, nil), a key path or a list.")
    }

    /// A key path starting at the current token, checked with ``validateKeyPath(_:)``.
    mutating func parseKeyPath() throws -> FetchPredicate.KeyPath {
        var components: [String] = []
        var columns: [Int] = []
        while true {
            let token = current
            switch token.kind {
            case .word(let name) where !components.isEmpty || !PredicateKeywords.isReserved(name):
                components.append(name)
            case .escapedWord(let name):
                components.append(name)
            case .collectionOperator(let name) where !components.isEmpty:
                components.append(name)
            default:
                throw PredicateErrors.expected("a key", after: components.isEmpty ? previousText : ".", found: token,
                                               hint: "Follow a dot with a property name, as in parent.text; write #name for a reserved word.")
            }
            columns.append(token.column)
            advance()
            guard current.isSymbol(".") else { break }
            advance()
        }
        let keyPath = FetchPredicate.KeyPath(components, columns: columns)
        return try Self.validateKeyPath(keyPath)
    }

    /// The whole text as one key path (for ``FetchPredicate/KeyPath/init(parsing:)``).
    mutating func parseStandaloneKeyPath() throws -> FetchPredicate.KeyPath {
        guard startsKeyPath(current), !current.isKeyword("SELF") else {
            throw PredicateErrors.expected("a key path", after: nil, found: current, hint: "Write property names separated by dots, as in parent.text.")
        }
        let keyPath = try parseKeyPath()
        guard current.isEnd else {
            throw PredicateErrors.expected("the end of the key path", after: previousText, found: current,
                                           hint: "Write property names separated by dots, as in parent.text.")
        }
        return keyPath
    }

    /// Checks where collection operators stand and spells them canonically (`@count`).
    static func validateKeyPath(_ keyPath: FetchPredicate.KeyPath) throws -> FetchPredicate.KeyPath {
        var result = keyPath
        var seenOperator: String?
        for (i, component) in keyPath.components.enumerated() {
            let column = keyPath.column(of: i)
            if component.isEmpty {
                throw PredicateErrors.error(column: column, "the key path \"\(keyPath.components.joined(separator: "."))\" has an empty key",
                                            hint: "Separate keys with single dots, as in parent.text.")
            }
            if let previous = seenOperator, previous == FetchPredicate.CollectionOperator.count.rawValue {
                throw PredicateErrors.error(column: column, "nothing can follow \"@count\" in a key path, but found \"\(component)\"",
                                            hint: "Count a to-many relationship, as in children.@count.")
            }
            guard component.hasPrefix("@") else { continue }
            guard let op = FetchPredicate.CollectionOperator(rawValue: component.lowercased()) else {
                let known = FetchPredicate.CollectionOperator.allCases.map(\.rawValue)
                let hint = PredicateErrors.suggestion(for: component, among: known, quoted: false).map { $0 + " " } ?? ""
                throw PredicateErrors.error(column: column, "unknown collection operator \"\(component)\"",
                                            hint: hint + PredicateErrors.collectionOperatorHint)
            }
            if i == 0 {
                throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" needs a to-many key path before it",
                                            hint: "Write it after a to-many relationship, as in children.\(op.rawValue)\(op.takesKey ? ".order" : "").")
            }
            if let previous = seenOperator {
                throw PredicateErrors.error(column: column, "a key path can have only one collection operator, but \"\(op.rawValue)\" follows \"\(previous)\"",
                                            hint: PredicateErrors.collectionOperatorHint)
            }
            if op.takesKey && i == keyPath.components.count - 1 {
                throw PredicateErrors.error(column: column, "\"\(op.rawValue)\" needs the key of the values to aggregate after it",
                                            hint: "Write the key after the operator, as in children.\(op.rawValue).order.")
            }
            seenOperator = op.rawValue
            result.components[i] = op.rawValue
        }
        if keyPath.components.isEmpty {
            throw PredicateErrors.error(column: nil, "the key path is empty", hint: "Name a property, as in text or parent.text.")
        }
        return result
    }

    /// `{value, value, ...}`; `%@` lists are flattened into it.
    private mutating func parseList() throws -> FetchPredicate.Expression {
        let open = advance()
        var values: [Value?] = []
        if current.isSymbol("}") { advance(); return .list(values) }
        while true {
            let token = current
            if token.isSymbol("{") {
                throw PredicateErrors.error(column: token.column, "lists cannot be nested",
                                            hint: "Write the values of one list, as in {1, 2, 3}.")
            }
            guard startsExpression(token) else {
                throw PredicateErrors.expected("a value in the list", after: previousText, found: token, hint: Self.listHint)
            }
            switch try parseExpression() {
            case .constant(let v): values.append(v)
            case .list(let vs): values += vs
            case .keyPath, .evaluatedObject:
                throw PredicateErrors.error(column: token.column, "a list can hold only literal values, not \"\(token.text)\"",
                                            hint: "Use IN with a to-many key path instead, as in \"work\" IN tags.name.")
            }
            if current.isSymbol(",") { advance(); continue }
            if current.isSymbol("}") { advance(); return .list(values) }
            throw PredicateErrors.expected("\",\" or \"}\" in the list starting at column \(open.column)", after: nil, found: current,
                                           hint: Self.listHint)
        }
    }

    /// The value of the next argument for placeholder `conversion` (`@`, `K`, `d` or `f`).
    private mutating func substitute(_ conversion: Character, at token: PredicateToken) throws -> FetchPredicate.Expression {
        guard argumentIndex < arguments.count else {
            let given = arguments.count == 1 ? "1 argument was" : "\(arguments.count) arguments were"
            throw PredicateErrors.error(column: token.column, "\(token.quoted) has no argument: only \(given) given",
                                        hint: "Pass one argument per placeholder (%@, %K, %d, %f), in order.")
        }
        let argument = arguments[argumentIndex]
        argumentIndex += 1
        let number = argumentIndex
        func mismatch(_ needs: String) -> EngineError {
            let shown: String
            switch argument {
            case .value(let v?): shown = v.displayString
            case .value(nil): shown = "nil"
            case .list: shown = "a list"
            }
            return PredicateErrors.error(column: token.column, "\(token.quoted) needs \(needs), but argument \(number) is \(shown)",
                                         hint: "Pass arguments in the order of the placeholders.")
        }
        switch (conversion, argument) {
        case ("@", .value(let v)): return .constant(v)
        case ("@", .list(let vs)): return .list(vs)
        case ("K", .value(.string(let text)?)):
            let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let keyPath = FetchPredicate.KeyPath(components, columns: Array(repeating: token.column, count: components.count))
            return .keyPath(try Self.validateKeyPath(keyPath))
        case ("K", _): throw mismatch("a key path string")
        case ("d", .value(let v?)) where v.integerValue != nil:
            return .constant(.integer(v.integerValue ?? 0))
        case ("d", _): throw mismatch("an integer")
        case ("f", .value(let v?)) where v.doubleValue != nil:
            if case .boolean = v { return .constant(.double(v.doubleValue ?? 0)) }
            return .constant(v)
        default: throw mismatch("a number")
        }
    }

    /// `CAST(value, "type")`.
    private mutating func parseCast() throws -> FetchPredicate.Expression {
        advance()
        guard current.isSymbol("(") else { throw PredicateErrors.expected("\"(\"", after: "CAST", found: current, hint: Self.castHint) }
        // The value may itself be a CAST: count it as nesting, so deep input fails instead of overflowing the stack.
        try enterNesting(at: advance())
        defer { depth -= 1 }
        let valueToken = current
        let value: Value?
        switch startsExpression(valueToken) ? try parseExpression() : nil {
        case .constant(let v): value = v
        default:
            throw PredicateErrors.expected("a number or string to convert", after: "CAST(", found: valueToken,
                                           hint: "Write CAST(721692800, \"NSDate\") for a date.")
        }
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
        return .constant(try Self.cast(value, to: typeName, valueToken: valueToken, typeToken: typeToken))
    }

    static let listHint = "Separate the values of a list with commas and close it with }, as in {1, 2}."
    static let castHint = "Write CAST(value, \"type\"), as in CAST(721692800, \"NSDate\")."

    static let castTypes = ["NSDate", "NSDecimalNumber", "NSNumber", "NSUUID", "NSData"]

    private static func cast(_ value: Value?, to typeName: String, valueToken: PredicateToken,
                             typeToken: PredicateToken) throws -> Value {
        func isDecimalText(_ s: String) -> Bool {
            !s.isEmpty && s.allSatisfy { "0123456789.-+eE".contains($0) } && Double(s) != nil
        }
        var result: Value?
        switch (typeName, value) {
        case ("NSDate", .date(let d)?): result = .date(d)
        case ("NSDate", let v?): result = v.doubleValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case ("NSDecimalNumber", .decimal(let d)?): result = .decimal(d)
        case ("NSDecimalNumber", .integer(let i)?): result = .decimal(Decimal(i))
        case ("NSDecimalNumber", .double(let d)?) where d.isFinite: result = .decimal(Decimal(d))
        case ("NSDecimalNumber", .string(let s)?) where isDecimalText(s):
            result = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal)
        case ("NSNumber", .string(let s)?): result = Int64(s).map(Value.integer) ?? Double(s).map(Value.double)
        case ("NSNumber", let v?) where v.doubleValue != nil: result = v
        case ("NSUUID", .uuid(let u)?): result = .uuid(u)
        case ("NSUUID", .string(let s)?): result = UUID(uuidString: s).map(Value.uuid)
        case ("NSData", .binary(let d)?): result = .binary(d)
        case ("NSData", .string(let s)?): result = Data(base64Encoded: s).map(Value.binary)
        default:
            guard castTypes.contains(typeName) else {
                throw PredicateErrors.error(column: typeToken.column, "unknown CAST type \"\(typeName)\"",
                                            hint: "CAST converts to " + castTypes.map { "\"\($0)\"" }.joined(separator: ", ") + ".")
            }
        }
        guard let result else {
            throw PredicateErrors.error(column: valueToken.column, "cannot CAST \(valueToken.text) to \(typeName)",
                                        hint: castHints[typeName] ?? castHint)
        }
        return result
    }

    private static let castHints = [
        "NSDate": "NSDate takes seconds since 2001-01-01 00:00:00 UTC, as in CAST(721692800, \"NSDate\").",
        "NSDecimalNumber": "NSDecimalNumber takes a number or a string of digits, as in CAST(\"12.50\", \"NSDecimalNumber\").",
        "NSNumber": "NSNumber takes a number or a string such as \"42\", \"1.5\" or \"inf\".",
        "NSUUID": "NSUUID takes a string such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\".",
        "NSData": "NSData takes a base64 string, as in CAST(\"AQID\", \"NSData\").",
    ]
}
