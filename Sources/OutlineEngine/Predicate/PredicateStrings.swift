import Foundation

/// String operations of predicates under the `[c]` and `[d]` options.
///
/// Options work by folding both strings with Foundation's `folding(options:locale:)`
/// (case folding for `[c]`, diacritic removal for `[d]`). Equality compares characters,
/// which Swift does up to canonical equivalence; `CONTAINS`, `BEGINSWITH` and `ENDSWITH`
/// compare the UTF-8 bytes of both strings in normalization form D, in linear time, and
/// reject a match followed by a combining mark (so `e` is not found in `é`, precomposed or
/// not), as Foundation's non-literal search does; like it, they find a combining mark, an
/// emoji inside a ZWJ sequence and `\n` inside `\r\n`.
enum PredicateStrings {
    static func fold(_ s: String, _ options: FetchPredicate.Options) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? s : s.folding(options: folding, locale: nil)
    }

    /// `s` folded under `options`, in normalization form D.
    static func normalized(_ s: String, _ options: FetchPredicate.Options) -> String {
        let folded = fold(s, options)
        return folded.utf8.allSatisfy({ $0 < 0x80 }) ? folded : folded.decomposedStringWithCanonicalMapping
    }

    /// Whether the scalar that starts at byte `offset` of `bytes` (UTF-8) is a combining
    /// mark, which a match may not stop in front of.
    static func combiningMark(in bytes: [UInt8], at offset: Int) -> Bool {
        guard offset < bytes.count, bytes[offset] >= 0x80 else { return false }
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        guard let scalar = String(decoding: bytes[offset ..< end], as: UTF8.self).unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Foundation's `compare(_:options:)`.
    static func compare(_ s: String, _ t: String, _ options: FetchPredicate.Options) -> ComparisonResult {
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        return s.compare(t, options: compareOptions)
    }
}

/// A `LIKE` pattern: `*` matches any run of characters, `?` one character, `\*` and `\?`
/// the characters themselves.
struct LikePattern: Sendable {
    enum Element: Equatable, Sendable {
        case character(Character)
        case one
        case run
    }

    let elements: [Element]
    let options: FetchPredicate.Options

    init(_ pattern: String, options: FetchPredicate.Options) {
        self.options = options
        var elements: [Element] = []
        var escaped = false
        for c in PredicateStrings.fold(pattern, options) {
            if escaped {
                elements.append(.character(c))
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "*": if elements.last != .run { elements.append(.run) }
            case "?": elements.append(.one)
            default: elements.append(.character(c))
            }
        }
        if escaped { elements.append(.character("\\")) }
        self.elements = elements
    }

    /// Whether the whole of `string` matches, in O(n·m) worst-case time (charged to the
    /// budget) and without recursion.
    func matches(_ string: String, context: PredicateEvaluationContext) throws -> Bool {
        let text = Array(PredicateStrings.fold(string, options))
        try context.spend(1 + text.count)
        var t = 0
        var p = 0
        var starP: Int?
        var starT = 0
        var steps = 0
        while t < text.count {
            steps += 1
            if steps == 4096 {
                try context.spend(steps)
                steps = 0
            }
            if p < elements.count {
                switch elements[p] {
                case .run:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .one:
                    t += 1
                    p += 1
                    continue
                case .character(let c) where c == text[t]:
                    t += 1
                    p += 1
                    continue
                default:
                    break
                }
            }
            guard let star = starP else { return false }
            p = star + 1
            starT += 1
            t = starT
        }
        try context.spend(steps)
        while p < elements.count, elements[p] == .run { p += 1 }
        return p == elements.count
    }
}
