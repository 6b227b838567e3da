/// Text from documents made visible for a terminal: control characters (an escape sequence
/// that would clear the screen or retitle the window, a newline that would break a tree into
/// lines) are written as backslash escapes, so that what is shown is what is stored, one
/// line per item.
///
/// Escaped: the C0 controls, DEL and the C1 controls (`\n`, `\r`, `\t`, `\e` for the common
/// ones, `\u{7F}` style for the others) and the bidirectional overrides and isolates
/// (U+202A…U+202E, U+2066…U+2069), which reorder what follows them on the line. Everything
/// else, a backslash included, is shown as it is.
public enum ControlCharacters {
    /// Whether `text` holds a character ``escaped(_:)`` rewrites.
    public static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isEscaped)
    }

    /// `text` with every control character written as a visible escape.
    ///
    /// - Complexity: O(length); text without control characters is returned as it is.
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isEscaped(scalar) else {
                out.append(scalar)
                continue
            }
            let replacement =
                switch scalar.value {
                case 0x0A: "\\n"
                case 0x0D: "\\r"
                case 0x09: "\\t"
                case 0x1B: "\\e"
                default: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            out.append(contentsOf: replacement.unicodeScalars)
        }
        return String(out)
    }

    /// Whether `scalar` is shown escaped.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ..< 0x20, 0x7F ..< 0xA0, 0x202A ... 0x202E, 0x2066 ... 0x2069: true
        default: false
        }
    }
}
