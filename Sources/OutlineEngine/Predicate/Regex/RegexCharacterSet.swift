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

    /// Membership ignoring case: `c` or one of its simple case variants is in the set.
    func contains(_ c: Unicode.Scalar, caseless: Bool) -> Bool {
        if contains(c) { return true }
        guard caseless else { return false }
        return RegexCase.variants(of: c).contains { contains($0) }
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
    /// The other scalars that are the same letter in another case (`a` for `A`, `ſ` and `S` for `s`).
    static func variants(of c: Unicode.Scalar) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        let p = c.properties
        for mapping in [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let s = scalars.first, s != c, !result.contains(s) { result.append(s) }
        }
        // Scalars whose lowercase is c's lowercase (K, k and the Kelvin sign) compare equal too.
        if let lower = single(p.lowercaseMapping), let upper = single(lower.properties.uppercaseMapping) {
            for s in [lower, upper] where s != c && !result.contains(s) { result.append(s) }
        }
        return result
    }

    private static func single(_ s: String) -> Unicode.Scalar? {
        let scalars = s.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    /// Whether two scalars are equal ignoring case.
    static func equal(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        a == b || variants(of: a).contains(b)
    }
}
