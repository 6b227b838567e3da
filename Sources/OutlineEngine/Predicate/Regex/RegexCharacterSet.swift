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

/// A Unicode property a set can test: a general category (or several) or a binary property.
enum RegexProperty: Sendable {
    case category(Set<Unicode.GeneralCategory>)
    case alphabetic, whiteSpace, uppercase, lowercase, math, hexDigit, asciiHexDigit, ideographic, dash
    case diacritic, emoji, any, ascii, assigned, noncharacter, defaultIgnorable, cased, caseIgnorable, joinControl

    func contains(_ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        switch self {
        case .category(let categories): return categories.contains(p.generalCategory)
        case .alphabetic: return p.isAlphabetic
        case .whiteSpace: return p.isWhitespace
        case .uppercase: return p.isUppercase
        case .lowercase: return p.isLowercase
        case .math: return p.isMath
        case .hexDigit: return p.isHexDigit
        case .asciiHexDigit: return p.isASCIIHexDigit
        case .ideographic: return p.isIdeographic
        case .dash: return p.isDash
        case .diacritic: return p.isDiacritic
        case .emoji: return p.isEmoji
        case .any: return true
        case .ascii: return c.isASCII
        case .assigned: return p.generalCategory != .unassigned
        case .noncharacter: return p.isNoncharacterCodePoint
        case .defaultIgnorable: return p.isDefaultIgnorableCodePoint
        case .cased: return p.isCased
        case .caseIgnorable: return p.isCaseIgnorable
        case .joinControl: return p.isJoinControl
        }
    }

    /// The property named `name` (`L`, `Lu`, `Letter`, `gc=Lu`, `Alphabetic`, `alpha`,
    /// `White_Space`, ...), matched loosely as ICU does: case, spaces, hyphens and
    /// underscores ignored. `nil` for names this engine does not know (scripts, blocks).
    init?(named name: String) {
        var key = Self.loose(name)
        for prefix in ["gc=", "generalcategory="] where key.hasPrefix(prefix) { key = String(key.dropFirst(prefix.count)) }
        if let categories = Self.categories[key] { self = .category(categories); return }
        if let binary = Self.binary[key] { self = binary; return }
        return nil
    }

