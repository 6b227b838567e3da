extension PredicateParser {
    /// The first key of a key path (a word or a `#word`); the components after it are parsed
    /// with the postfix operators of the expression.
    mutating func parseKeyPathStart() throws -> FetchPredicate.KeyPath {
        let token = current
        switch token.kind {
        case .word(let name) where !PredicateKeywords.isReserved(name):
            advance()
            return FetchPredicate.KeyPath([name], columns: [token.column])
        case .escapedWord(let name):
            advance()
            return FetchPredicate.KeyPath([name], columns: [token.column])
        default:
            throw PredicateErrors.expected(
                "a key", after: previousText, found: token,
                hint: "Start a key path with a property name, as in parent.text; write #name for a reserved word.")
        }
    }

    /// A dotted key path without index operators (for sort descriptors, where `[c]` may follow).
    mutating func parseKeyPath() throws -> FetchPredicate.KeyPath {
        var keyPath = try parseKeyPathStart()
        while current.isSymbol(".") {
            advance()
            try parseKeyComponent(into: &keyPath)
        }
        return try Self.validateKeyPath(keyPath)
    }

    /// The key or collection operator after a dot.
    mutating func parseKeyComponent(into keyPath: inout FetchPredicate.KeyPath) throws {
        let token = current
        switch token.kind {
        case .word(let name), .escapedWord(let name), .collectionOperator(let name):
            keyPath.components.append(name)
        case .placeholder("K"):
            // `parent.%K`: the argument's key path continues this one.
            advance()
            guard case .keyPath(let more) = try substitute("K", at: token) else { return }
            keyPath.components += more.components
            keyPath.columns += more.components.map { _ in token.column }
            return
        default:
            throw PredicateErrors.expected(
                "a key", after: ".", found: token,
                hint: "Follow a dot with a property name, as in parent.text; write #name for a reserved word.")
        }
        keyPath.columns.append(token.column)
        advance()
    }

    /// `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]`, `[%d]` or `[$name]` after a key path or collection.
    mutating func parseIndex(into keyPath: inout FetchPredicate.KeyPath) throws {
        let open = advance()
        let token = current
        let component: String
        switch token.kind {
        case .word(let w) where ["FIRST", "LAST", "SIZE"].contains(w.uppercased()):
            component = "[" + w.uppercased() + "]"
            advance()
        case .number(.integer(let n)):
            component = "[\(n)]"
            advance()
        case .placeholder:
            advance()
            guard case .constant(.integer(let n)?) = try substitute(token.placeholderConversion, at: token), n >= 0 else {
                throw PredicateErrors.error(
                    column: token.column, "the index \(token.quoted) needs a whole number of 0 or more",
                    hint: Self.indexHint)
            }
            component = "[\(n)]"
        case .variable(let name):
            component = "[$" + name + "]"
            advance()
        case .symbol("-"):
            throw PredicateErrors.error(column: token.column, "an index cannot be negative", hint: Self.indexHint)
        case .number:
            throw PredicateErrors.error(column: token.column, "the index \(token.quoted) is not a whole number", hint: Self.indexHint)
        case .string:
            throw PredicateErrors.error(
                column: token.column, "dictionary lookups such as [\(token.text)] are not supported",
                hint: "Outline documents have no dictionary values; " + Self.indexHint.prefix(1).lowercased() + Self.indexHint.dropFirst())
        default:
            throw PredicateErrors.expected("FIRST, LAST, SIZE or a number", after: "[", found: token, hint: Self.indexHint)
        }
        guard current.isSymbol("]") else {
            throw PredicateErrors.expected("\"]\" to close the index at column \(open.column)", after: nil, found: current, hint: Self.indexHint)
        }
        advance()
        keyPath.components.append(component)
        keyPath.columns.append(open.column)
    }

    static let indexHint = "Index a to-many relationship with [FIRST], [LAST], [SIZE] or a position from 0, as in children[0].text."

    /// The whole text as one key path (for ``FetchPredicate/KeyPath/init(parsing:)``).
    mutating func parseStandaloneKeyPath() throws -> FetchPredicate.KeyPath {
        guard startsKeyPath(current), !current.isKeyword("SELF") else {
            throw PredicateErrors.expected(
                "a key path", after: nil, found: current, hint: "Write property names separated by dots, as in parent.text.")
        }
        let expression = try parseExpression()
        guard current.isEnd, case .keyPath(let keyPath) = expression else {
            throw PredicateErrors.expected(
                "the end of the key path", after: previousText, found: current,
                hint: "Write property names separated by dots, as in parent.text.")
        }
        return keyPath
    }

    /// Checks where collection and index operators stand and spells them canonically
    /// (`@count`, `[FIRST]`). `hasBase`: the key path follows another expression (a
    /// variable, a subquery), so it may begin with an operator.
    static func validateKeyPath(_ keyPath: FetchPredicate.KeyPath, hasBase: Bool = false) throws -> FetchPredicate.KeyPath {
        var result = keyPath
        var seenOperator: String?
        var ended: String?
        for (i, component) in keyPath.components.enumerated() {
            let column = keyPath.column(of: i)
            if component.isEmpty {
                throw PredicateErrors.error(
                    column: column, "the key path \"\(keyPath.components.joined(separator: "."))\" has an empty key",
                    hint: "Separate keys with single dots, as in parent.text.")
            }
            if let ended {
                throw PredicateErrors.error(
                    column: column, "nothing can follow \"\(ended)\" in a key path, but found \"\(component)\"",
                    hint: ended == "@count"
                        ? "Count a to-many relationship, as in children.@count." : "Take the size of a to-many relationship, as in children[SIZE].")
            }
            if component.hasPrefix("[") {
                guard let index = FetchPredicate.IndexOperator(component: component) else {
                    if component.hasPrefix("[$"), component.hasSuffix("]") { continue }
                    throw PredicateErrors.error(column: column, "\"\(component)\" is not an index", hint: indexHint)
                }
                if i == 0 && !hasBase {
                    throw PredicateErrors.error(column: column, "the index \(index.component) needs a to-many key path before it", hint: indexHint)
                }
                if let seenOperator {
                    throw PredicateErrors.error(column: column, "an index cannot follow the collection operator \"\(seenOperator)\"", hint: indexHint)
                }
                result.components[i] = index.component
                if index == .size { ended = "[SIZE]" }
                continue
            }
            guard component.hasPrefix("@") else { continue }
            guard let op = FetchPredicate.CollectionOperator(spelling: component) else {
                let known = FetchPredicate.CollectionOperator.allCases.map(\.rawValue)
                let hint = PredicateErrors.suggestion(for: component, among: known, quoted: false).map { $0 + " " } ?? ""
                throw PredicateErrors.error(
                    column: column, "unknown collection operator \"\(component)\"",
                    hint: hint + PredicateErrors.collectionOperatorHint)
            }
            if i == 0 && !hasBase {
                throw PredicateErrors.error(
                    column: column, "\"\(op.rawValue)\" needs a to-many key path before it",
                    hint: "Write it after a to-many relationship, as in children.\(op.rawValue)\(op.takesKey ? ".order" : "").")
            }
            if let previous = seenOperator {
                throw PredicateErrors.error(
                    column: column, "a key path can have only one collection operator, but \"\(op.rawValue)\" follows \"\(previous)\"",
                    hint: PredicateErrors.collectionOperatorHint)
            }
            if op.takesKey && i == keyPath.components.count - 1 {
                throw PredicateErrors.error(
                    column: column, "\"\(op.rawValue)\" needs the key of the values to aggregate after it",
                    hint: "Write the key after the operator, as in children.\(op.rawValue).order.")
            }
            seenOperator = op.rawValue
            if op == .count { ended = op.rawValue }
            result.components[i] = op.rawValue
        }
        if keyPath.components.isEmpty {
            throw PredicateErrors.error(column: nil, "the key path is empty", hint: "Name a property, as in text or parent.text.")
        }
        return result
    }
}

extension PredicateToken {
    /// The conversion of a placeholder token (`@` when it is not one).
    var placeholderConversion: Character {
        if case .placeholder(let c) = kind { return c }
        return "@"
    }
}
