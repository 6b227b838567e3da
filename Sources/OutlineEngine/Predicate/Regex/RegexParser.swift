/// Parses the ICU regular expression syntax into a ``RegexNode``.
///
/// Supported: literals and escapes (`\n`, `\t`, `\xhh`, `\x{h...}`, `\uhhhh`, `\Uhhhhhhhh`,
/// `\0ooo`, `\cX`, `\Q...\E`), `.`, sets (`[...]` with ranges, negation, nested sets, `&&`,
/// `--`, `[:posix:]`, `\p{...}`), `\d \D \w \W \s \S \h \H \v \V \R \X`, anchors (`^ $ \A \z
/// \Z \G \b \B`), groups (capturing, `(?:...)`, named `(?<name>...)`, flags `(?imsxd-imsxd)`
/// and `(?i:...)`, comments `(?#...)`), alternation, quantifiers (`* + ? {n} {n,} {n,m}`,
/// lazy with `?`, possessive with `+`), backreferences (`\1`, `\k<name>`), lookahead,
/// lookbehind of bounded length, and atomic groups `(?>...)`.
///
/// Refused with a message: Unicode scripts and blocks in `\p{...}`, `\N{name}`, and the
/// `(?w)` flag. Nesting is limited to ``maximumNesting`` levels.
struct RegexParser {
    private let chars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0
    private var captureCount = 0
    private var names: [String: Int] = [:]
    private let totalCaptures: Int

    static let maximumNesting = 200

    init(_ pattern: String) {
        chars = Array(pattern.unicodeScalars)
        totalCaptures = Self.countCaptures(chars)
    }

