/// Core Data's string escapes in XML stores, both ways.
///
/// Core Data writes `&`, `<` and `>` inside attribute values as a backslash-u escape of the
/// UTF-16 code unit with its two bytes swapped: `&` (U+0026) is `\u2600`, `<` is `\u3c00`,
/// `>` is `\u3e00`. Readers decode any such escape; standard XML entities have already been
/// decoded by libxml2 by then.
///
/// The writer escapes `&`, `<`, `>`; characters XML 1.0 cannot carry at all (C0 controls other
/// than tab, line feed and carriage return; U+FFFE, U+FFFF) the same way; a backslash only
/// where it would otherwise read as an escape; and a carriage return as `&#13;` (XML readers
/// turn a raw one into a line feed). Everything else, quotes, newlines and non-ASCII text
/// included, is written raw.
enum XMLStringEscaping {
    /// Per byte: whether the writer must look at it (`&`, `<`, `>`, `\`, C0 controls but tab
    /// and line feed, and 0xEF, which starts U+FFFE and U+FFFF).
    static let special: [Bool] = (0 ..< 256).map { byte in
        switch byte {
        case 0x26, 0x3C, 0x3E, 0x5C, 0xEF: true
        case 0x09, 0x0A: false
        case 0 ..< 0x20: true
        default: false
        }
    }

    // MARK: Reading

    /// Whether `text` holds a backslash, the only way an escape can start.
    @inline(__always)
    static func mayHoldEscapes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.contains(0x5C)
    }

    /// Appends `text` to `output` with every byte-swapped `\uXXXX` escape decoded.
    ///
    /// A pair of escapes forming a UTF-16 surrogate pair decodes to one character; an escape
    /// that stands for a lone surrogate is kept as written.
    static func unescape(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var i = 0
        let n = text.count
        while i < n {
            let byte = text[i]
            guard byte == 0x5C, let unit = escapedUnit(text, at: i) else {
                output.append(byte)
                i += 1
                continue
            }
            var scalar: Unicode.Scalar?
            var length = 6
            if UTF16.isLeadSurrogate(unit) {
                if let low = escapedUnit(text, at: i + 6), UTF16.isTrailSurrogate(low) {
                    scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                    length = 12
                }
            } else {
                scalar = Unicode.Scalar(unit)
            }
            guard let scalar else {
                output.append(byte)
                i += 1
                continue
            }
            appendUTF8(scalar, to: &output)
            i += length
        }
    }

    /// The UTF-16 unit of the escape `\uXXXX` at `i` (bytes swapped back), or nil when there is none.
    private static func escapedUnit(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt16? {
        guard i + 6 <= text.count, text[i] == 0x5C, text[i + 1] == 0x75 else { return nil }
        var value: UInt16 = 0
        for k in 2 ..< 6 {
            guard let digit = hexValue(text[i + k]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value.byteSwapped
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30 ... 0x39: byte - 0x30
        case 0x41 ... 0x46: byte - 0x41 + 10
        case 0x61 ... 0x66: byte - 0x61 + 10
        default: nil
        }
    }

    // MARK: Writing

    /// Appends `text` (UTF-8) to `output`, escaped for the content of an `<attribute>` element.
    static func writeEscaped(_ text: UnsafeRawBufferPointer, to output: inout XMLOutputBuffer) {
        let count = text.count
        guard count > 0 else { return }
        let bytes = text.bindMemory(to: UInt8.self)
        var runStart = 0
        var i = 0
        special.withUnsafeBufferPointer { special in
            while i < count {
                let byte = bytes[i]
                if !special[Int(byte)] {
                    i += 1
                    continue
                }
                var replacement: StaticString?
                var escapeUnit: UInt16?
                var consumed = 1
                switch byte {
                case 0x26: replacement = "\\u2600"
                case 0x3C: replacement = "\\u3c00"
                case 0x3E: replacement = "\\u3e00"
                case 0x0D: replacement = "&#13;"
                case 0x5C:
                    if escapedUnit(UnsafeBufferPointer(rebasing: bytes[i...]), at: 0) != nil { replacement = "\\u5c00" }
                case 0xEF:
                    if i + 2 < count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                        escapeUnit = bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF
                        consumed = 3
                    }
                default: escapeUnit = UInt16(byte)
                }
                guard replacement != nil || escapeUnit != nil else {
                    i += 1
                    continue
                }
                output.append(UnsafeRawBufferPointer(rebasing: text[runStart ..< i]))
                if let replacement {
                    output.append(replacement)
                } else if let escapeUnit {
                    output.appendEscape(escapeUnit)
                }
                i += consumed
                runStart = i
            }
        }
        output.append(UnsafeRawBufferPointer(rebasing: text[runStart ..< count]))
    }

    /// Appends `text` escaped with standard XML entities (`&amp;`, `&lt;`, `&gt;`, and `&quot;`
    /// in attribute values), for plist strings and XML attribute values. Characters XML cannot
    /// carry become U+FFFD; a carriage return becomes `&#13;`, and in attribute values a tab and
    /// a line feed become `&#9;` and `&#10;` (XML readers turn raw ones there into spaces).
    static func writeEntityEscaped(_ text: String, inAttribute: Bool = false, to output: inout XMLOutputBuffer) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output.append("&amp;")
            case 0x3C: output.append("&lt;")
            case 0x3E: output.append("&gt;")
            case 0x22 where inAttribute: output.append("&quot;")
            case 0x0D: output.append("&#13;")
            case 0x09 where inAttribute: output.append("&#9;")
            case 0x0A where inAttribute: output.append("&#10;")
            case 0x09, 0x0A: output.append(UInt8(scalar.value))
            case 0 ..< 0x20, 0xFFFE, 0xFFFF: output.append("\u{FFFD}")
            default: output.appendUTF8(scalar)
            }
        }
    }

    /// Appends the UTF-8 encoding of `scalar`.
    static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0 ..< 0x80:
            output.append(UInt8(v))
        case 0x80 ..< 0x800:
            output.append(0xC0 | UInt8(v >> 6))
            output.append(0x80 | UInt8(v & 0x3F))
        case 0x800 ..< 0x10000:
            output.append(0xE0 | UInt8(v >> 12))
            output.append(0x80 | UInt8(v >> 6 & 0x3F))
            output.append(0x80 | UInt8(v & 0x3F))
        default:
            output.append(0xF0 | UInt8(v >> 18))
            output.append(0x80 | UInt8(v >> 12 & 0x3F))
            output.append(0x80 | UInt8(v >> 6 & 0x3F))
            output.append(0x80 | UInt8(v & 0x3F))
        }
    }
}
