/// A set of Unicode scalars in a regular expression: `[a-z]`, `\d`, `\p{Lu}`, `[[:alpha:]]`,
/// and their unions, intersections (`&&`), differences (`--`) and complements.
indirect enum RegexCharacterSet: Sendable {
    case ranges([ClosedRange<UInt32>])
    case property(RegexProperty)
    case union([RegexCharacterSet])
    case intersection(RegexCharacterSet, RegexCharacterSet)
    case difference(RegexCharacterSet, RegexCharacterSet)
    case inverted(RegexCharacterSet)

    func contains(_ c: Unicode.Scalar) -> Bool {
        switch self {
        case .ranges(let ranges): return ranges.contains { $0.contains(c.value) }
        case .property(let p): return p.contains(c)
        case .union(let sets): return sets.contains { $0.contains(c) }
        case .intersection(let a, let b): return a.contains(c) && b.contains(c)
        case .difference(let a, let b): return a.contains(c) && !b.contains(c)
        case .inverted(let set): return !set.contains(c)
        }
    }

    /// Membership ignoring case, as ICU closes a set over case before complementing it: a
    /// range or property holds `c` when it holds `c` or one of its case variants, and
    /// complements, intersections and differences apply to that.
    func contains(_ c: Unicode.Scalar, caseless: Bool) -> Bool {
        guard caseless else { return contains(c) }
        return containsAny([c] + RegexCase.variants(of: c))
    }

    private func containsAny(_ scalars: [Unicode.Scalar]) -> Bool {
        switch self {
        case .ranges, .property: return scalars.contains { contains($0) }
        case .union(let sets): return sets.contains { $0.containsAny(scalars) }
        case .intersection(let a, let b): return a.containsAny(scalars) && b.containsAny(scalars)
        case .difference(let a, let b): return a.containsAny(scalars) && !b.containsAny(scalars)
        case .inverted(let set): return !set.containsAny(scalars)
        }
    }

    static func scalars(_ list: [Unicode.Scalar]) -> RegexCharacterSet {
        .ranges(list.map { $0.value...$0.value })
    }

    /// ICU's `\w`: letters, marks, decimal digits, connector punctuation, ZWNJ and ZWJ.
    static let word: RegexCharacterSet = .union([.property(.alphabetic), .property(.category([.nonspacingMark, .spacingMark, .enclosingMark])),
                                                 .property(.category([.decimalNumber])), .property(.category([.connectorPunctuation])),
                                                 .ranges([0x200C...0x200D])])
    /// `\d`.
    static let digit: RegexCharacterSet = .property(.category([.decimalNumber]))
    /// `\s`.
    static let space: RegexCharacterSet = .property(.whiteSpace)
    /// `\h`: horizontal white space.
    static let horizontalSpace: RegexCharacterSet = .union([.property(.category([.spaceSeparator])), .ranges([0x09...0x09])])
    /// `\v` and the line terminators of `.`, `^` and `$`.
    static let lineTerminator: RegexCharacterSet = .ranges([0x0A...0x0D, 0x85...0x85, 0x2028...0x2029])
}
