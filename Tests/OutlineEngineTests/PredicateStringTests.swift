import Foundation
import Testing

@testable import OutlineEngine

/// `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `==` and `LIKE` with `[c]`, `[d]` and `[cd]`: the
/// answers of Foundation's string search (what `NSPredicate` uses) on tricky Unicode, in
/// work linear in the text.
@Suite struct PredicateStringTests {
    static let strings = [
        "café", "cafe\u{301}", "CAFÉ", "Crème Brûlée", "creme brulee", "ß", "SS", "ss", "straße", "STRASSE", "ﬁ", "fi", "e", "é",
        "\u{301}", "a\u{301}b", "İstanbul", "istanbul", "ıi", "Σίσυφος", "σίσυφοσ", "👩‍👩‍👧", "👩", "\u{200D}", "🇫🇷🇩🇪", "🇷🇫",
        "ǅ", "ǆ", "Ǆ", "\r\n", "\n", "\r", "x\r\ny", "ÅNGSTRÖM", "Ångström", "å", "\u{212B}", "ñ", "n\u{303}", "ÑANDÚ", "ﬀ", "ff",
        "日本語", "ガ", "a\u{0}b", "\u{0}", "Buy milk", "MILK", "q\u{303}", "q", "ab", "abab", "aab",
    ]

    static let optionSets: [FetchPredicate.Options] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]

    static func foundation(_ haystack: String, _ op: FetchPredicate.Operator, _ needle: String, _ options: FetchPredicate.Options) -> Bool {
        var compare: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compare.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compare.insert(.diacriticInsensitive) }
        switch op {
        case .beginsWith: return haystack.range(of: needle, options: compare.union(.anchored)) != nil
        case .endsWith: return haystack.range(of: needle, options: compare.union([.anchored, .backwards])) != nil
        case .equalTo: return haystack.compare(needle, options: compare) == .orderedSame
        default: return haystack.range(of: needle, options: compare) != nil
        }
    }

    static func ours(_ haystack: String, _ op: FetchPredicate.Operator, _ needle: String, _ options: FetchPredicate.Options) throws -> Bool {
        let context = PredicateEvaluationContext(workLimit: .max, slotCount: 0)
        if op == .equalTo { return PredicateComparator.equal(.value(.string(haystack)), .value(.string(needle)), options: options) }
        return try PredicateNeedle(needle, options: options).matches(haystack, op, context: context)
    }

    /// Needles where we deliberately answer otherwise: Foundation finds a lone combining
    /// mark (or ZWJ) only where the text spells it decomposed, so canonically equivalent texts
    /// get different answers, while we answer the same for both (found in both, as the mark
    /// is there); with `[d]` such a needle folds to nothing and, like the empty needle, never
    /// matches. And Foundation (on Linux) finds ligatures such as `ﬁ` with `[cd]` in texts
    /// that hold no `fi` at all.
    static func isDeliberateDifference(_ needle: String, _ options: FetchPredicate.Options) -> Bool {
        let marksOnly = needle.unicodeScalars.allSatisfy {
            [.nonspacingMark, .spacingMark, .enclosingMark, .format].contains($0.properties.generalCategory)
        }
        let ligature = needle.unicodeScalars.contains { (0xFB00 ... 0xFB06).contains($0.value) }
        return (marksOnly && !needle.isEmpty) || (ligature && options.contains(.diacriticInsensitive))
    }

    @Test(arguments: [FetchPredicate.Operator.contains, .beginsWith, .endsWith, .equalTo])
    func answersAreFoundations(op: FetchPredicate.Operator) throws {
        var differences: [String] = []
        for haystack in Self.strings {
            for needle in Self.strings {
                for options in Self.optionSets where !Self.isDeliberateDifference(needle, options) {
                    let expected = Self.foundation(haystack, op, needle, options)
                    let found = try Self.ours(haystack, op, needle, options)
                    if found != expected {
                        differences.append(
                            "\(haystack.debugDescription) \(op.rawValue)\(options.formatString) \(needle.debugDescription): Foundation \(expected), we \(found)"
                        )
                    }
                }
            }
        }
        #expect(differences.isEmpty, Comment(rawValue: "\(differences.count) differences:\n" + differences.joined(separator: "\n")))
    }
}

