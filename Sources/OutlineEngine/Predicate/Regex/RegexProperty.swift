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
        if let categories = Self.categories[key] {
            self = .category(categories)
            return
        }
        if let binary = Self.binary[key] {
            self = binary
            return
        }
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
        let punctuation: Set<G> = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
        ]
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
        case "punct":
            return .property(
                .category([
                    .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                    .initialPunctuation, .finalPunctuation, .otherPunctuation,
                ]))
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
