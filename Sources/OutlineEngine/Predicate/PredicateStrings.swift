import Foundation

/// String operations of predicates under the `[c]` and `[d]` options.
///
/// Options work by folding both strings with Foundation's `folding(options:locale:)`
/// (case folding for `[c]`, diacritic removal for `[d]`), then comparing characters, which
/// Swift does up to canonical equivalence.
enum PredicateStrings {
    static func fold(_ s: String, _ options: FetchPredicate.Options) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? s : s.folding(options: folding, locale: nil)
    }

    /// Foundation's `compare(_:options:)`.
    static func compare(_ s: String, _ t: String, _ options: FetchPredicate.Options) -> ComparisonResult {
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        return s.compare(t, options: compareOptions)
    }

    /// `CONTAINS`, `BEGINSWITH` or `ENDSWITH` with an already folded needle. An empty needle
    /// never matches, as in Foundation.
    static func matches(_ haystack: String, _ op: FetchPredicate.Operator, foldedNeedle needle: String,
                        options: FetchPredicate.Options) -> Bool {
        guard !needle.isEmpty else { return false }
        let folded = fold(haystack, options)
        switch op {
        case .beginsWith: return folded.hasPrefix(needle)
        case .endsWith: return folded.hasSuffix(needle)
        default: return folded.contains(needle)
        }
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

    /// Whether the whole of `string` matches, in O(n·m) worst-case time and without recursion.
    func matches(_ string: String) -> Bool {
        let text = Array(PredicateStrings.fold(string, options))
        var t = 0, p = 0
        var starP: Int?, starT = 0
        while t < text.count {
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
        while p < elements.count, elements[p] == .run { p += 1 }
        return p == elements.count
    }
}

/// A `MATCHES` regular expression, compiled to match whole strings.
struct MatchesPattern: Sendable {
    let regex: NSRegularExpression
    let options: FetchPredicate.Options

    /// Compiles `pattern`; `nil` when it is not a valid regular expression.
    init?(_ pattern: String, options: FetchPredicate.Options) {
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let source = options.contains(.diacriticInsensitive) ? PredicateStrings.fold(pattern, [.diacriticInsensitive]) : pattern
        // Check the pattern on its own first so that "a)(b" is not made valid by the wrapping.
        guard (try? NSRegularExpression(pattern: source, options: regexOptions)) != nil,
              let regex = try? NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: regexOptions)
        else { return nil }
        self.regex = regex
        self.options = options
    }

    func matches(_ string: String) -> Bool {
        let subject = options.contains(.diacriticInsensitive) ? PredicateStrings.fold(string, [.diacriticInsensitive]) : string
        let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        return regex.firstMatch(in: subject, options: [], range: range) != nil
    }
}