    static func loose(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    private static let categories: [String: Set<Unicode.GeneralCategory>] = {
        typealias G = Unicode.GeneralCategory
        let letters: Set<G> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: Set<G> = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: Set<G> = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: Set<G> = [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                   .initialPunctuation, .finalPunctuation, .otherPunctuation]
        let symbols: Set<G> = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: Set<G> = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let others: Set<G> = [.control, .format, .surrogate, .privateUse, .unassigned]
        var table: [String: Set<G>] = [:]
        func add(_ names: [String], _ set: Set<G>) { for n in names { table[loose(n)] = set } }
        add(["L", "Letter"], letters)
        add(["LC", "Cased_Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter])
        add(["Lu", "Uppercase_Letter"], [.uppercaseLetter])
        add(["Ll", "Lowercase_Letter"], [.lowercaseLetter])
        add(["Lt", "Titlecase_Letter"], [.titlecaseLetter])
        add(["Lm", "Modifier_Letter"], [.modifierLetter])
        add(["Lo", "Other_Letter"], [.otherLetter])
        add(["M", "Mark", "Combining_Mark"], marks)
        add(["Mn", "Nonspacing_Mark"], [.nonspacingMark])
        add(["Mc", "Spacing_Mark"], [.spacingMark])
        add(["Me", "Enclosing_Mark"], [.enclosingMark])
        add(["N", "Number"], numbers)
        add(["Nd", "Decimal_Number", "digit"], [.decimalNumber])
        add(["Nl", "Letter_Number"], [.letterNumber])
        add(["No", "Other_Number"], [.otherNumber])
        add(["P", "Punctuation", "punct"], punctuation)
        add(["Pc", "Connector_Punctuation"], [.connectorPunctuation])
        add(["Pd", "Dash_Punctuation"], [.dashPunctuation])
        add(["Ps", "Open_Punctuation"], [.openPunctuation])
        add(["Pe", "Close_Punctuation"], [.closePunctuation])
        add(["Pi", "Initial_Punctuation"], [.initialPunctuation])
        add(["Pf", "Final_Punctuation"], [.finalPunctuation])
        add(["Po", "Other_Punctuation"], [.otherPunctuation])
        add(["S", "Symbol"], symbols)
        add(["Sm", "Math_Symbol"], [.mathSymbol])
        add(["Sc", "Currency_Symbol"], [.currencySymbol])
        add(["Sk", "Modifier_Symbol"], [.modifierSymbol])
        add(["So", "Other_Symbol"], [.otherSymbol])
        add(["Z", "Separator"], separators)
        add(["Zs", "Space_Separator"], [.spaceSeparator])
        add(["Zl", "Line_Separator"], [.lineSeparator])
        add(["Zp", "Paragraph_Separator"], [.paragraphSeparator])
        add(["C", "Other"], others)
        add(["Cc", "Control", "cntrl"], [.control])
        add(["Cf", "Format"], [.format])
        add(["Cs", "Surrogate"], [.surrogate])
        add(["Co", "Private_Use"], [.privateUse])
        add(["Cn", "Unassigned"], [.unassigned])
        return table
    }()

    private static let binary: [String: RegexProperty] = {
        var table: [String: RegexProperty] = [:]
        func add(_ names: [String], _ p: RegexProperty) { for n in names { table[loose(n)] = p } }
        add(["Alphabetic", "Alpha"], .alphabetic)
        add(["White_Space", "WSpace", "space"], .whiteSpace)
        add(["Uppercase", "Upper"], .uppercase)
        add(["Lowercase", "Lower"], .lowercase)
        add(["Math"], .math)
        add(["Hex_Digit", "Hex", "xdigit"], .hexDigit)
        add(["ASCII_Hex_Digit", "AHex"], .asciiHexDigit)
        add(["Ideographic", "Ideo"], .ideographic)
        add(["Dash"], .dash)
        add(["Diacritic", "Dia"], .diacritic)
        add(["Emoji"], .emoji)
        add(["Any"], .any)
        add(["ASCII"], .ascii)
        add(["Assigned"], .assigned)
        add(["Noncharacter_Code_Point", "NChar"], .noncharacter)
        add(["Default_Ignorable_Code_Point", "DI"], .defaultIgnorable)
        add(["Cased"], .cased)
        add(["Case_Ignorable", "CI"], .caseIgnorable)
        add(["Join_Control", "Join_C"], .joinControl)
        return table
    }()

    /// The POSIX class `[:name:]` as ICU defines it.
    static func posix(_ name: String) -> RegexCharacterSet? {
        switch name.lowercased() {
        case "alpha": return .property(.alphabetic)
        case "digit": return RegexCharacterSet.digit
        case "alnum": return .union([.property(.alphabetic), RegexCharacterSet.digit])
        case "upper": return .property(.uppercase)
        case "lower": return .property(.lowercase)
        case "punct": return .property(.category([.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                                   .initialPunctuation, .finalPunctuation, .otherPunctuation]))
        case "space": return RegexCharacterSet.space
        case "blank": return RegexCharacterSet.horizontalSpace
        case "cntrl": return .property(.category([.control]))
        case "xdigit": return .property(.hexDigit)
        case "word": return RegexCharacterSet.word
        case "graph":
            return .inverted(.union([RegexCharacterSet.space, .property(.category([.control, .surrogate, .unassigned]))]))
        case "print":
            return .difference(.union([posix("graph") ?? .ranges([]), RegexCharacterSet.horizontalSpace]), .property(.category([.control])))
        default: return nil
        }
    }
}

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
            return [("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32) ?? c : c]
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
