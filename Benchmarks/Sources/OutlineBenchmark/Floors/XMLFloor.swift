import BenchLibXML2

/// The floors of the XML store, on the very file the library wrote: one libxml2 SAX2 pass that
/// touches every element and text node (open), and writing the same bytes durably (save).
///
/// The pass reads the file into memory and feeds libxml2's push parser 256 KiB at a time with
/// `XML_PARSE_NONET`, as the library's reader does; the callbacks only count.
enum XMLFloor {
    /// What the SAX2 pass saw (kept so that the work cannot be optimised away, and checked).
    struct Tally {
        var elements = 0
        var attributes = 0
        var textBytes = 0
    }

    static let chunkSize = 256 * 1024

    /// Reads `path` and parses it with SAX2 callbacks that count elements and attributes and sum
    /// the bytes of every text node.
    ///
    /// - Throws: ``BenchmarkError`` when libxml2 reports the XML as not well-formed.
    @discardableResult
    static func saxPass(_ path: String) throws -> Tally {
        let file = try PlainFile.readAll(path)
        var tally = Tally()
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, _, _, _, _, _, attributeCount, _, _ in
            guard let counts = context?.assumingMemoryBound(to: Tally.self) else { return }
            counts.pointee.elements += 1
            counts.pointee.attributes += Int(attributeCount)
        }
        handler.characters = { context, _, length in
            context?.assumingMemoryBound(to: Tally.self).pointee.textBytes += Int(length)
        }
        try withUnsafeMutablePointer(to: &tally) { counts in
            guard let parser = xmlCreatePushParserCtxt(&handler, counts, nil, 0, path) else {
                throw BenchmarkError("libxml2 could not create a parser")
            }
            defer { xmlFreeParserCtxt(parser) }
            _ = xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
            try file.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress else { return }
                var offset = 0
                while offset < bytes.count {
                    let length = min(chunkSize, bytes.count - offset)
                    let chunk = (start + offset).assumingMemoryBound(to: CChar.self)
                    offset += length
                    guard xmlParseChunk(parser, chunk, Int32(length), offset == bytes.count ? 1 : 0) == 0 else {
                        throw BenchmarkError("libxml2 refused \(path) near byte \(offset)")
                    }
                }
            }
            guard parser.pointee.wellFormed != 0 else { throw BenchmarkError("\(path) is not well-formed XML") }
        }
        return tally
    }

    /// Writes `bytes` (the XML the library wrote) to `path` atomically and durably.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try PlainFile.writeAtomically(bytes, to: path)
    }
}
