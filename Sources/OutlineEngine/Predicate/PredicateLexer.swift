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
        return string(lower ..< upper)
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
            return PredicateToken(kind: kind, column: start + 1, text: string(start ..< index))
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
        case "+", "-", "/":
            return token(.symbol(String(c)), length: 1)
        case "*":
            return next == "*" ? token(.symbol("**"), length: 2) : token(.symbol("*"), length: 1)
        case ":":
            if next == "=" { return token(.symbol(":="), length: 2) }
            throw PredicateErrors.error(
                column: start + 1, "unexpected character \":\"",
                hint: "A colon only appears in an assignment such as $x := 1.")
        case "\"", "'":
            return try lexString(quote: c)
        case "%":
            return try lexPlaceholder()
        case "#":
            index += 1
            let word = lexWord()
            guard !word.isEmpty else {
                throw PredicateErrors.error(
                    column: start + 1, "expected a key after \"#\"",
                    hint: "Write #name to use a reserved word such as IN as a key.")
            }
            return PredicateToken(kind: .escapedWord(word), column: start + 1, text: "#" + word)
        case "@":
            index += 1
            let word = lexWord()
            guard !word.isEmpty else {
                throw PredicateErrors.error(
                    column: start + 1, "expected a collection operator after \"@\"",
                    hint: PredicateErrors.collectionOperatorHint)
            }
            return PredicateToken(kind: .collectionOperator("@" + word), column: start + 1, text: "@" + word)
        case "$":
            index += 1
            let word = lexWord()
            guard !word.isEmpty, !Self.isDigit(word.unicodeScalars.first) else {
                throw PredicateErrors.error(
                    column: start + 1, "expected a variable name after \"$\"",
                    hint: "Name variables like keys, as in $prefix or $c.")
            }
            return PredicateToken(kind: .variable(word), column: start + 1, text: "$" + word)
        default:
            if Self.isDigit(c) {
                return try lexNumber()
            }
            if c.properties.isAlphabetic || c == "_" {
                let word = lexWord()
                return PredicateToken(kind: .word(word), column: start + 1, text: word)
            }
            throw PredicateErrors.error(
                column: start + 1, "unexpected character \"\(c)\"",
                hint: "Quote strings (\"like this\") and use the operators of the predicate syntax.")
        }
    }

    /// Letters, digits and underscores.
    private mutating func lexWord() -> String {
        let start = index
        while let c = peek(),
            c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"
                || [.nonspacingMark, .spacingMark, .enclosingMark].contains(c.properties.generalCategory)
        {
            index += 1
        }
        return string(start ..< index)
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0" ... "9").contains($0) } ?? false }

    /// A number without its sign: `42`, `0x1F`, `0o17`, `0b101`, `2.5`, `1e-3`.
    /// Integers too large for 64 bits become doubles, as in Foundation.
    private mutating func lexNumber() throws -> PredicateToken {
        let start = index
        if peek() == "0", let prefix = peek(1), let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][Character(prefix)] {
            index += 2
            let digitsStart = index
            while let c = peek(), c.properties.isASCIIHexDigit { index += 1 }
            let written = chars[digitsStart ..< index]
            let digits = String(String.UnicodeScalarView(written))
            let name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
            let allowed = radix == 16 ? "0-9 and A-F" : radix == 8 ? "0-7" : "0 and 1"
            guard !digits.isEmpty else {
                throw PredicateErrors.error(
                    column: start + 1, "expected \(name) digits after \"\(string(start..<start + 2))\"",
                    hint: "Write \(name) numbers with the digits \(allowed), as in \(radix == 16 ? "0x1F" : radix == 8 ? "0o17" : "0b101").")
            }
            if let bad = written.firstIndex(where: { (Character($0).hexDigitValue ?? radix) >= radix }) {
                throw PredicateErrors.error(
                    column: bad + 1, "\"\(chars[bad])\" is not a digit of a \(name) number",
                    hint: "Write \(name) numbers with the digits \(allowed).")
            }
            try checkNumberEnd(start: start)
            let text = string(start ..< index)
            var magnitude: Double = 0
            for d in digits { magnitude = magnitude * Double(radix) + Double(d.hexDigitValue ?? 0) }
            let value: Value = Int64(digits, radix: radix).map(Value.integer) ?? .double(magnitude)
            return PredicateToken(kind: .number(value), column: start + 1, text: text)
        }
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
        try checkNumberEnd(start: start)
        let text = string(start ..< index)
        let value: Value = isInteger ? Int64(text).map(Value.integer) ?? .double(Double(text) ?? 0) : .double(Double(text) ?? 0)
        return PredicateToken(kind: .number(value), column: start + 1, text: text)
    }

    /// A number must not run into a letter (`12abc`, `0x1G`, `1e`).
    private func checkNumberEnd(start: Int) throws {
        guard let c = peek(), c.properties.isAlphabetic || c == "_" || Self.isDigit(c) else { return }
        throw PredicateErrors.error(
            column: index + 1, "unexpected \"\(c)\" after the number \"\(string(start..<index))\"",
            hint: "Separate numbers from keys with a space or an operator; numbers are written 42, -5, 2.5, 1e3, 0x1F, 0o17 or 0b101.")
    }

    /// `%@`, `%K`, and printf conversions with length modifiers (`%d`, `%ld`, `%lld`, `%hd`,
    /// `%qd`, `%i`, `%u`, `%x`, `%X`, `%o`, `%O`, `%f`, `%lf`, `%e`, `%E`, `%g`, `%G`, `%s`, `%S`).
    private mutating func lexPlaceholder() throws -> PredicateToken {
        let start = index
        index += 1
        var modifiers = 0
        while let c = peek(), c == "l" || c == "h" || c == "q", modifiers < 2 {
            index += 1
            modifiers += 1
        }
        let conversion = peek()
        var kind: Character?
        switch conversion {
        case "@", "K": kind = modifiers == 0 ? Character(conversion ?? "@") : nil
        case "d", "D", "i", "u", "U", "x", "X", "o", "O": kind = "d"
        case "f", "e", "E", "g", "G": kind = "f"
        case "s", "S": kind = modifiers == 0 ? "s" : nil
        default: kind = nil
        }
        guard let kind else {
            let shown = string(start ..< min(index + 1, chars.count))
            throw PredicateErrors.error(
                column: start + 1,
                conversion == "%" && modifiers == 0
                    ? "\"%%\" stands for a % sign, which the predicate syntax only has inside strings" : "unknown placeholder \"\(shown)\"",
                hint:
                    "Use %@ for a value or an object, %K for a key path, %d for an integer or %f for a number; write a % sign inside a quoted string."
            )
        }
        index += 1
        return PredicateToken(kind: .placeholder(kind), column: start + 1, text: string(start ..< index))
    }

    private mutating func lexString(quote: Unicode.Scalar) throws -> PredicateToken {
        let start = index
        index += 1
        var result = String.UnicodeScalarView()
        while let c = peek() {
            index += 1
            if c == quote {
                return PredicateToken(kind: .string(String(result)), column: start + 1, text: string(start ..< index))
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
            while digits.unicodeScalars.count < max, let c = peek(), c.properties.isASCIIHexDigit {
                digits.unicodeScalars.append(c)
                index += 1
            }
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
        guard (0xD800 ... 0xDBFF).contains(code), peek() == "\\", peek(1) == "u" else { throw invalid() }
        index += 2
        let lowStart = index
        guard let low = hexDigits(max: 4), index - lowStart == 4, (0xDC00 ... 0xDFFF).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        else { throw invalid() }
        return scalar
    }
}
