import Foundation

/// String operations of predicates under the `[c]` and `[d]` options.
///
/// Options work by folding both strings with Foundation's `folding(options:locale:)`
/// (case folding for `[c]`, diacritic removal for `[d]`). Equality compares characters,
/// which Swift does up to canonical equivalence; `CONTAINS`, `BEGINSWITH` and `ENDSWITH`
/// compare the UTF-8 bytes of both strings in normalization form C, in linear time, and
/// accept a match only where it starts and ends between characters (so `e` is not found in
/// `é`, precomposed or not), as Foundation's non-literal search does.
enum PredicateStrings {
    static func fold(_ s: String, _ options: FetchPredicate.Options) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? s : s.folding(options: folding, locale: nil)
    }

    /// `s` folded under `options`, in normalization form C.
    static func normalized(_ s: String, _ options: FetchPredicate.Options) -> String {
        let folded = fold(s, options)
        return folded.utf8.allSatisfy({ $0 < 0x80 }) ? folded : folded.precomposedStringWithCanonicalMapping
    }

    /// Foundation's `compare(_:options:)`.
    static func compare(_ s: String, _ t: String, _ options: FetchPredicate.Options) -> ComparisonResult {
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        return s.compare(t, options: compareOptions)
    }
}

/// The right side of `CONTAINS`, `BEGINSWITH`, `ENDSWITH` (and a string `IN`), prepared
/// once: folded, normalized, and with the Knuth–Morris–Pratt failure table of its bytes.
struct PredicateNeedle: Sendable {
    let bytes: [UInt8]
    /// `failure[i]`: the length of the longest proper prefix of `bytes[...i]` that is also its suffix.
    let failure: [Int]
    let options: FetchPredicate.Options

    init(_ needle: String, options: FetchPredicate.Options) {
        self.options = options
        let bytes = Array(PredicateStrings.normalized(needle, options).utf8)
        var failure = [Int](repeating: 0, count: bytes.count)
        var k = 0
        for i in bytes.indices.dropFirst() {
            while k > 0 && bytes[i] != bytes[k] { k = failure[k - 1] }
            if bytes[i] == bytes[k] { k += 1 }
            failure[i] = k
        }
        self.bytes = bytes
        self.failure = failure
    }

    /// Whether `haystack` contains, begins with or ends with the needle. An empty needle
    /// never matches, as in Foundation.
    ///
    /// - Complexity: O(n + m) for a haystack of n and a needle of m bytes.
    func matches(_ haystack: String, _ op: FetchPredicate.Operator, context: PredicateEvaluationContext) throws -> Bool {
        guard !bytes.isEmpty else { return false }
        try context.spend(1 + haystack.utf8.count)
        let folded = PredicateStrings.normalized(haystack, options)
        let text = Array(folded.utf8)
        let n = bytes.count
        guard text.count >= n else { return false }
        var boundaries = CharacterBoundaries(folded, count: text.count)
        switch op {
        case .beginsWith:
            return text[0..<n].elementsEqual(bytes) && boundaries.contains(n)
        case .endsWith:
            return text[(text.count - n)...].elementsEqual(bytes) && boundaries.contains(text.count - n)
        default:
            var k = 0
            for (i, byte) in text.enumerated() {
                while k > 0 && byte != bytes[k] { k = failure[k - 1] }
                if byte == bytes[k] { k += 1 }
                if k == n {
                    if boundaries.contains(i + 1 - n) && boundaries.contains(i + 1) { return true }
                    k = failure[k - 1]
                }
            }
            return false
        }
    }
}

/// The UTF-8 offsets of a string where characters (grapheme clusters) begin, found on first
/// use in one pass.
struct CharacterBoundaries {
    private let string: String
    private let count: Int
    private var starts: [Bool]?

    init(_ string: String, count: Int) {
        self.string = string
        self.count = count
    }

    /// Whether UTF-8 offset `offset` is between two characters (or at either end).
    mutating func contains(_ offset: Int) -> Bool {
        if offset <= 0 || offset >= count { return true }
        if starts == nil {
            var marks = [Bool](repeating: false, count: count + 1)
            var position = 0
            for character in string {
                marks[position] = true
                position += character.utf8.count
            }
            marks[count] = true
            starts = marks
        }
        return starts?[offset] ?? true
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
        var t = 0, p = 0
        var starP: Int?, starT = 0
        var steps = 0
        while t < text.count {
            steps += 1
            if steps == 4096 { try context.spend(steps); steps = 0 }
            if p < elements.count {
                switch elements[p] {
                case .run:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .one:
                    t += 1; p += 1
                    continue
                case .character(let c) where c == text[t]:
                    t += 1; p += 1
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