    /// Parses the whole pattern.
    static func parse(_ pattern: String, flags: RegexFlags) throws -> (RegexNode, captures: Int) {
        var parser = RegexParser(pattern)
        var flags = flags
        let node = try parser.parseAlternation(&flags)
        if parser.index < parser.chars.count {
            throw parser.error("\")\" without a matching \"(\"", hint: "Escape a literal parenthesis as \\).")
        }
        return (node, parser.captureCount)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    /// For the set parser: where parsing is, the scalar there, and a step forward.
    var currentIndex: Int { index }
    func peekScalar(_ offset: Int = 0) -> Unicode.Scalar? { peek(offset) }
    mutating func advanceScalar() { index += 1 }

    func error(_ message: String, at position: Int? = nil, hint: String = "MATCHES takes an ICU regular expression that must match the whole string.")
        -> PredicateRegexError
    {
        PredicateRegexError("\(message) at character \((position ?? index) + 1) of the pattern", hint: hint)
    }

    /// The number of capturing groups, counted before parsing so that `\12` can tell group
    /// 12 from group 1 followed by a 2.
    private static func countCaptures(_ chars: [Unicode.Scalar]) -> Int {
        var count = 0
        var i = 0
        var inSet = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                i += 2
                continue
            }
            if c == "[" { inSet += 1 } else if c == "]" && inSet > 0 { inSet -= 1 }
            if inSet == 0 && c == "(" {
                let next = i + 1 < chars.count ? chars[i + 1] : nil
                let named =
                    next == "?" && i + 2 < chars.count && chars[i + 2] == "<" && i + 3 < chars.count && chars[i + 3] != "=" && chars[i + 3] != "!"
                if next != "?" || named { count += 1 }
            }
            i += 1
        }
        return count
    }

    mutating func parseAlternation(_ flags: inout RegexFlags) throws -> RegexNode {
        var branches = [try parseConcatenation(&flags)]
        while peek() == "|" {
            index += 1
            branches.append(try parseConcatenation(&flags))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation(_ flags: inout RegexFlags) throws -> RegexNode {
        var items: [RegexNode] = []
        while true {
            skipFreeSpacing(flags)
            guard let c = peek(), c != "|", c != ")" else { break }
            if c == "\\", peek(1) == "Q" {
                index += 2
                while let q = peek(), !(q == "\\" && peek(1) == "E") {
                    items.append(.scalar(q, caseless: flags.caseless))
                    index += 1
                }
                if peek() != nil { index += 2 }
                // A quantifier after \E repeats the last quoted character.
                if let last = items.popLast() { items.append(try parseQuantifier(last, start: index, flags: flags)) }
                continue
            }
            let start = index
            guard let atom = try parseAtom(&flags) else { continue }
            items.append(try parseQuantifier(atom, start: start, flags: flags))
        }
        return items.count == 1 ? items[0] : items.isEmpty ? .empty : .concatenation(items)
    }

    private mutating func skipFreeSpacing(_ flags: RegexFlags) {
        guard flags.extended else { return }
        while let c = peek() {
            if c.properties.isWhitespace {
                index += 1
                continue
            }
            if c == "#" {
                while let d = peek(), d != "\n" { index += 1 }
                continue
            }
            break
        }
    }

    private mutating func parseQuantifier(_ atom: RegexNode, start: Int, flags: RegexFlags) throws -> RegexNode {
        skipFreeSpacing(flags)
        var min = 0
        var max: Int?
        switch peek() {
        case "*": index += 1
        case "+":
            index += 1
            min = 1
        case "?":
            index += 1
            max = 1
        case "{":
            let brace = index
            index += 1
            guard let low = readNumber() else {
                throw error(
                    "expected a number after \"{\"", at: brace, hint: "Write a counted repetition as {n}, {n,} or {n,m}, or escape the brace as \\{.")
            }
            min = low
            max = low
            if peek() == "," {
                index += 1
                max = readNumber()
            }
            guard peek() == "}" else {
                throw error("expected \"}\" to close the repetition", hint: "Write a counted repetition as {n}, {n,} or {n,m}.")
            }
            index += 1
            if let max, max < min { throw error("the repetition {\(min),\(max)} has its bounds the wrong way round", at: brace) }
        default:
            return atom
        }
        switch atom {
        case .assertion, .empty, .lookaround:
            throw error("nothing to repeat", at: start, hint: "Put a character, a set or a group before the quantifier, or escape it.")
        default: break
        }
        var quantifier = RegexQuantifier.greedy
        if peek() == "?" {
            index += 1
            quantifier = .lazy
        } else if peek() == "+" {
            index += 1
            quantifier = .possessive
        }
        return .repetition(atom, min: min, max: max, quantifier)
    }

    /// A decimal number up to 1,000,000 (larger counts are refused as too large later).
    private mutating func readNumber() -> Int? {
        var value: Int?
        while let c = peek(), let d = Int(String(c)), c.isASCII {
            value = Swift.min(10_000_000, (value ?? 0) * 10 + d)
            index += 1
        }
        return value
    }

    /// One atom, or `nil` for something that matches nothing (a flag group, a comment).
    private mutating func parseAtom(_ flags: inout RegexFlags) throws -> RegexNode? {
        guard let c = peek() else { return nil }
        switch c {
        case "(": return try parseGroup(&flags)
        case "[":
            index += 1
            return .set(try parseSet(flags), caseless: flags.caseless)
        case ".":
            index += 1
            return .any(dotAll: flags.dotAll, unixLines: flags.unixLines)
        case "^":
            index += 1
            return .assertion(flags.multiline ? .lineStart(unixLines: flags.unixLines) : .inputStart)
        case "$":
            index += 1
            return .assertion(flags.multiline ? .lineEnd(unixLines: flags.unixLines) : .inputEndOrFinalTerminator(unixLines: flags.unixLines))
        case "*", "+", "?":
            throw error("nothing to repeat before \"\(c)\"", hint: "Put a character, a set or a group before the quantifier, or escape it as \\\(c).")
        case "\\":
            return try parseEscape(flags)
        default:
            index += 1
            return .scalar(c, caseless: flags.caseless)
        }
    }

    private mutating func parseGroup(_ flags: inout RegexFlags) throws -> RegexNode? {
        let open = index
        index += 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumNesting {
            throw error("the pattern nests more than \(Self.maximumNesting) groups deep", at: open, hint: "Simplify the pattern.")
        }
        var inner = flags
        var capture: Int?
        var kind = 0  // 0 group, 1 lookahead, 2 negative lookahead, 3 lookbehind, 4 negative lookbehind, 5 atomic
        if peek() == "?" {
            index += 1
            switch peek() {
            case ":": index += 1
            case "=":
                index += 1
                kind = 1
            case "!":
                index += 1
                kind = 2
            case ">":
                index += 1
                kind = 5
            case "#":
                while let d = peek(), d != ")" { index += 1 }
                guard peek() == ")" else { throw error("unterminated comment (?#", at: open, hint: "Close the comment with \")\".") }
                index += 1
                return nil
            case "<":
                index += 1
                if peek() == "=" {
                    index += 1
                    kind = 3
                } else if peek() == "!" {
                    index += 1
                    kind = 4
                } else {
                    let nameStart = index
                    while let d = peek(), d.properties.isAlphabetic || ("0" ... "9").contains(d) { index += 1 }
                    let name = String(String.UnicodeScalarView(chars[nameStart ..< index]))
                    guard !name.isEmpty, peek() == ">" else {
                        throw error("expected a group name and \">\" after \"(?<\"", at: open, hint: "Name a group as (?<name>...).")
                    }
                    index += 1
                    captureCount += 1
                    capture = captureCount
                    names[name] = captureCount
                }
            default:
                // Flags: (?ims-x) for the rest of the group, (?i:...) for a group.
                var on = true
                var changed = false
                while let f = peek(), f != ")" && f != ":" {
                    switch f {
                    case "-": on = false
                    case "i": inner.caseless = on
                    case "m": inner.multiline = on
                    case "s": inner.dotAll = on
                    case "x": inner.extended = on
                    case "d": inner.unixLines = on
                    case "w":
                        throw error(
                            "the flag (?w) (Unicode word boundaries) is not supported",
                            hint: "Leave it out; \\b then uses ICU's default word boundaries.")
                    default: throw error("unknown flag \"\(f)\" in a \"(?\" group", hint: "The flags are i, m, s, x and d, as in (?i) or (?i:...).")
                    }
                    changed = true
                    index += 1
                }
                guard changed || peek() == ":", let end = peek() else {
                    throw error("unterminated group", at: open, hint: "Close every \"(\" with \")\".")
                }
                index += 1
                if end == ")" {
                    flags = inner
                    return nil
                }
            }
        } else {
            captureCount += 1
            capture = captureCount
        }
        let body = try parseAlternation(&inner)
        guard peek() == ")" else {
            throw error("missing \")\" for the group opened", at: open, hint: "Close every \"(\" with \")\", or escape a literal one as \\(.")
        }
        index += 1
        switch kind {
        case 1, 2: return .lookaround(body, ahead: true, negative: kind == 2)
        case 3, 4:
            guard body.lengthRange.max != nil else {
                throw error(
                    "a lookbehind must have a bounded length", at: open,
                    hint: "Use a fixed or bounded repetition such as {1,5} inside (?<=...) instead of * or +.")
            }
            return .lookaround(body, ahead: false, negative: kind == 4)
        case 5: return .atomic(body)
        default: return .group(body, capture: capture)
        }
    }

    private mutating func parseEscape(_ flags: RegexFlags) throws -> RegexNode? {
        let start = index
        index += 1
        guard let c = peek() else { throw error("the pattern ends with a backslash", at: start, hint: "Write \\\\ for a backslash.") }
        switch c {
        case "b":
            index += 1
            return .assertion(.wordBoundary)
        case "B":
            index += 1
            return .assertion(.notWordBoundary)
        case "A", "G":
            index += 1
            return .assertion(.inputStart)
        case "z":
            index += 1
            return .assertion(.inputEnd)
        case "Z":
            index += 1
            return .assertion(.inputEndOrFinalTerminator(unixLines: flags.unixLines))
        case "X":
            index += 1
            return .grapheme
        case "R":
            index += 1
            return .alternation([
                .concatenation([.scalar("\r", caseless: false), .scalar("\n", caseless: false)]),
                .set(RegexCharacterSet.lineTerminator, caseless: false),
            ])
        case "k":
            index += 1
            guard peek() == "<" else { throw error("expected \"<name>\" after \\k", at: start) }
            index += 1
            let nameStart = index
            while let d = peek(), d != ">" { index += 1 }
            let name = String(String.UnicodeScalarView(chars[nameStart ..< index]))
            guard peek() == ">", let number = names[name] else { throw error("\\k<\(name)> names no group defined before it", at: start) }
            index += 1
            return .backreference(number, caseless: flags.caseless)
        case "1" ... "9":
            var number = 0
            while let d = peek(), let v = Int(String(d)), d.isASCII, number == 0 || number * 10 + v <= totalCaptures {
                number = number * 10 + v
                index += 1
            }
            guard number <= totalCaptures else {
                throw error("the backreference \\\(number) names no group", at: start, hint: "Number groups from 1 in the order of their \"(\".")
            }
            return .backreference(number, caseless: flags.caseless)
        default:
            index = start
            switch try parseSetEscape() {
            case .scalar(let s): return .scalar(s, caseless: flags.caseless)
            case .set(let set): return .set(set, caseless: flags.caseless)
            }
        }
    }
}
