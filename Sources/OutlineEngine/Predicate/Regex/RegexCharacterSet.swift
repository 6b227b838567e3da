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
        .ranges(list.map { $0.value ... $0.value })
    }

    // The predefined sets are made on each use: a set held in a global would be reported as
    // leaked by LeakSanitizer, which does not see the tagged pointers of indirect enums.

    /// ICU's `\w`: letters, marks, decimal digits, connector punctuation, ZWNJ and ZWJ.
    static var word: RegexCharacterSet {
        .union([
            .property(.alphabetic), .property(.category([.nonspacingMark, .spacingMark, .enclosingMark])),
            .property(.category([.decimalNumber])), .property(.category([.connectorPunctuation])),
            .ranges([0x200C ... 0x200D]),
        ])
    }
    /// `\d`.
    static var digit: RegexCharacterSet { .property(.category([.decimalNumber])) }
    /// `\s`.
    static var space: RegexCharacterSet { .property(.whiteSpace) }
    /// `\h`: horizontal white space.
    static var horizontalSpace: RegexCharacterSet { .union([.property(.category([.spaceSeparator])), .ranges([0x09 ... 0x09])]) }
    /// `\v` and the line terminators of `.`, `^` and `$`.
    static var lineTerminator: RegexCharacterSet { .ranges([0x0A ... 0x0D, 0x85 ... 0x85, 0x2028 ... 0x2029]) }

    /// Whether `c` is in ``word``, without making the set (for `\b` at every position).
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return p.isAlphabetic || c.value == 0x200C || c.value == 0x200D
        }
    }

    /// Whether `c` is in ``lineTerminator``, without making the set.
    static func isLineTerminator(_ c: Unicode.Scalar) -> Bool {
        (0x0A ... 0x0D).contains(c.value) || c.value == 0x85 || c.value == 0x2028 || c.value == 0x2029
    }
}
