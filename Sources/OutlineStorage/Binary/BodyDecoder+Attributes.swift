import Foundation
import OutlineEngine

extension BodyDecoder {
    /// Decodes one attribute column of `ids.count` rows: presence, then the present values.
    func decodeAttribute(_ attribute: Attribute, of entity: String, ids: [UInt64], from c: inout ByteCursor) throws -> AttributeColumn {
        let n = ids.count
        let label = "\(entity).\(attribute.name)"
        c.context = "the column \(label)"
        let presenceAt = c.position
        let rawPresence = try c.readByte()
        guard let presence = BinaryFormat.Presence(rawValue: rawPresence) else {
            throw c.corrupt("the column \(label) has an unknown nil encoding \(rawPresence)", at: presenceAt)
        }
        var column = AttributeColumn(type: attribute.type)
        var presentCount = 0
        let present: PagedArray<Bool>
        switch presence {
        case .allPresent:
            present = PagedArray(repeating: true, count: n)
            presentCount = n
        case .allNil:
            return AttributeColumn.allNil(type: attribute.type, rows: n)
        case .bitmap:
            let bitmapAt = c.position
            let bitmap = try c.readBytes((n + 7) / 8)
            present = PagedArray(unsafeUninitializedCount: n) { buffer, start, initialized in
                for j in 0 ..< buffer.count {
                    let i = start + j
                    buffer[j] = bitmap[i >> 3] & (1 << (i & 7)) != 0
                }
                initialized = buffer.count
            }
            for byte in bitmap { presentCount += byte.nonzeroBitCount }
            if n % 8 != 0, let last = bitmap.last, last >> (n % 8) != 0 {
                throw c.corrupt("the nil bitmap of \(label) has bits set past its last row", at: bitmapAt + bitmap.count - 1)
            }
        }
        switch column.storage {
        case .integer:
            column.integers = try decodeIntegers(attribute, label, present, from: &c)
            column.present = present
        case .flag:
            column.flags = try decodeFlags(label, present, from: &c)
        case .double:
            try c.need(8 * presentCount)
            let isDate = attribute.type == .date
            column.doubles = try PagedArray(alongside: present) { present, buffer, start, initialized in
                for j in 0 ..< buffer.count {
                    guard present[j] else {
                        buffer[j] = 0
                        continue
                    }
                    let value = try c.readDouble()
                    if isDate && !StoreLimits.isStorableDate(value) {
                        throw c.corrupt(
                            "\(label) of object z\(ids[start + j]) is the date \(StoreLimits.describeDate(value)), which \(StoreLimits.unstorableDate)",
                            at: c.position - 8)
                    }
                    buffer[j] = value
                }
                initialized = buffer.count
            }
            column.present = present
        case .bytes:
            column.bytes = try decodeBytes(attribute, label, present, ids: ids, from: &c)
        case .other:
            column.others = PagedArray(try decodeOthers(attribute, label, present, ids: ids, from: &c))
        }
        return column
    }

    /// Booleans: one byte, 0 or 1, per present row.
    private func decodeFlags(_ label: String, _ present: PagedArray<Bool>, from c: inout ByteCursor) throws -> PagedArray<UInt8> {
        try PagedArray(alongside: present) { present, buffer, _, initialized in
            for j in 0 ..< buffer.count {
                guard present[j] else {
                    buffer[j] = AttributeColumn.nilFlag
                    continue
                }
                let byte = try c.readByte()
                guard byte <= 1 else { throw c.corrupt("a value of \(label) is \(byte), not 0 or 1", at: c.position - 1) }
                buffer[j] = byte
            }
            initialized = buffer.count
        }
    }

    private func decodeIntegers(
        _ attribute: Attribute, _ label: String, _ present: PagedArray<Bool>,
        from c: inout ByteCursor
    ) throws -> PagedArray<Int64> {
        let range = attribute.type.integerRange ?? Int64.min ... Int64.max
        return try PagedArray(alongside: present) { present, buffer, _, initialized in
            for j in 0 ..< buffer.count {
                guard present[j] else {
                    buffer[j] = 0
                    continue
                }
                let at = c.position
                let value = try c.readSignedVarint()
                guard range.contains(value) else {
                    throw c.corrupt("a value of \(label) is \(value), out of range for \(attribute.type.modelName)", at: at)
                }
                buffer[j] = value
            }
            initialized = buffer.count
        }
    }

