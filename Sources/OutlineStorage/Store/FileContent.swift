/// What a file holds, judged from its first bytes: the one content detection every command
/// uses (opening a document, and choosing how `convert` reads its input).
///
/// - A binary document starts with the binary magic.
/// - XML is recognised by its root element, not by its declaration: a Core Data store only
///   when the root is `<database>`, OPML only when it is `<opml>`. The declaration, processing
///   instructions, comments and a document type declaration before the root are skipped.
/// - A file that starts with an XML declaration (`<?xml`) but whose root is something else
///   (an RSS feed, a property list) is other XML.
/// - Anything else that is text is ``text(_:)``: Markdown or plain text, whatever its first
///   characters (a README may well start with `<p align="center">`).
///
/// UTF-8 (with or without a byte-order mark) and UTF-16 (with a byte-order mark, or XML starting
/// `<?` without one) are recognised; bytes that are neither, or that hold control characters
/// other than white space, are ``unknown``.
public enum FileContent: Sendable, Hashable {
    /// No bytes at all.
    case empty
    /// An Outline binary document.
    case binary
    /// XML whose root element is `<database>`: a Core Data XML store.
    case xmlStore(TextEncoding)
    /// XML whose root element is `<opml>`.
    case opml(TextEncoding)
    /// XML (it starts with an XML declaration) whose root element is neither, or lies beyond the
    /// bytes looked at (nil).
    case otherXML(root: String?, TextEncoding)
    /// Text that is not XML of a known kind: Markdown or plain text.
    case text(TextEncoding)
    /// Bytes that are not text in an encoding this library reads.
    case unknown

    /// The encodings text files are read in.
    public enum TextEncoding: String, Sendable, Hashable {
        /// UTF-8, with or without a byte-order mark.
        case utf8 = "UTF-8"
        /// UTF-16, least significant byte first (byte-order mark `FF FE`).
        case utf16LittleEndian = "UTF-16LE"
        /// UTF-16, most significant byte first (byte-order mark `FE FF`).
        case utf16BigEndian = "UTF-16BE"
    }

    /// How many leading bytes detection looks at; a root element further in is not seen.
    public static let prefixSize = 4096

    /// The content of a file that starts with `prefix` (its first ``prefixSize`` bytes, or all of
    /// it when shorter).
    ///
    /// - Complexity: O(`prefix.count`).
    public static func detect(_ prefix: UnsafeRawBufferPointer) -> FileContent {
        if prefix.isEmpty { return .empty }
        if BinaryStore.hasMagic(prefix) { return .binary }
        let bytes = Array(prefix.prefix(prefixSize))
        let complete = prefix.count < prefixSize
        if let (encoding, units) = utf16(bytes) {
            return classify(text: String(decoding: units, as: UTF16.self), encoding: encoding)
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // A NUL byte does not occur in text files (as git decides). Other control characters
        // do (an escape sequence in a title that was written out as text, a bell; the
        // readers show them escaped), but bytes more than half of which are such are not text.
        let controls = body.lazy.filter { $0 < 0x20 && !(0x09 ... 0x0D).contains($0) }.count
        let control = controls * 2 > body.count ? body.startIndex : body.firstIndex(of: 0)
        if control == nil, isUTF8(body, complete: complete) {
            return classify(text: String(decoding: body, as: UTF8.self), encoding: .utf8)
        }
        // Bytes that are not UTF-8 text part-way (another declared encoding, or damage): the
        // markup before them still names the root element, and the XML reader reports the bad
        // bytes with their line. Anything else that is not UTF-8 text is not a text file.
        let clean = body[..<(control ?? body.endIndex)]
        let valid = clean.prefix(validUTF8Length(clean))
        let content = classify(text: String(decoding: valid, as: UTF8.self), encoding: .utf8)
        switch content {
        case .xmlStore, .opml, .otherXML: return content
        default: return .unknown
        }
    }

    /// The length of the longest prefix of `bytes` that is whole UTF-8 characters.
    private static func validUTF8Length(_ bytes: ArraySlice<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var length = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            length += UTF8.width(scalar)
        }
        return length
    }

    /// The content of a file held in `bytes`; see ``detect(_:)-(UnsafeRawBufferPointer)``.
    public static func detect(_ bytes: [UInt8]) -> FileContent {
        bytes.withUnsafeBytes { detect($0) }
    }

    /// The name of the root element, skipping the XML declaration, processing instructions,
    /// comments and the document type declaration; nil when `text` ends first or does not start
    /// like markup.
    public static func rootElement(_ text: Substring) -> String? {
        var rest = text
        func skip(past terminator: String) {
            if let range = rest.range(of: terminator) { rest = rest[range.upperBound...] } else { rest = rest[rest.endIndex...] }
        }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            if rest.isEmpty { return nil }
            if rest.hasPrefix("<?") {
                skip(past: "?>")
                continue
            }
            if rest.hasPrefix("<!--") {
                skip(past: "-->")
                continue
            }
            if rest.hasPrefix("<!") {
                skip(past: ">")
                continue
            }
            guard rest.first == "<" else { return nil }
            let name = rest.dropFirst().prefix { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == ">" || $0 == "/") }
            guard rest.dropFirst(name.count + 1).first != nil else { return nil }
            return name.lowercased()
        }
    }

    private static func classify(text: String, encoding: TextEncoding) -> FileContent {
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{FEFF}" }
        guard trimmed.first == "<" else { return .text(encoding) }
        let root = rootElement(trimmed)
        switch root {
        case "database": return .xmlStore(encoding)
        case "opml": return .opml(encoding)
        default: return trimmed.hasPrefix("<?xml") ? .otherXML(root: root, encoding) : .text(encoding)
        }
    }

    /// The UTF-16 code units of `bytes` when they are UTF-16: a byte-order mark, or `<?` (the
    /// start of an XML declaration) encoded in UTF-16 without one.
    private static func utf16(_ bytes: [UInt8]) -> (TextEncoding, [UInt16])? {
        let encoding: TextEncoding
        var start = 0
        if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
            start = 2
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
            start = 2
        } else if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) {
            encoding = .utf16LittleEndian
        } else if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) {
            encoding = .utf16BigEndian
        } else {
            return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var index = start
        while index + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(encoding == .utf16LittleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        return (encoding, units)
    }

    /// Whether `bytes` is UTF-8; when not `complete`, a character cut off at the end is allowed.
    private static func isUTF8(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Bool {
        var checked = bytes
        if !complete, let lead = checked.lastIndex(where: { $0 & 0xC0 != 0x80 }), checked[lead] >= 0xC0 {
            checked = checked[..<lead]
        }
        return checked.withUnsafeBytes { UTF8Validation.isValid($0) }
    }
}
