/// Makes a mutated binary document pass its checksums again, so mutations reach the header
/// parser and the body decoder instead of stopping at `checksumMismatch`.
///
/// Following `Docs/BinaryFormat.md`: for each body chunk that is a zlib stream of stored blocks
/// (compression level 0, as `FuzzBinaryStore` writes its extra seeds), the Adler-32 trailer is
/// recomputed; then each chunk's CRC-32 in the info section; then the header CRC-32. Anything
/// that does not parse is left as it is. Returns nil when nothing changed.
enum Reseal {
    static func resealed(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        var bytes = [UInt8](input)
        guard bytes.count >= 20, bytes[0] == 0x89 else { return nil }
        let headerSize = Int(readUInt32(bytes, at: 12))
        guard headerSize <= bytes.count - 20 else { return nil }
        let headerEnd = 20 + headerSize
        if let chunks = chunkTable(bytes, headerEnd: headerEnd) {
            var offset = headerEnd
            for chunk in chunks {
                guard chunk.stored <= bytes.count - offset else { break }
                let range = offset ..< offset + chunk.stored
                fixAdler(&bytes, range)
                writeUInt32(&bytes, crc32(bytes[range]), at: chunk.crcOffset)
                offset += chunk.stored
            }
        }
        let crc = crc32(bytes[20 ..< headerEnd], startingWith: crc32(bytes[0 ..< 16]))
        writeUInt32(&bytes, crc, at: 16)
        return bytes.elementsEqual(input) ? nil : bytes
    }

    /// Stored sizes and the file offsets of the CRCs of the chunks listed in the info section.
    private static func chunkTable(_ b: [UInt8], headerEnd: Int) -> [(stored: Int, crcOffset: Int)]? {
        var p = 20
        guard let count = varint(b, &p, end: headerEnd), count <= 1024 else { return nil }
        var sections: [(id: UInt64, length: Int)] = []
        for _ in 0 ..< count {
            guard let id = varint(b, &p, end: headerEnd), varint(b, &p, end: headerEnd) != nil,
                p + 8 <= headerEnd
            else { return nil }
            let length = readUInt64(b, at: p)
            p += 8
            guard length <= UInt64(headerEnd) else { return nil }
            sections.append((id, Int(length)))
        }
        for section in sections {
            if section.id == 1 { break }
            p += section.length
        }
        guard sections.contains(where: { $0.id == 1 }), p + 16 <= headerEnd else { return nil }
        p += 16
        guard varint(b, &p, end: headerEnd) != nil, p + 2 <= headerEnd else { return nil }
        p += 2
        guard let chunkCount = varint(b, &p, end: headerEnd), chunkCount <= 4096 else { return nil }
        var chunks: [(Int, Int)] = []
        for _ in 0 ..< chunkCount {
            guard let stored = varint(b, &p, end: headerEnd), stored <= UInt64(Int32.max),
                varint(b, &p, end: headerEnd) != nil, p + 4 <= headerEnd
            else { break }
            chunks.append((Int(stored), p))
            p += 4
        }
        return chunks
    }

    /// Recomputes the Adler-32 trailer of a zlib stream made only of stored blocks.
    private static func fixAdler(_ b: inout [UInt8], _ range: Range<Int>) {
        var p = range.lowerBound + 2
        guard range.count >= 6, b[range.lowerBound + 1] & 0x20 == 0 else { return }
        var a: UInt32 = 1
        var s: UInt32 = 0
        while true {
            guard p + 5 <= range.upperBound else { return }
            let blockHeader = b[p]
            guard (blockHeader >> 1) & 3 == 0 else { return }
            let length = Int(b[p + 1]) | Int(b[p + 2]) << 8
            b[p + 3] = ~b[p + 1]
            b[p + 4] = ~b[p + 2]
            p += 5
            guard length <= range.upperBound - p else { return }
            for byte in b[p ..< p + length] {
                a = (a + UInt32(byte)) % 65521
                s = (s + a) % 65521
            }
            p += length
            if blockHeader & 1 == 1 { break }
        }
        guard p + 4 <= range.upperBound else { return }
        let adler = s << 16 | a
        b[p] = UInt8(adler >> 24)
        b[p + 1] = UInt8(adler >> 16 & 0xFF)
        b[p + 2] = UInt8(adler >> 8 & 0xFF)
        b[p + 3] = UInt8(adler & 0xFF)
    }

    private static func varint(_ b: [UInt8], _ p: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard p < end else { return nil }
            let byte = b[p]
            p += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    private static func readUInt32(_ b: [UInt8], at p: Int) -> UInt32 {
        (0 ..< 4).reduce(0) { $0 | UInt32(b[p + $1]) << (8 * $1) }
    }

    private static func readUInt64(_ b: [UInt8], at p: Int) -> UInt64 {
        (0 ..< 8).reduce(0) { $0 | UInt64(b[p + $1]) << (8 * $1) }
    }

    private static func writeUInt32(_ b: inout [UInt8], _ value: UInt32, at p: Int) {
        for i in 0 ..< 4 { b[p + i] = UInt8(value >> (8 * UInt32(i)) & 0xFF) }
    }

    private static let crcTable: [UInt32] = (0 ..< 256).map { n in
        (0 ..< 8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    static func crc32(_ bytes: ArraySlice<UInt8>, startingWith start: UInt32 = 0) -> UInt32 {
        var c = ~start
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }
}
