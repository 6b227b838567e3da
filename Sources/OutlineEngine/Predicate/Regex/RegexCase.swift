/// Simple case variants of a scalar, for case-insensitive matching.
enum RegexCase {
    /// The other scalars that are the same letter in another case (`a` for `A`; `S` and
    /// `ſ` for `s`): the closure of the single-scalar lowercase, uppercase and titlecase
    /// mappings, and of the scalars that fold to a letter without being its case mapping.
    static func variants(of c: Unicode.Scalar) -> [Unicode.Scalar] {
        // Dotless ı folds to nothing else: only Turkic folding pairs it with I.
        if c == "\u{131}" { return [] }
        var seen: [Unicode.Scalar] = [c]
        var index = 0
        while index < seen.count && seen.count < 8 {
            let s = seen[index]
            let p = s.properties
            var next = [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping].compactMap(single)
            next += (foldingTo[s.value] ?? []).compactMap(Unicode.Scalar.init)
            for n in next where !seen.contains(n) && n != "\u{131}" { seen.append(n) }
            index += 1
        }
        return Array(seen.dropFirst())
    }

    /// Lowercase letters and the other scalars that fold to them under simple case folding
    /// but are no case mapping of them (from Unicode's CaseFolding.txt).
    private static let foldingTo: [UInt32: [UInt32]] = [
        0x73: [0x17F], 0x6B: [0x212A], 0xDF: [0x1E9E], 0xE5: [0x212B], 0x3C9: [0x2126], 0x3B2: [0x3D0], 0x3B5: [0x3F5],
        0x3B8: [0x3D1, 0x3F4], 0x3B9: [0x345, 0x1FBE], 0x3BA: [0x3F0], 0x3BC: [0xB5], 0x3C0: [0x3D6], 0x3C1: [0x3F1],
        0x3C3: [0x3C2], 0x3C6: [0x3D5], 0x1E61: [0x1E9B], 0x432: [0x1C80], 0x434: [0x1C81], 0x43E: [0x1C82], 0x441: [0x1C83],
        0x442: [0x1C84, 0x1C85], 0x44A: [0x1C86], 0x463: [0x1C87], 0xA64B: [0x1C88],
    ]

    private static func single(_ s: String) -> Unicode.Scalar? {
        let scalars = s.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    /// The full case folding of `c` (`ß` and `ẞ` fold to `ss`, `ﬁ` to `fi`, `A` to `a`): its
    /// uppercase's lowercase, which gives the same classes as Unicode's full case folding,
    /// except that dotless `ı` stays itself, as in default (non-Turkic) folding.
    static func fold(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        if c.isASCII {
            return [("A" ... "Z").contains(c) ? Unicode.Scalar(c.value + 32) ?? c : c]
        }
        if c == "\u{131}" { return [c] }
        // Twice: ẞ lowercases to ß, which folds to ss.
        return Array(String(c).uppercased().lowercased().uppercased().lowercased().unicodeScalars)
    }

    /// Whether two scalars are equal ignoring case.
    static func equal(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || variants(of: a).contains(b)
    }
}
