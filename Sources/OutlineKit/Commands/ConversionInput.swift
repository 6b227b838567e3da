import Foundation
import OutlineStorage

/// How `outline convert` reads its input, decided from the content: binary and Core Data
/// XML documents are stores, XML whose root element is `<opml>` is OPML; other text is
/// Markdown or plain text (by extension, else by whether it has list markers).
enum ConversionInput: Equatable {
    case store
    case interchange(InterchangeFormat)

    /// How many leading bytes detection looks at.
    static let prefixSize = 4096

    /// The way to read `file`, from its first bytes (read from its one descriptor, so that the
    /// rest can be read from it too).
    static func detect(file: DocumentFile) throws -> ConversionInput {
        let prefix = try file.prefix(prefixSize)
        return detect(prefix: Array(prefix), pathExtension: ConversionFormat.pathExtension(file.path))
    }

    /// The way to read a file starting with `prefix` and named with `pathExtension`.
    static func detect(prefix: [UInt8], pathExtension ext: String) -> ConversionInput {
        if prefix.isEmpty || ext == "outline" || DocumentFormat.detect(prefix) == .binary { return .store }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if bytes.first == UInt8(ascii: "<") {
            return rootElement(bytes) == "opml" || ext == "opml" ? .interchange(.opml) : .store
        }
        if let format = InterchangeFormat(pathExtension: ext) { return .interchange(format) }
        // Binary junk is left to the store reader, which names what it found.
        guard !prefix.contains(0), isUTF8(prefix, complete: prefix.count < prefixSize) else { return .store }
        return looksLikeMarkdown(prefix) ? .interchange(.markdown) : .interchange(.text)
    }

    /// Whether `bytes` is UTF-8; when not `complete`, a character cut off at the end is allowed.
    static func isUTF8(_ bytes: [UInt8], complete: Bool) -> Bool {
        var checked = bytes[...]
        if !complete, let lead = checked.lastIndex(where: { $0 & 0xC0 != 0x80 }) {
            checked = checked[..<lead]
        }
        return String(validating: checked, as: UTF8.self) != nil
    }

    /// The name of the first element, skipping the XML declaration, processing instructions,
    /// comments and the document type declaration; nil when the prefix ends first.
    static func rootElement(_ bytes: ArraySlice<UInt8>) -> String? {
        var rest = bytes
        func skip(past terminator: String) {
            let end = Array(terminator.utf8)
            while !rest.isEmpty && !rest.starts(with: end) { rest = rest.dropFirst() }
            rest = rest.dropFirst(end.count)
        }
        while !rest.isEmpty {
            rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if rest.starts(with: Array("<?".utf8)) { skip(past: "?>"); continue }
            if rest.starts(with: Array("<!--".utf8)) { skip(past: "-->"); continue }
            if rest.starts(with: Array("<!".utf8)) { skip(past: ">"); continue }
            guard rest.first == UInt8(ascii: "<") else { return nil }
            let name = rest.dropFirst().prefix { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/")) }
            return String(decoding: name, as: UTF8.self).lowercased()
        }
        return nil
    }

    /// Whether one of the first lines is a Markdown list item or heading (`- `, `* `, `+ `, `1. `, `#`).
    static func looksLikeMarkdown(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline).prefix(20) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("+ ") || trimmed.hasPrefix("#") {
                return true
            }
            let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, trimmed.dropFirst(digits.count).hasPrefix(". ") || trimmed.dropFirst(digits.count).hasPrefix(") ") {
                return true
            }
        }
        return false
    }
}
