extension RegexParser {
    /// What an escape stands for: one scalar, or a set (`\d`, `\p{L}`).
    enum EscapeValue {
        case scalar(Unicode.Scalar)
        case set(RegexCharacterSet)
    }

    /// A set after its `[`: items, ranges, nested sets, `[:posix:]`, and `&&` / `--`
    /// between them (applied left to right).
    mutating func parseSet(_ flags: RegexFlags) throws -> RegexCharacterSet {
        let open = currentIndex - 1
        var negated = false
        if peekScalar() == "^" {
            advanceScalar()
            negated = true
        }
        var result: RegexCharacterSet?
        var pendingOperator: Unicode.Scalar?
        var items: [RegexCharacterSet] = []
        var first = true
        func flush() {
            let segment: RegexCharacterSet = items.count == 1 ? items[0] : .union(items)
            items = []
            if let left = result, let op = pendingOperator {
                result = op == "&" ? .intersection(left, segment) : .difference(left, segment)
            } else {
                result = segment
            }
            pendingOperator = nil
        }
        while true {
            if flags.extended { while let c = peekScalar(), c.properties.isWhitespace { advanceScalar() } }
            guard let c = peekScalar() else {
                throw error("missing \"]\" for the set opened", at: open, hint: "Close every \"[\" with \"]\", or escape a literal one as \\[.")
            }
            if c == "]" && !first {
                advanceScalar()
                break
            }
            first = false
            if (c == "&" && peekScalar(1) == "&") || (c == "-" && peekScalar(1) == "-") {
                advanceScalar()
                advanceScalar()
                flush()
                pendingOperator = c
                continue
            }
            if c == "[" {
                if peekScalar(1) == ":" {
                    items.append(try parsePosixClass())
                } else {
                    advanceScalar()
                    items.append(try parseSet(flags))
                }
                continue
            }
            let itemStart = currentIndex
            let low = try parseSetMember()
            guard case .scalar(let from) = low else {
                if case .set(let set) = low { items.append(set) }
                continue
            }
            if peekScalar() == "-", let next = peekScalar(1), next != "]", next != "-" {
                advanceScalar()
                guard case .scalar(let to) = try parseSetMember() else {
                    throw error(
                        "a range cannot end with a class such as \\d", at: itemStart, hint: "Write ranges between two characters, as in [a-z].")
                }
                guard from.value <= to.value else {
                    throw error("the range \(from)-\(to) runs backwards", at: itemStart, hint: "Write the smaller character first, as in [a-z].")
                }
                items.append(.ranges([from.value ... to.value]))
            } else {
                items.append(.ranges([from.value ... from.value]))
            }
        }
        if !items.isEmpty || result == nil || pendingOperator != nil { flush() }
        let set = result ?? .ranges([])
        return negated ? .inverted(set) : set
    }

    /// `[:name:]` or `[:^name:]`.
    private mutating func parsePosixClass() throws -> RegexCharacterSet {
        let start = currentIndex
        advanceScalar()
        advanceScalar()
        var negated = false
        if peekScalar() == "^" {
            advanceScalar()
            negated = true
        }
        var name = ""
        while let c = peekScalar(), c != ":" {
            name.unicodeScalars.append(c)
            advanceScalar()
        }
        guard peekScalar() == ":", peekScalar(1) == "]" else { throw error("expected \":]\" to close a POSIX class", at: start) }
        advanceScalar()
        advanceScalar()
        guard let set = RegexProperty.posix(name) ?? RegexProperty(named: name).map(RegexCharacterSet.property) else {
            throw error(
                "unknown POSIX class [:\(name):]", at: start,
                hint: "The classes are alpha, digit, alnum, upper, lower, punct, space, blank, cntrl, xdigit, graph, print and word.")
        }
        return negated ? .inverted(set) : set
    }

    /// A character or an escape inside a set.
    private mutating func parseSetMember() throws -> EscapeValue {
        guard let c = peekScalar() else { throw error("the set is not closed") }
        if c == "\\" { return try parseSetEscape() }
        advanceScalar()
        return .scalar(c)
    }

