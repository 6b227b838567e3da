extension DocumentFormat {
    /// The store format of a document from its first bytes (see ``FileContent``): binary, or
    /// XML (a `<database>` root, or an XML declaration before another root, which the XML
    /// reader then refuses with its own message). Nil for anything else.
    public static func detect(_ prefix: UnsafeRawBufferPointer) -> DocumentFormat? {
        switch FileContent.detect(prefix) {
        case .binary: .binary
        case .xmlStore, .otherXML: .xml
        case .empty, .opml, .text, .unknown: nil
        }
    }

    /// The format of a document held in `bytes`; see ``detect(_:)-(UnsafeRawBufferPointer)``.
    public static func detect(_ bytes: [UInt8]) -> DocumentFormat? {
        bytes.withUnsafeBytes { detect($0) }
    }

    /// The error for content that is in no store format: empty, OPML, text or other bytes.
    static func unknownFormatError(_ prefix: UnsafeRawBufferPointer, file: String) -> StorageError {
        let shown = prefix.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        switch FileContent.detect(prefix) {
        case .empty:
            return StorageError(
                .unknownFormat, file: file, "the file is empty",
                hint: "An interrupted save may have emptied it; \(BackupAdvice.restore(file)).")
        case .opml(let encoding):
            return StorageError(
                .unknownFormat, file: file, at: "byte 0", "not an Outline document: it is an OPML file (\(encoding.rawValue))",
                hint: "Import it into a new document first; it reads as OPML.")
        case .text(let encoding):
            let start = textStart(prefix, encoding: encoding)
            return StorageError(
                .unknownFormat, file: file, at: "byte 0",
                "not an Outline document: it is \(encoding.rawValue) text, neither binary nor XML (it starts with \(start))",
                hint: "If it is Markdown or plain text, import it into a new document first; otherwise check that the right file was chosen.")
        case .binary, .xmlStore, .otherXML, .unknown:
            // The start of the binary magic and nothing after it: a document cut short.
            if prefix.count < BinaryFormat.magic.count && prefix.elementsEqual(BinaryFormat.magic.prefix(prefix.count)) {
                return BinaryError.truncated(
                    file, at: "byte \(prefix.count)",
                    "the file ends inside the binary document's first \(BinaryFormat.magic.count) bytes (it has \(prefix.count))")
            }
            return StorageError(
                .unknownFormat, file: file, at: "byte 0",
                "not an Outline document: it is neither binary nor XML (it starts with \(shown))",
                hint: "Check that the right file was chosen.")
        }
    }

    /// The first characters of a text file, quoted, for messages.
    private static func textStart(_ prefix: UnsafeRawBufferPointer, encoding: FileContent.TextEncoding) -> String {
        var bytes = Array(prefix.prefix(256))
        if encoding == .utf8 {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            let text = String(decoding: bytes, as: UTF8.self)
            return quoted(text)
        }
        var units: [UInt16] = []
        var index = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) ? 2 : 0
        while index + 1 < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(encoding == .utf16LittleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        return quoted(String(decoding: units, as: UTF16.self))
    }

    private static func quoted(_ text: String) -> String {
        let line = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
        let cut = line.count > 24 ? line.prefix(24) + "…" : line
        return "\"" + cut.filter { $0 != "\u{FFFD}" } + "\""
    }
}
