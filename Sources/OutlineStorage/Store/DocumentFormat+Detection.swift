extension DocumentFormat {
    /// The format of a document from its first bytes: the binary magic, or XML (`<?xml` or
    /// `<database>`, after an optional byte-order mark and white space). Nil for anything else.
    public static func detect(_ prefix: UnsafeRawBufferPointer) -> DocumentFormat? {
        if BinaryStore.hasMagic(prefix) { return .binary }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        for opening in ["<?xml", "<database", "<!DOCTYPE database"] where bytes.starts(with: opening.utf8) {
            return .xml
        }
        return nil
    }

    /// The format of a document held in `bytes`; see ``detect(_:)-(UnsafeRawBufferPointer)``.
    public static func detect(_ bytes: [UInt8]) -> DocumentFormat? {
        bytes.withUnsafeBytes { detect($0) }
    }

    /// How many leading bytes ``detect(_:)-(UnsafeRawBufferPointer)`` needs at most.
    static let detectionPrefix = 64

    /// The error for content that is in no known format.
    static func unknownFormatError(_ prefix: UnsafeRawBufferPointer, file: String) -> StorageError {
        guard !prefix.isEmpty else {
            return StorageError(.unknownFormat, file: file, "the file is empty",
                                hint: "An interrupted save may have emptied it; \(BackupAdvice.restore(file)).")
        }
        let shown = prefix.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        return StorageError(.unknownFormat, file: file, at: "byte 0",
                            "not an Outline document: it is neither binary nor XML (it starts with \(shown))",
                            hint: "Check that the right file was chosen.")
    }
}
