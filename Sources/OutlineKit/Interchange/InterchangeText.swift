import Foundation

/// Decoding and splitting the text files Markdown and plain-text import read.
enum InterchangeText {
    /// `data` as UTF-8 without a byte-order mark; invalid bytes become U+FFFD, with a warning.
    static func decode(_ data: Data, log: inout WarningLog) throws -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        if !text.utf8.elementsEqual(bytes) {
            let valid = zip(text.utf8, bytes).prefix { $0 == $1 }.count
            let line = 1 + bytes.prefix(valid).count(where: { $0 == 0x0A })
            try log.add(line: line, "the file is not valid UTF-8; the bytes that are not were read as U+FFFD",
                        hint: "Save the file as UTF-8.", key: "utf8")
        }
        return text
    }

    /// Calls `body` with each line of `text`, without its `\n` or `\r\n`; a final line break
    /// does not start another line.
    static func forEachLine(_ text: String, _ body: (Substring) throws -> Void) rethrows {
        var lines = lines(of: text)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines { try body(line) }
    }

    /// The lines of `text`, split at `\n`, `\r\n` and `\r` (Swift keeps `\r\n` as one
    /// character, so splitting at `\n` alone would miss it).
    static func lines(of text: String) -> [Substring] {
        text[...].split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }
}