    /// An escape that stands for a scalar or a set; the current scalar is the backslash.
    mutating func parseSetEscape() throws -> EscapeValue {
        let start = currentIndex
        advanceScalar()
        guard let c = peekScalar() else { throw error("the pattern ends with a backslash", at: start, hint: "Write \\\\ for a backslash.") }
        advanceScalar()
        switch c {
        case "d": return .set(RegexCharacterSet.digit)
        case "D": return .set(.inverted(RegexCharacterSet.digit))
        case "w": return .set(RegexCharacterSet.word)
        case "W": return .set(.inverted(RegexCharacterSet.word))
        case "s": return .set(RegexCharacterSet.space)
        case "S": return .set(.inverted(RegexCharacterSet.space))
        case "h": return .set(RegexCharacterSet.horizontalSpace)
        case "H": return .set(.inverted(RegexCharacterSet.horizontalSpace))
        case "v": return .set(RegexCharacterSet.lineTerminator)
        case "V": return .set(.inverted(RegexCharacterSet.lineTerminator))
        case "p", "P":
            var name = ""
            if peekScalar() == "{" {
                advanceScalar()
                while let d = peekScalar(), d != "}" {
                    name.unicodeScalars.append(d)
                    advanceScalar()
                }
                guard peekScalar() == "}" else { throw error("expected \"}\" to close \\\(c){", at: start) }
                advanceScalar()
            } else {
                throw error("expected \"{\" after \\\(c)", at: start, hint: "Name the property in braces, as in \\\(c){L} or \\\(c){Lu}.")
            }
            var negated = c == "P"
            if name.hasPrefix("^") {
                negated.toggle()
                name.removeFirst()
            }
            guard let property = RegexProperty(named: name) else {
                throw error(
                    "the property \\\(c){\(name)} is not supported", at: start,
                    hint:
                        "Use general categories (L, Lu, Ll, N, Nd, P, S, Z, ...) or binary properties (Alphabetic, White_Space, Uppercase, Lowercase, ...); Unicode scripts and blocks are not supported."
                )
            }
            return .set(negated ? .inverted(.property(property)) : .property(property))
        case "n": return .scalar("\n")
        case "t": return .scalar("\t")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "a": return .scalar("\u{07}")
        case "e": return .scalar("\u{1B}")
        case "0":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let d = peekScalar(), ("0" ... "7").contains(d) {
                value = value * 8 + (d.value - 0x30)
                advanceScalar()
                digits += 1
            }
            return .scalar(try scalar(value, at: start))
        case "x":
            if peekScalar() == "{" {
                advanceScalar()
                let value = try hexDigits(max: 8, at: start)
                guard peekScalar() == "}" else { throw error("expected \"}\" to close \\x{", at: start) }
                advanceScalar()
                return .scalar(try scalar(value, at: start))
            }
            return .scalar(try scalar(try hexDigits(exactly: 2, at: start), at: start))
        case "u": return .scalar(try scalar(try hexDigits(exactly: 4, at: start), at: start))
        case "U": return .scalar(try scalar(try hexDigits(exactly: 8, at: start), at: start))
        case "c":
            guard let d = peekScalar(), d.isASCII else { throw error("expected a letter after \\c", at: start) }
            advanceScalar()
            return .scalar(Unicode.Scalar(d.value & 0x1F) ?? "\0")
        case "N":
            throw error(
                "named characters \\N{...} are not supported", at: start, hint: "Write the character itself, or \\x{...} with its code point.")
        default:
            if c.properties.isAlphabetic || ("0" ... "9").contains(c) {
                throw error(
                    "unknown escape \\\(c)", at: start,
                    hint:
                        "Escape only punctuation to match it literally; the letter escapes are \\d \\w \\s \\h \\v \\p \\b \\A \\z \\Z \\n \\t \\r \\x \\u and their capitals."
                )
            }
            return .scalar(c)
        }
    }

    private mutating func hexDigits(exactly count: Int, at start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0 ..< count {
            guard let d = peekScalar(), let v = Character(d).hexDigitValue else {
                throw error("expected \(count) hexadecimal digits", at: start, hint: "Write \\xhh, \\x{h...}, \\uhhhh or \\Uhhhhhhhh.")
            }
            value = value * 16 + UInt32(v)
            advanceScalar()
        }
        return value
    }

    private mutating func hexDigits(max: Int, at start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        while count < max, let d = peekScalar(), let v = Character(d).hexDigitValue {
            value = value * 16 + UInt32(v)
            advanceScalar()
            count += 1
        }
        guard count > 0 else { throw error("expected hexadecimal digits", at: start, hint: "Write \\x{h...} with 1 to 8 hexadecimal digits.") }
        return value
    }

    private func scalar(_ value: UInt32, at start: Int) throws -> Unicode.Scalar {
        guard let s = Unicode.Scalar(value) else {
            throw error("U+\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value", at: start)
        }
        return s
    }
}
