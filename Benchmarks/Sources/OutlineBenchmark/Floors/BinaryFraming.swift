/// Where the compressed body of a binary document lies, read from its prelude and header as
/// `Docs/BinaryFormat.md` specifies (prelude, header section table, section 1 "info" with the
/// chunk list). Nothing is checked beyond what finding the chunks needs: this is a floor.
struct BinaryFraming {
    /// One zlib stream of the body.
    struct Chunk {
        /// Offset in the file.
        var offset: Int
        /// Bytes in the file.
        var storedSize: Int
        /// Bytes once inflated.
        var size: Int
    }

    /// Prelude plus header: the body starts here.
    let bodyOffset: Int
    /// zlib level the writer recorded.
    let level: Int
    let chunks: [Chunk]

    /// The inflated body's size.
    var inflatedSize: Int { chunks.reduce(0) { $0 + $1.size } }
    /// The compressed body's size.
    var storedSize: Int { chunks.reduce(0) { $0 + $1.storedSize } }

    static let preludeSize = 20
    static let magic: [UInt8] = [0x89, 0x4F, 0x55, 0x54, 0x4C, 0x49, 0x4E, 0x45]
    static let infoSection: UInt64 = 1

    /// Reads the framing of the binary document `bytes`.
    ///
    /// - Throws: ``BenchmarkError`` when the bytes are not a version 1 document or the chunks
    ///   do not add up to the file.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        var cursor = Cursor(bytes: bytes, offset: 0)
        guard bytes.count >= Self.preludeSize, Self.magic.indices.allSatisfy({ bytes[$0] == Self.magic[$0] }) else {
            throw BenchmarkError("not an outline binary document (no magic)")
        }
        cursor.offset = 8
        let major = try cursor.fixed(2)
        guard major == 1 else { throw BenchmarkError("binary format major version \(major) is not 1") }
        cursor.offset = 12
        let headerSize = Int(try cursor.fixed(4))
        bodyOffset = Self.preludeSize + headerSize

        // The header's section table, then the payloads back to back.
        cursor.offset = Self.preludeSize
        let sections = try cursor.varint()
        var table: [(id: UInt64, length: Int)] = []
        for _ in 0 ..< sections {
            let id = try cursor.varint()
            _ = try cursor.varint()
            table.append((id, Int(try cursor.fixed(8))))
        }
        var payload = cursor.offset
        guard let info = table.firstIndex(where: { $0.id == Self.infoSection }) else {
            throw BenchmarkError("the header has no info section")
        }
        for section in table[..<info] { payload += section.length }

        // Info: UUID, next id, level, body encoding, chunks.
        cursor.offset = payload + 16
        _ = try cursor.varint()
        level = Int(try cursor.fixed(1))
        guard try cursor.fixed(1) == 1 else { throw BenchmarkError("the body is not zlib chunks") }
        let count = try cursor.varint()
        var chunks: [Chunk] = []
        var offset = bodyOffset
        for _ in 0 ..< count {
            let stored = Int(try cursor.varint())
            let size = Int(try cursor.varint())
            _ = try cursor.fixed(4)
            chunks.append(Chunk(offset: offset, storedSize: stored, size: size))
            offset += stored
        }
        guard offset == bytes.count else {
            throw BenchmarkError("the chunks end at byte \(offset), the file at \(bytes.count)")
        }
        self.chunks = chunks
    }

    /// A little-endian reader that throws instead of reading past the end.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        mutating func fixed(_ width: Int) throws -> UInt64 {
            guard offset + width <= bytes.count else { throw BenchmarkError("the header ends early at byte \(offset)") }
            var value: UInt64 = 0
            for i in 0 ..< width { value |= UInt64(bytes[offset + i]) << (8 * i) }
            offset += width
            return value
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                guard offset < bytes.count else { throw BenchmarkError("the header ends early at byte \(offset)") }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            throw BenchmarkError("a varint runs past 10 bytes at byte \(offset)")
        }
    }
}
