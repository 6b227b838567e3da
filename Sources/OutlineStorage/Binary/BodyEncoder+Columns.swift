import Foundation
import OutlineEngine

extension BodyEncoder {
    // MARK: Attributes

    /// Writes `column`'s values of `rows`; `runs`, when given, are the same rows as runs of
    /// consecutive rows, read a page at a time.
    func encodeAttribute<Rows: Collection<Int>>(_ column: AttributeColumn, rows: Rows, runs: [Range<Int>]?, into w: inout ByteWriter) {
        if let runs { return encodeAttribute(column, runs: runs, into: &w) }
        var presentCount = 0
        for row in rows where !column.isNil(row) { presentCount += 1 }
        guard writePresence(presentCount, of: rows.count, into: &w) else { return }
        if presentCount < rows.count {
            var bitmap = BitmapWriter()
            for row in rows { bitmap.add(!column.isNil(row), into: &w) }
            bitmap.finish(into: &w)
        }
        switch column.storage {
        case .integer:
            for row in rows where column.present[row] { w.writeSignedVarint(column.integers[row]) }
        case .flag:
            for row in rows where column.flags[row] != AttributeColumn.nilFlag { w.writeByte(column.flags[row]) }
        case .double:
            for row in rows where column.present[row] { w.writeDouble(column.doubles[row]) }
        case .bytes:
            encodeBytes(column.bytes, rows: rows, into: &w)
        case .other:
            for row in rows { writeOther(column.others[row], into: &w) }
        }
    }

    /// ``encodeAttribute(_:rows:runs:into:)`` for rows given as runs, walking the columns a page at a time.
    private func encodeAttribute(_ column: AttributeColumn, runs: [Range<Int>], into w: inout ByteWriter) {
        let count = runs.reduce(0) { $0 + $1.count }
        if column.untouchedNilRows > 0 {
            _ = writePresence(0, of: count, into: &w)
            return
        }
        switch column.storage {
        case .integer:
            guard writePresence(column.present, runs, count, { $0 }, into: &w) else { return }
            for run in runs {
                PagedArray<Bool>.forEachPiece(of: column.present, and: column.integers, in: run) { _, present, values in
                    for j in 0 ..< values.count where present[j] { w.writeSignedVarint(values[j]) }
                }
            }
        case .flag:
            guard writePresence(column.flags, runs, count, { $0 != AttributeColumn.nilFlag }, into: &w) else { return }
            for run in runs {
                column.flags.forEachPiece(in: run) { _, flags in
                    for flag in flags where flag != AttributeColumn.nilFlag { w.writeByte(flag) }
                }
            }
        case .double:
            guard writePresence(column.present, runs, count, { $0 }, into: &w) else { return }
            for run in runs {
                PagedArray<Bool>.forEachPiece(of: column.present, and: column.doubles, in: run) { _, present, values in
                    for j in 0 ..< values.count where present[j] { w.writeDouble(values[j]) }
                }
            }
        case .bytes:
            guard writePresence(column.bytes.lengths, runs, count, { $0 >= 0 }, into: &w) else { return }
            encodeBytes(column.bytes, runs: runs, into: &w)
        case .other:
            guard writePresence(column.others, runs, count, { $0 != nil }, into: &w) else { return }
            for run in runs {
                column.others.forEachPiece(in: run) { _, values in
                    for value in values { writeOther(value, into: &w) }
                }
            }
        }
    }

    /// Writes the presence byte (and the bitmap) of the `count` rows of `runs` of a column
    /// whose elements of `array` tell whether a row has a value; false when no row has one
    /// (nothing follows).
    private func writePresence<T>(
        _ array: PagedArray<T>, _ runs: [Range<Int>], _ count: Int, _ isPresent: (T) -> Bool,
        into w: inout ByteWriter
    ) -> Bool {
        var presentCount = 0
        for run in runs {
            array.forEachPiece(in: run) { _, elements in
                for element in elements where isPresent(element) { presentCount += 1 }
            }
        }
        guard writePresence(presentCount, of: count, into: &w) else { return false }
        if presentCount < count {
            var bitmap = BitmapWriter()
            for run in runs {
                array.forEachPiece(in: run) { _, elements in
                    for element in elements { bitmap.add(isPresent(element), into: &w) }
                }
            }
            bitmap.finish(into: &w)
        }
        return true
    }

