import Foundation
import OutlineStorage

/// Decoding and splitting the text files Markdown and plain-text import read.
enum InterchangeText {
    /// `data` as text: UTF-16 when it starts with a UTF-16 byte-order mark, else UTF-8 without a
    /// byte-order mark; invalid bytes become U+FFFD, with a warning.
    static func decode(_ data: Data, log: inout WarningLog) throws -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes.first == 0xFF
            let text = decodeUTF16(bytes.dropFirst(2), littleEndian: littleEndian)
            if (bytes.count - 2) % 2 != 0 || text.contains("\u{FFFD}") {
                let line = 1 + (text.firstIndex(of: "\u{FFFD}").map { text[..<$0].count(where: { $0 == "\n" || $0 == "\r\n" }) } ?? 0)
                try log.add(
                    line: line, "the file is not valid UTF-16; what is not was read as U+FFFD",
                    hint: "Save the file as UTF-8.", key: "utf16")
            }
            return text
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let nul = bytes.firstIndex(of: 0) {
            try log.add(
                line: 1 + bytes[..<nul].count(where: { $0 == 0x0A }),
                "the file holds a NUL byte, which text files do not; it was read as U+0000 (shown as \\u{0})",
                hint: "Check that this is the file you meant; a damaged or binary file reads as nonsense.", key: "nul")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if !text.utf8.elementsEqual(bytes) {
            let valid = zip(text.utf8, bytes).prefix { $0 == $1 }.count
            let line = 1 + bytes.prefix(valid).count(where: { $0 == 0x0A })
            try log.add(
                line: line, "the file is not valid UTF-8; the bytes that are not were read as U+FFFD",
                hint: "Save the file as UTF-8.", key: "utf8")
        }
        return text
    }

    /// The first bytes of a file as text in `encoding`, for guessing its format (a character
    /// cut off at the end is dropped).
    static func decodeLeniently(_ prefix: [UInt8], encoding: FileContent.TextEncoding) -> String {
        switch encoding {
        case .utf8:
            var bytes = prefix[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            return String(decoding: bytes, as: UTF8.self)
        case .utf16LittleEndian, .utf16BigEndian:
            let bom = prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF])
            return decodeUTF16(prefix.dropFirst(bom ? 2 : 0), littleEndian: encoding == .utf16LittleEndian)
        }
    }

    private static func decodeUTF16(_ bytes: some Collection<UInt8>, littleEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var iterator = bytes.makeIterator()
        while let first = iterator.next(), let second = iterator.next() {
            units.append(littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second))
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Calls `body` with each line of `text`, without its `\n` or `\r\n`; a final line break
    /// does not start another line.
    static func forEachLine(_ text: String, _ body: (Substring) throws -> Void) rethrows {
        var lines = lines(of: text)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines { try body(line) }
    }

    /// The lines of `text`, split at `\n`, `\r\n` and `\r`; a text ending in a line break ends
    /// with an empty line.
    ///
    /// - Complexity: O(bytes), over the UTF-8 bytes (line breaks are ASCII, and a character never
    ///   spans one).
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                bytes.formIndex(after: &index)
                continue
            }
            lines.append(text[start ..< index])
            bytes.formIndex(after: &index)
            if byte == 0x0D, index < bytes.endIndex, bytes[index] == 0x0A { bytes.formIndex(after: &index) }
            start = index
        }
        lines.append(text[start...])
        return lines
    }
}
