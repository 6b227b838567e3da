/// How many terminal columns text takes: East Asian wide and full-width characters and emoji
/// two, combining marks and other zero-width characters none, everything else one.
///
/// The tables follow Unicode's East Asian Width property (W and F) for the common blocks and
/// the Emoji_Presentation property; a grapheme cluster takes the width of its widest scalar
/// (so a base letter with combining accents takes one column, an emoji with a skin-tone
/// modifier or a ZWJ sequence two).
public enum TextWidth {
    /// The columns `character` takes (0, 1 or 2).
    public static func columns(of character: Character) -> Int {
        if character.isASCII {
            return character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F ? 1 : 0 } ?? 1
        }
        var widest = 0
        for scalar in character.unicodeScalars {
            let width = columns(of: scalar)
            if width > widest { widest = width }
            if widest == 2 { break }
        }
        return widest
    }

    /// The columns `text` takes.
    public static func columns<S: Sequence>(of text: S) -> Int where S.Element == Character {
        var total = 0
        for character in text { total += columns(of: character) }
        return total
    }

    /// The columns one scalar takes on its own.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (value >= 0xFE00 && value <= 0xFE0F) || (value >= 0xE0100 && value <= 0xE01EF) { return 0 }
        if value >= 0x1160 && value <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    /// Blocks of East Asian Width W or F (ideographs, kana, Hangul syllables, full-width forms).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100 ... 0x115F, 0x231A ... 0x231B, 0x2329 ... 0x232A, 0x2E80 ... 0x303E, 0x3041 ... 0x33FF,
        0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xA000 ... 0xA4CF, 0xA960 ... 0xA97F, 0xAC00 ... 0xD7A3,
        0xF900 ... 0xFAFF, 0xFE10 ... 0xFE19, 0xFE30 ... 0xFE6F, 0xFF00 ... 0xFF60, 0xFFE0 ... 0xFFE6,
        0x1F300 ... 0x1F64F, 0x1F900 ... 0x1F9FF, 0x20000 ... 0x2FFFD, 0x30000 ... 0x3FFFD,
    ]
}