    /// Writes the presence byte for `present` of `count` rows; false when none is present.
    /// A bitmap follows when some but not all are.
    private func writePresence(_ present: Int, of count: Int, into w: inout ByteWriter) -> Bool {
        if present == count {
            w.writeByte(BinaryFormat.Presence.allPresent.rawValue)
        } else if present == 0 {
            w.writeByte(BinaryFormat.Presence.allNil.rawValue)
            return false
        } else {
            w.writeByte(BinaryFormat.Presence.bitmap.rawValue)
        }
        return true
    }

    private func writeOther(_ value: Value?, into w: inout ByteWriter) {
        switch value {
        case .decimal(let d)?: w.writeString(d.isNaN ? "NaN" : d.description)
        case .uuid(let u)?: withUnsafeBytes(of: u.uuid) { w.writeBytes($0) }
        default: break
        }
    }

    /// Lengths of the present rows, the arena size, then the arena: the values back to back.
    private func encodeBytes<Rows: Collection<Int>>(_ column: ByteColumn, rows: Rows, into w: inout ByteWriter) {
        var total = 0
        for row in rows {
            let length = Int(column.lengths[row])
            guard length >= 0 else { continue }
            w.writeVarint(length)
            total += length
        }
        w.writeVarint(total)
        for row in rows {
            let length = Int(column.lengths[row])
            guard length > 0 else { continue }
            column.withBytes(at: column.starts[row], length: length) { w.writeBytes($0) }
        }
    }

    /// ``encodeBytes(_:rows:into:)`` for rows given as runs: the lengths a page at a time, the
    /// arena in as few pieces as the values lie back to back.
    private func encodeBytes(_ column: ByteColumn, runs: [Range<Int>], into w: inout ByteWriter) {
        var total = 0
        for run in runs {
            column.lengths.forEachPiece(in: run) { _, lengths in
                for length in lengths where length >= 0 {
                    w.writeVarint(Int(length))
                    total += Int(length)
                }
            }
        }
        w.writeVarint(total)
        for run in runs {
            column.forEachSpan(in: run) { w.writeBytes($0) }
        }
    }

    // MARK: Relationships

    func encodeRelationship<Rows: Collection<Int>>(
        _ info: EntityInfo, _ r: RelationshipIndex, _ column: RelationshipColumn,
        rows: Rows, into w: inout ByteWriter
    ) {
        let relationship = info.relationships[r]
        let destination = info.destinations[r]
        let family = [destination] + schema.infos[destination].subentities
        var local = [Int](repeating: -1, count: schema.entities.count)
        for (i, entity) in family.enumerated() { local[entity] = i }
        let k = UInt64(family.count)

        w.writeString(relationship.name)
        w.writeByte(relationship.isToMany ? 1 : 0)
        w.writeVarint(family.count)
        for entity in family { w.writeVarint(entity.rawValue) }

        /// The encoded reference to `target`, or nil when the target is not written.
        func reference(_ target: ManagedObject) -> UInt64? {
            let row = newRow(target)
            guard row >= 0 else { return nil }
            let index = local[target.entity]
            precondition(
                index >= 0,
                "\(info.name).\(relationship.name) holds an object of entity \(target.entity), not entity \(schema.entities[destination].name) or one of its subentities"
            )
            return UInt64(row) * k + UInt64(index)
        }

        // Row by row (the row lookups are cheap next to a closure capturing the writer).
        if !relationship.isToMany {
            for row in rows {
                if let target = column.object(row), let ref = reference(target) {
                    w.writeVarint(ref + 1)
                } else {
                    w.writeVarint(0)
                }
            }
            return
        }
        let allKept = family.allSatisfy { rowsKept($0) }
        var kept: [UInt64] = []
        for row in rows {
            kept.removeAll(keepingCapacity: true)
            column.many.withMembers(row) { members in
                if allKept {
                    for member in members { kept.append(UInt64(member.row) * k + UInt64(local[member.entity])) }
                } else {
                    for member in members { if let ref = reference(member) { kept.append(ref) } }
                }
            }
            w.writeVarint(kept.count)
            var previous: UInt64 = 0
            for (i, ref) in kept.enumerated() {
                if i == 0 {
                    w.writeVarint(ref)
                } else {
                    w.writeSignedVarint(Int64(bitPattern: ref &- previous))
                }
                previous = ref
            }
        }
    }
}

/// Packs presence flags into bytes, least significant bit first.
struct BitmapWriter {
    private var byte: UInt8 = 0
    private var bit = 0

    @inline(__always) mutating func add(_ present: Bool, into w: inout ByteWriter) {
        if present { byte |= 1 << bit }
        bit += 1
        if bit == 8 {
            w.writeByte(byte)
            byte = 0
            bit = 0
        }
    }

    mutating func finish(into w: inout ByteWriter) {
        if bit > 0 { w.writeByte(byte) }
    }
}
