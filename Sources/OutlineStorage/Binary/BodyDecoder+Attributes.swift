import Foundation
import OutlineEngine

extension BodyDecoder {
    /// Decodes attribute column `a` of `entity`'s table, of `ids.count` rows: presence, then the
    /// present values. The values of a string or binary column are still being inflated and
    /// checked when it returns (see ``arenas``).
    mutating func decodeAttribute(
        _ a: AttributeIndex, of entity: EntityInfo, ids: PagedArray<UInt64>, from c: inout ByteCursor
    ) throws -> AttributeColumn {
        let attribute = entity.attributes[a]
        let n = ids.count
        let label = "\(entity.name).\(attribute.name)"
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
            column.bytes = try decodeBytes(attribute, label, present, ids: ids, from: &c, for: (entity.index, a))
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

    /// Lengths of the present rows, the arena size, then the arena. The column is returned
    /// without its chunks: they share the arena's bytes where they were inflated (checked as
    /// text on another thread, ``ArenaCheck``, while decoding goes on) and are put in the
    /// column by ``finishArenas(afterFailure:)``.
    private mutating func decodeBytes(
        _ attribute: Attribute, _ label: String, _ present: PagedArray<Bool>, ids: PagedArray<UInt64>,
        from c: inout ByteCursor, for slot: (entity: EntityIndex, attribute: AttributeIndex)
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
        // Passed over without waiting for it to inflate: the check waits instead.
        let arena = try c.subcursor(total, context: c.context)
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
        guard !pieces.isEmpty else { return ByteColumn(chunks: [], starts: starts, lengths: lengths) }
        let isText = attribute.type != .binary && attribute.type != .transformable
        let origin = arena.origin
        let shared = try pieces.map { piece in
            let range = origin + piece.lowerBound ..< origin + piece.upperBound
            // A body that is not in pages of its own (never, when opening a file) is copied.
            guard let pages else {
                _ = try feed?.wait(until: range.upperBound)
                let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 1)
                copy.copyMemory(from: UnsafeRawBufferPointer(rebasing: body[range]))
                return SharedBytes(UnsafeRawBufferPointer(copy), keeper: nil) { $0.deallocate() }
            }
            return pages.share(range)
        }
        let check = ArenaCheck(shared, at: origin, lengths: lengths, isText: isText, feed: feed)
        arenas.append(PendingArena(slot: slot, check: check, chunks: shared, starts: starts, lengths: lengths, label: label, ids: ids, cursor: arena))
        return ByteColumn()
    }

    /// A string or binary column whose values are still being inflated and checked.
    struct PendingArena {
        var slot: (entity: EntityIndex, attribute: AttributeIndex)
        var check: ArenaCheck
        var chunks: [SharedBytes]
        var starts: PagedArray<Int>
        var lengths: PagedArray<Int32>
        var label: String
        var ids: PagedArray<UInt64>
        /// Over the arena, for messages.
        var cursor: ByteCursor

        var column: ByteColumn { ByteColumn(chunks: chunks.map(ByteChunk.init(sharing:)), starts: starts, lengths: lengths) }
    }

    /// Waits for the checks of the string and binary columns and puts their chunks in the
    /// columns. After a failure further on (`afterFailure`), only says whether a column's
    /// text was invalid, an error that comes first in the file.
    ///
    /// - Throws: the invalid text of a column (naming the first invalid value), or a chunk's
    ///   failure to inflate when a check stopped for it.
    mutating func finishArenas(afterFailure: Bool = false) throws {
        // Each leaves the list once waited for: those left when this throws are stopped by ``stopArenas()``.
        while !arenas.isEmpty {
            let pending = arenas.removeFirst()
            switch pending.check.wait() {
            case .valid:
                guard !afterFailure else { continue }
                loader.withTable(pending.slot.entity) { $0.attributes[pending.slot.attribute].bytes = pending.column }
            case .invalidText:
                try Self.throwInvalidText(pending.column, pending)
            case .stopped:
                if !afterFailure { throw InflateFeed.ChunkFailed() }
            }
        }
    }

    /// Stops the checks still running and waits for them (the decoder failed).
    mutating func stopArenas() {
        for pending in arenas { pending.check.stop() }
        for pending in arenas { _ = pending.check.wait() }
        arenas = []
    }

    /// Names the first value of `column` that is not valid UTF-8 (or starts inside a character).
    private static func throwInvalidText(_ column: ByteColumn, _ pending: PendingArena) throws {
        var offset = 0
        for row in pending.lengths.indices where pending.lengths[row] > 0 {
            let valid = column.withBytes(row) { $0.map { UTF8Validation.isValid($0) && $0[0] & 0xC0 != 0x80 } ?? true }
            if !valid {
                throw pending.cursor.corrupt("\(pending.label) of object z\(pending.ids[row]) is not valid UTF-8", at: offset)
            }
            offset += Int(pending.lengths[row])
        }
        throw pending.cursor.corrupt("\(pending.label) is not valid UTF-8", at: 0)
    }

    private func decodeOthers(
        _ attribute: Attribute, _ label: String, _ present: PagedArray<Bool>, ids: PagedArray<UInt64>,
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
