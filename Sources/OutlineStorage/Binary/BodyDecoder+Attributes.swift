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
        let present: [Bool]
        switch presence {
        case .allPresent:
            present = [Bool](repeating: true, count: n)
            presentCount = n
        case .allNil:
            return AttributeColumn.allNil(type: attribute.type, rows: n)
        case .bitmap:
            let bitmapAt = c.position
            let bitmap = try c.readBytes((n + 7) / 8)
            present = [Bool](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0 ..< n { buffer[i] = bitmap[i >> 3] & (1 << (i & 7)) != 0 }
                initialized = n
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
            column.doubles = try [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0 ..< n {
                    guard present[i] else { buffer[i] = 0; continue }
                    let value = try c.readDouble()
                    if isDate && !StoreLimits.isStorableDate(value) {
                        throw c.corrupt("\(label) of object z\(ids[i]) is the date \(StoreLimits.describeDate(value)), which \(StoreLimits.unstorableDate)",
                                        at: c.position - 8)
                    }
                    buffer[i] = value
                }
                initialized = n
            }
            column.present = present
        case .bytes:
            column.bytes = try decodeBytes(attribute, label, present, ids: ids, from: &c)
        case .other:
            column.others = try decodeOthers(attribute, label, present, ids: ids, from: &c)
        }
        return column
    }

    /// Booleans: one byte, 0 or 1, per present row.
    private func decodeFlags(_ label: String, _ present: [Bool], from c: inout ByteCursor) throws -> [UInt8] {
        let n = present.count
        return try [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0 ..< n {
                guard present[i] else { buffer[i] = AttributeColumn.nilFlag; continue }
                let byte = try c.readByte()
                guard byte <= 1 else { throw c.corrupt("a value of \(label) is \(byte), not 0 or 1", at: c.position - 1) }
                buffer[i] = byte
            }
            initialized = n
        }
    }

    private func decodeIntegers(_ attribute: Attribute, _ label: String, _ present: [Bool], from c: inout ByteCursor) throws -> [Int64] {
        let n = present.count
        let range = attribute.type.integerRange ?? Int64.min ... Int64.max
        return try [Int64](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0 ..< n {
                guard present[i] else { buffer[i] = 0; continue }
                let at = c.position
                let value = try c.readSignedVarint()
                guard range.contains(value) else {
                    throw c.corrupt("a value of \(label) is \(value), out of range for \(attribute.type.modelName)", at: at)
                }
                buffer[i] = value
            }
            initialized = n
        }
    }

    /// Lengths of the present rows, the arena size, then the arena, copied once.
    private func decodeBytes(_ attribute: Attribute, _ label: String, _ present: [Bool], ids: [UInt64],
                             from c: inout ByteCursor) throws -> ByteColumn {
        let n = present.count
        var total = 0
        var lengths: [Int32] = []
        let starts = try [Int](unsafeUninitializedCapacity: n) { startBuffer, startsInitialized in
            lengths = try [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0 ..< n {
                    guard present[i] else {
                        buffer[i] = -1
                        startBuffer[i] = 0
                        continue
                    }
                    let at = c.position
                    let length = try c.readVarint()
                    guard length <= UInt64(StoreLimits.maximumValueBytes) else {
                        throw c.limit("\(label) of object z\(ids[i]) declares \(length) bytes, over the limit of \(StoreLimits.maximumValueBytes)", at: at)
                    }
                    startBuffer[i] = total
                    buffer[i] = Int32(length)
                    total += Int(length)
                }
                initialized = n
            }
            startsInitialized = n
        }
        let sizeAt = c.position
        let declared = try c.readCount("the byte count of \(label)", limit: Int.max, minimumBytesEach: 1)
        guard declared == total else {
            throw c.corrupt("the values of \(label) add up to \(BinaryError.byteCount(total)), but the column declares \(declared)", at: sizeAt)
        }
        let arenaAt = c.position
        let bytes = try c.readBytes(total)
        if attribute.type != .binary && attribute.type != .transformable {
            try checkUTF8(bytes, starts: starts, lengths: lengths, label: label, ids: ids, at: arenaAt, c)
        }
        return ByteColumn(arena: copyArena(bytes, at: c.origin + arenaAt), starts: starts, lengths: lengths)
    }

    /// Copies an arena out of the body a slice at a time, giving each slice's pages back once
    /// copied, so the body's copy and the column's are not both resident.
    private func copyArena(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> [UInt8] {
        guard let pages, bytes.count > Self.arenaSlice else { return [UInt8](bytes) }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            var copied = 0
            while copied < bytes.count {
                let length = min(Self.arenaSlice, bytes.count - copied)
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[copied ..< copied + length])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[copied ..< copied + length]))
                copied += length
                pages.release(below: offset + copied)
            }
            initialized = bytes.count
        }
    }

    /// Bytes copied between two page releases.
    static let arenaSlice = 1 << 20

    /// The arena must be valid UTF-8 and every value must start on a character boundary; then
    /// each value is valid on its own. On failure, the first invalid value is named.
    private func checkUTF8(_ arena: UnsafeRawBufferPointer, starts: [Int], lengths: [Int32], label: String,
                           ids: [UInt64], at arenaAt: Int, _ c: ByteCursor) throws {
        var valid = UTF8Validation.isValid(arena)
        if valid {
            for i in lengths.indices where lengths[i] > 0 && arena[starts[i]] & 0xC0 == 0x80 {
                valid = false
                break
            }
        }
        guard !valid else { return }
        for i in lengths.indices where lengths[i] > 0 {
            let value = UnsafeRawBufferPointer(rebasing: arena[starts[i] ..< starts[i] + Int(lengths[i])])
            if !UTF8Validation.isValid(value) {
                throw c.corrupt("\(label) of object z\(ids[i]) is not valid UTF-8", at: arenaAt + starts[i])
            }
        }
    }

    private func decodeOthers(_ attribute: Attribute, _ label: String, _ present: [Bool], ids: [UInt64],
                              from c: inout ByteCursor) throws -> [Value?] {
        var values: [Value?] = []
        values.reserveCapacity(present.count)
        for i in present.indices {
            guard present[i] else { values.append(nil); continue }
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
                values.append(.uuid(UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                                                raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))))
            default:
                throw c.corrupt("\(label) has type \(attribute.type.modelName), which is never stored", at: at)
            }
        }
        return values
    }
}