    /// Lengths of the present rows, the arena size, then the arena, copied once into chunks.
    private func decodeBytes(
        _ attribute: Attribute, _ label: String, _ present: PagedArray<Bool>, ids: [UInt64],
        from c: inout ByteCursor
    ) throws -> ByteColumn {
        var total = 0
        let lengths = try PagedArray<Int32>(alongside: present) { present, buffer, start, initialized in
            for j in 0 ..< buffer.count {
                guard present[j] else {
                    buffer[j] = -1
                    continue
                }
                let at = c.position
                let length = try c.readVarint()
                guard length <= UInt64(StoreLimits.maximumValueBytes) else {
                    throw c.limit(
                        "\(label) of object z\(ids[start + j]) declares \(length) bytes, over the limit of \(StoreLimits.maximumValueBytes)", at: at)
                }
                buffer[j] = Int32(length)
                total += Int(length)
            }
            initialized = buffer.count
        }
        let sizeAt = c.position
        let declared = try c.readCount("the byte count of \(label)", limit: Int.max, minimumBytesEach: 1)
        guard declared == total else {
            throw c.corrupt("the values of \(label) add up to \(BinaryError.byteCount(total)), but the column declares \(declared)", at: sizeAt)
        }
        let arenaAt = c.position
        let bytes = try c.readBytes(total)
        if attribute.type != .binary && attribute.type != .transformable {
            try checkUTF8(bytes, lengths: lengths, label: label, ids: ids, at: arenaAt, c)
        }
        // Each value goes to one chunk; a chunk is cut before the value that would overfill it.
        var pieces: [Range<Int>] = []
        var chunkStart = 0
        var offset = 0
        let starts = PagedArray<Int>(alongside: lengths) { lengths, buffer, _, initialized in
            for j in 0 ..< buffer.count {
                let length = Int(lengths[j])
                guard length > 0 else {
                    buffer[j] = 0
                    continue
                }
                if offset > chunkStart && offset - chunkStart + length > ByteColumn.chunkCapacity {
                    pieces.append(chunkStart ..< offset)
                    chunkStart = offset
                }
                buffer[j] = ByteColumn.location(chunk: pieces.count, offset: offset - chunkStart)
                offset += length
            }
            initialized = buffer.count
        }
        if offset > chunkStart { pieces.append(chunkStart ..< offset) }
        return ByteColumn(chunks: copyChunks(bytes, pieces, at: c.origin + arenaAt), starts: starts, lengths: lengths)
    }

    /// Copies the chunks of an arena out of the body, giving the body's pages back once copied
    /// (a slice at a time), so the body's copy and the column's are not both resident.
    private func copyChunks(_ bytes: UnsafeRawBufferPointer, _ pieces: [Range<Int>], at offset: Int) -> [ContiguousArray<UInt8>] {
        pieces.map { piece in
            ContiguousArray(unsafeUninitializedCapacity: piece.count) { buffer, initialized in
                var copied = 0
                while copied < piece.count {
                    let length = min(Self.arenaSlice, piece.count - copied)
                    let from = piece.lowerBound + copied
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[copied ..< copied + length])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from ..< from + length]))
                    copied += length
                    pages?.release(below: offset + from + length)
                }
                initialized = piece.count
            }
        }
    }

    /// Bytes copied between two page releases.
    static let arenaSlice = 1 << 20

    /// The arena must be valid UTF-8 and every value must start on a character boundary; then
    /// each value is valid on its own. On failure, the first invalid value is named.
    ///
    /// Values lie back to back in the arena in row order.
    private func checkUTF8(
        _ arena: UnsafeRawBufferPointer, lengths: PagedArray<Int32>, label: String,
        ids: [UInt64], at arenaAt: Int, _ c: ByteCursor
    ) throws {
        var valid = UTF8Validation.isValid(arena)
        if valid {
            var offset = 0
            lengths.forEachPage { _, lengths in
                for length in lengths where length > 0 {
                    if arena[offset] & 0xC0 == 0x80 { valid = false }
                    offset += Int(length)
                }
            }
        }
        guard !valid else { return }
        var offset = 0
        for i in lengths.indices where lengths[i] > 0 {
            let value = UnsafeRawBufferPointer(rebasing: arena[offset ..< offset + Int(lengths[i])])
            if !UTF8Validation.isValid(value) {
                throw c.corrupt("\(label) of object z\(ids[i]) is not valid UTF-8", at: arenaAt + offset)
            }
            offset += Int(lengths[i])
        }
    }

    private func decodeOthers(
        _ attribute: Attribute, _ label: String, _ present: PagedArray<Bool>, ids: [UInt64],
        from c: inout ByteCursor
    ) throws -> [Value?] {
        var values: [Value?] = []
        values.reserveCapacity(present.count)
        for i in present.indices {
            guard present[i] else {
                values.append(nil)
                continue
            }
            let at = c.position
            switch attribute.type {
            case .decimal:
                let text = try c.readString("a value of \(label)", limit: 1024)
                let parsed = text == "NaN" ? Decimal.nan : Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
                guard let decimal = parsed, text == "NaN" || decimal.description == text else {
                    throw c.corrupt("\(label) of object z\(ids[i]) is \"\(text)\", not a decimal number", at: at)
                }
                values.append(.decimal(decimal))
            case .uuid:
                let raw = try c.readBytes(16)
                values.append(
                    .uuid(
                        UUID(
                            uuid: (
                                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                                raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                            ))))
            default:
                throw c.corrupt("\(label) has type \(attribute.type.modelName), which is never stored", at: at)
            }
        }
        return values
    }
}
