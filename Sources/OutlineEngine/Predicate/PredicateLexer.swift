/// Splits a predicate format string into tokens, resolving string escapes and numbers.
///
/// Columns are 1-based and count Unicode scalars (for most text, characters). Lexing works on
/// scalars so that a combining mark after a quote cannot hide the quote.
struct PredicateLexer {
    private let chars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        chars = Array(text.unicodeScalars)
    }

    private func string(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: chars[range])
        return String(view)
    }

    /// The column just past the last character, where "the predicate ends".
    var endColumn: Int { chars.count + 1 }

    /// The original text from column `from` up to (not including) column `to`.
    func text(from: Int, to: Int) -> String {
        let lower = max(0, min(from - 1, chars.count))
        let upper = max(lower, min(to - 1, chars.count))
        return string(lower..<upper)
    }

    /// All tokens, ending with a `.end` token.
    mutating func tokenize() throws -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try nextToken()
            tokens.append(token)
            if token.isEnd { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private mutating func nextToken() throws -> PredicateToken {
        while let c = peek(), c.properties.isWhitespace { index += 1 }
        let start = index
        guard let c = peek() else { return PredicateToken(kind: .end, column: start + 1, text: "") }
        func token(_ kind: PredicateToken.Kind, length: Int) -> PredicateToken {
            index = start + length
            return PredicateToken(kind: kind, column: start + 1, text: string(start..<index))
        }
        let next = peek(1)
        switch c {
        case "(", ")", "{", "}", "[", "]", ",", ".":
            return token(.symbol(String(c)), length: 1)
        case "=":
            switch next {
            case "=": return token(.symbol("=="), length: 2)
            case "<": return token(.symbol("<="), length: 2)
            case ">": return token(.symbol(">="), length: 2)
            default: return token(.symbol("=="), length: 1)
            }
        case "!":
            return next == "=" ? token(.symbol("!="), length: 2) : token(.symbol("!"), length: 1)
        case "<":
            switch next {
            case "=": return token(.symbol("<="), length: 2)
            case ">": return token(.symbol("!="), length: 2)
            default: return token(.symbol("<"), length: 1)
            }
        case ">":
            return next == "=" ? token(.symbol(">="), length: 2) : token(.symbol(">"), length: 1)
        case "&", "|":
            if next == c { return token(.symbol(String(c) + String(c)), length: 2) }
            throw PredicateErrors.error(
                column: start + 1, "unexpected character \"\(c)\"",
                hint: c == "&" ? "Write && or AND to combine conditions." : "Write || or OR to combine conditions.")
        case "\"", "'":
            return try lexString(quote: c)
        case "%":
            return try lexPlaceholder()
        case "#":
            index += 1
            let word = lexWord()
            guard !word.isEmpty else {
                throw PredicateErrors.error(column: start + 1, "expected a key after \"#\"",
                                            hint: "Write #name to use a reserved word such as IN as a key.")
            }
            return PredicateToken(kind: .escapedWord(word), column: start + 1, text: "#" + word)
        case "@":
            index += 1
            let word = lexWord()
            guard !word.isEmpty else {
                throw PredicateErrors.error(column: start + 1, "expected a collection operator after \"@\"",
                                            hint: PredicateErrors.collectionOperatorHint)
            }
            return PredicateToken(kind: .collectionOperator("@" + word), column: start + 1, text: "@" + word)
        case "$":
            throw PredicateErrors.error(column: start + 1, "variables such as \"$name\" are not supported",
                                        hint: "Substitute values with %@ placeholders instead.")
        default:
            if Self.isDigit(c) || (c == "-" && Self.isDigit(next)) {
                return lexNumber()
            }
            if c.properties.isAlphabetic || c == "_" {
                let word = lexWord()
                return PredicateToken(kind: .word(word), column: start + 1, text: word)
            }
            throw PredicateErrors.error(
                column: start + 1, "unexpected character \"\(c)\"",
                hint: c == "-" ? "Write negative numbers as -5; the predicate syntax has no arithmetic."
                    : "Quote strings (\"like this\") and use the operators of the predicate syntax.")
        }
    }

    /// Letters, digits and underscores.
    private mutating func lexWord() -> String {
        let start = index
        while let c = peek(), c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"
                || [.nonspacingMark, .spacingMark, .enclosingMark].contains(c.properties.generalCategory) {
            index += 1
        }
        return string(start..<index)
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }

    private mutating func lexNumber() -> PredicateToken {
        let start = index
        if peek() == "-" { index += 1 }
        while Self.isDigit(peek()) { index += 1 }
        var isInteger = true
        if peek() == ".", Self.isDigit(peek(1)) {
            isInteger = false
            index += 1
            while Self.isDigit(peek()) { index += 1 }
        }
        if peek() == "e" || peek() == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if Self.isDigit(peek(signed ? 2 : 1)) {
                isInteger = false
                index += signed ? 2 : 1
                while Self.isDigit(peek()) { index += 1 }
            }
        }
        let text = string(start..<index)
        // Integers too large for 64 bits become doubles, as in Foundation.
        let value: Value = isInteger ? Int64(text).map(Value.integer) ?? .double(Double(text) ?? 0) : .double(Double(text) ?? 0)
        return PredicateToken(kind: .number(value), column: start + 1, text: text)
    }

    private mutating func lexPlaceholder() throws -> PredicateToken {
        let start = index
        index += 1
        var longs = 0
        while peek() == "l", longs < 2 { index += 1; longs += 1 }
        let conversion = peek()
        let valid: Bool
        switch conversion {
        case "@", "K": valid = longs == 0
        case "d", "i", "u", "f": valid = true
        default: valid = false
        }
        guard let conversion, valid else {
            let shown = string(start..<min(index + 1, chars.count))
            throw PredicateErrors.error(
                column: start + 1, "unknown placeholder \"\(shown)\"",
                hint: "Use %@ for a value, %K for a key path, %d for an integer or %f for a number.")
        }
        index += 1
        let kind: Character = conversion == "i" || conversion == "u" ? "d" : Character(conversion)
        return PredicateToken(kind: .placeholder(kind), column: start + 1, text: string(start..<index))
    }

    private mutating func lexString(quote: Unicode.Scalar) throws -> PredicateToken {
        let start = index
        index += 1
        var result = String.UnicodeScalarView()
        while let c = peek() {
            index += 1
            if c == quote {
                return PredicateToken(kind: .string(String(result)), column: start + 1, text: string(start..<index))
            }
            if c == "\\" {
                result.append(try lexEscape(escapeStart: index - 1, stringStart: start))
            } else {
                result.append(c)
            }
        }
        throw PredicateErrors.error(
            column: start + 1, "unterminated string starting at column \(start + 1)",
            hint: "Close the string with a matching \(quote) quote; write \\\(quote) for a quote inside it.")
    }

    /// Reads the escape after a backslash at `escapeStart`; `index` is just past the backslash.
    private mutating func lexEscape(escapeStart: Int, stringStart: Int) throws -> Unicode.Scalar {
        guard let c = peek() else {
            throw PredicateErrors.error(
                column: stringStart + 1, "unterminated string starting at column \(stringStart + 1)",
                hint: "Close the string with a matching quote; a backslash at the end escapes nothing.")
        }
        index += 1
        switch c {
        case "\"", "'", "\\": return c
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "u": return try lexUnicodeEscape(escapeStart: escapeStart)
        default:
            throw PredicateErrors.error(
                column: escapeStart + 1, "unknown escape \"\\\(c)\" in the string starting at column \(stringStart + 1)",
                hint: "The escapes are \\\", \\', \\\\, \\n, \\t, \\r, \\0, \\u{...} and \\uXXXX; write \\\\ for a backslash.")
        }
    }

    /// `\u{1F600}` (1 to 8 hex digits) or `\uXXXX` (exactly 4, surrogate pairs combined).
    private mutating func lexUnicodeEscape(escapeStart: Int) throws -> Unicode.Scalar {
        func invalid() -> EngineError {
            let end = min(index, chars.count)
            return PredicateErrors.error(
                column: escapeStart + 1, "invalid unicode escape \"\(string(escapeStart..<end))\"",
                hint: "Write \\u{...} with 1 to 8 hex digits of a Unicode scalar, or \\uXXXX with exactly 4.")
        }
        func hexDigits(max: Int) -> UInt32? {
            var digits = ""
            while digits.unicodeScalars.count < max, let c = peek(), c.properties.isASCIIHexDigit { digits.unicodeScalars.append(c); index += 1 }
            return digits.isEmpty ? nil : UInt32(digits, radix: 16)
        }
        if peek() == "{" {
            index += 1
            guard let code = hexDigits(max: 8), peek() == "}" else {
                if peek() != nil { index += 1 }
                throw invalid()
            }
            index += 1
            guard let scalar = Unicode.Scalar(code) else { throw invalid() }
            return scalar
        }
        let digitsStart = index
        guard let code = hexDigits(max: 4), index - digitsStart == 4 else { throw invalid() }
        if let scalar = Unicode.Scalar(code) { return scalar }
        // A high surrogate must be followed by \u and a low surrogate.
        guard (0xD800...0xDBFF).contains(code), peek() == "\\", peek(1) == "u" else { throw invalid() }
        index += 2
        let lowStart = index
        guard let low = hexDigits(max: 4), index - lowStart == 4, (0xDC00...0xDFFF).contains(low),
              let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        else { throw invalid() }
        return scalar
    }
}
