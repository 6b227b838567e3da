import Foundation
import OutlineEngine

extension BodyEncoder {
    // MARK: Attributes

    func encodeAttribute<Rows: RandomAccessCollection<Int>>(_ column: AttributeColumn, rows: Rows, into w: inout ByteWriter) {
        var presentCount = 0
        for row in rows where !column.isNil(row) { presentCount += 1 }
        if presentCount == rows.count {
            w.writeByte(BinaryFormat.Presence.allPresent.rawValue)
        } else if presentCount == 0 {
            w.writeByte(BinaryFormat.Presence.allNil.rawValue)
            return
        } else {
            w.writeByte(BinaryFormat.Presence.bitmap.rawValue)
            var byte: UInt8 = 0
            var bit = 0
            for row in rows {
                if !column.isNil(row) { byte |= 1 << bit }
                bit += 1
                if bit == 8 {
                    w.writeByte(byte)
                    byte = 0
                    bit = 0
                }
            }
            if bit > 0 { w.writeByte(byte) }
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
            for row in rows {
                switch column.others[row] {
                case .decimal(let d)?: w.writeString(d.isNaN ? "NaN" : d.description)
                case .uuid(let u)?: withUnsafeBytes(of: u.uuid) { w.writeBytes($0) }
                default: break
                }
            }
        }
    }

    /// Lengths of the present rows, the arena size, then the arena: the values back to back.
    private func encodeBytes<Rows: RandomAccessCollection<Int>>(_ column: ByteColumn, rows: Rows, into w: inout ByteWriter) {
        var total = 0
        var contiguous = true
        for row in rows {
            let length = Int(column.lengths[row])
            guard length >= 0 else { continue }
            w.writeVarint(length)
            if column.starts[row] != total && length > 0 { contiguous = false }
            total += length
        }
        w.writeVarint(total)
        column.arena.withUnsafeBytes { arena in
            if contiguous && total <= arena.count {
                w.writeBytes(UnsafeRawBufferPointer(rebasing: arena[0 ..< total]))
                return
            }
            w.reserve(total)
            for row in rows {
                let length = Int(column.lengths[row])
                guard length > 0 else { continue }
                let start = column.starts[row]
                w.writeBytes(UnsafeRawBufferPointer(rebasing: arena[start ..< start + length]))
            }
        }
    }

    // MARK: Relationships

    func encodeRelationship<Rows: RandomAccessCollection<Int>>(_ info: EntityInfo, _ r: RelationshipIndex, _ column: RelationshipColumn,
                                                               rows: Rows, into w: inout ByteWriter) {
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
            precondition(index >= 0, "\(info.name).\(relationship.name) holds an object of entity \(target.entity), not entity \(schema.entities[destination].name) or one of its subentities")
            return UInt64(row) * k + UInt64(index)
        }

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
            let members = column.many[row]
            kept.removeAll(keepingCapacity: true)
            if allKept {
                for member in members { kept.append(UInt64(member.row) * k + UInt64(local[member.entity])) }
            } else {
                for member in members { if let ref = reference(member) { kept.append(ref) } }
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