extension PredicateStringTests {
    /// Canonically equivalent texts give the same answers, whichever way they are spelled.
    @Test func canonicallyEquivalentTextsAnswerAlike() throws {
        for (haystack, needle, expected) in [
            ("café", "\u{301}", true), ("cafe\u{301}", "\u{301}", true), ("café", "e", false), ("cafe\u{301}", "e", false),
            ("café", "e\u{301}", true), ("cafe\u{301}", "é", true), ("q\u{303}", "q", false), ("x\r\ny", "\n", true),
            ("👩‍👩‍👧", "👩", true), ("n\u{303}a", "ñ", true),
        ] {
            #expect(try Self.ours(haystack, .contains, needle, []) == expected, "\(haystack.debugDescription) CONTAINS \(needle.debugDescription)")
        }
        #expect(try !Self.ours("café", .contains, "\u{301}", .diacriticInsensitive))
        #expect(try Self.ours("café", .beginsWith, "caf", []))
        #expect(try !Self.ours("cafe\u{301}", .endsWith, "e", []))
        #expect(try Self.ours("cafe\u{301}", .endsWith, "é", []))
    }

    /// CONTAINS is linear in the text: a 3 KB needle that almost matches everywhere in a
    /// 200 KB text (17 seconds before, quadratic in characters) is decided at once. The
    /// time limit only catches a return of the quadratic search.
    @Test(.timeLimit(.minutes(1))) func containsIsLinearInTheText() throws {
        let haystack = String(repeating: "a", count: 200_000)
        let needle = String(repeating: "a", count: 3_000) + "b"
        for options in Self.optionSets {
            #expect(try !Self.ours(haystack, .contains, needle, options))
            #expect(try !Self.ours(haystack + "é", .contains, needle, options))
            #expect(try Self.ours(haystack + needle, .contains, needle, options))
            #expect(try Self.ours(haystack + needle, .endsWith, needle, options))
        }
        // And it is charged to the budget: bytes of text, not bytes times needle.
        let context = PredicateEvaluationContext(workLimit: 250_000, slotCount: 0)
        #expect(try !PredicateNeedle(needle, options: []).matches(haystack, .contains, context: context))
    }

    static let likeCases: [(String, String, FetchPredicate.Options, Bool)] = [
        ("Buy milk", "Buy*", [], true), ("Buy milk", "b?y*", .caseInsensitive, true), ("café", "cafe", .diacriticInsensitive, true),
        ("café", "caf?", [], true), ("cafe\u{301}", "caf?", [], true), ("a*b", "a\\*b", [], true), ("axb", "a\\*b", [], false),
        ("", "*", [], true), ("", "?", [], false), ("abc", "*c", [], true), ("ÉCOLE", "é*", .caseInsensitive, true),
    ]

    @Test(arguments: likeCases)
    func likeMatchesCharacters(text: String, pattern: String, options: FetchPredicate.Options, expected: Bool) throws {
        let context = PredicateEvaluationContext(workLimit: .max, slotCount: 0)
        #expect(try LikePattern(pattern, options: options).matches(text, context: context) == expected)
    }

    /// LIKE's wildcard matching is O(n·m) at worst; every step is charged, so a hostile
    /// pattern on a long text ends in the work limit instead of running on.
    @Test func likeIsChargedToTheBudget() throws {
        let text = String(repeating: "a", count: 100_000)
        let pattern = "*" + String(repeating: "a", count: 500) + "b"
        let context = PredicateEvaluationContext(workLimit: 1_000_000, slotCount: 0)
        #expect(throws: PredicateEvaluationFailure.self) { try LikePattern(pattern, options: []).matches(text, context: context) }
    }
}
