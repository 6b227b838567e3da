import Foundation
import OutlineEngine

/// Encodes the live objects of a graph as the columnar body described in `Docs/BinaryFormat.md`.
///
/// Dead rows are dropped and the rest renumbered in id order; references to dropped objects
/// are dropped with them. Only one side of each inverse pair is written (see
/// ``BodyEncoder/storesRelationship(_:_:in:)``); the reader derives the other.
struct BodyEncoder {
    let graph: GraphSnapshot
    var schema: Schema { graph.schema }
    /// Per entity: the rows written, as runs of consecutive live rows, when the ids are in row
    /// order (unless objects were made with ids out of order); nil otherwise.
    private var runs: [[Range<Int>]?] = []
    /// Per entity: the rows written, in id order, when `runs` is nil; empty otherwise.
    private var order: [[Int]] = []
    /// Per entity: the one run of rows written, when there is one (or none: an empty range);
    /// a row's new row is then its offset in the run.
    private var single: [Range<Int>?] = []
    /// Per entity: old row -> new row when `single` is nil and the ids are in row order.
    private var rowMaps: [RowMap?] = []
    /// Per entity: old row -> new row (-1 for dropped rows) when the ids are out of row order; empty otherwise.
    private var newRows: [[Int]] = []
    /// Per entity: the number of rows written.
    private var counts: [Int] = []

    init(graph: GraphSnapshot) {
        self.graph = graph
        for table in graph.tables {
            var sorted = true
            var previous: UInt64?
            table.ids.forEachPage { _, ids in
                guard sorted else { return }
                for id in ids {
                    if let previous, previous >= id {
                        sorted = false
                        return
                    }
                    previous = id
                }
            }
            if sorted {
                let live = table.liveCount == table.rowCount ? [0 ..< table.rowCount] : Self.liveRuns(table)
                runs.append(live)
                order.append([])
                counts.append(table.liveCount)
                newRows.append([])
                if live.count <= 1 {
                    single.append(live.first ?? 0 ..< 0)
                    rowMaps.append(nil)
                } else {
                    single.append(nil)
                    rowMaps.append(RowMap(rowCount: table.rowCount, live: live))
                }
                continue
            }
            runs.append(nil)
            single.append(nil)
            rowMaps.append(nil)
            var rows = table.alive.indices.filter { table.alive[$0] }
            rows.sort { table.ids[$0] < table.ids[$1] }
            var map = [Int](repeating: -1, count: table.rowCount)
            for (new, old) in rows.enumerated() { map[old] = new }
            order.append(rows)
            counts.append(rows.count)
            newRows.append(map)
        }
    }

    /// The live rows of `table` as runs of consecutive rows, found a page at a time.
    private static func liveRuns(_ table: EntityTable) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var first = -1
        table.alive.forEachPage { start, alive in
            for j in 0 ..< alive.count {
                if alive[j] {
                    if first < 0 { first = start + j }
                } else if first >= 0 {
                    runs.append(first ..< start + j)
                    first = -1
                }
            }
        }
        if first >= 0 { runs.append(first ..< table.rowCount) }
        return runs
    }

    /// Whether entity `entity` is written with its rows unchanged (all live, in id order).
    func rowsKept(_ entity: EntityIndex) -> Bool { single[entity] == 0 ..< graph.tables[entity].rowCount }

    /// The row `object` gets in the file, or -1 when it is not written.
    @inline(__always) func newRow(_ object: ManagedObject) -> Int {
        if let run = single[object.entity] { return run.contains(object.row) ? object.row - run.lowerBound : -1 }
        if let row = rowMaps[object.entity]?.newRow(object.row) { return row }
        return newRows[object.entity][object.row]
    }

    /// The number of rows written for entity `entity`.
    func rowCount(_ entity: EntityIndex) -> Int { counts[entity] }

    /// The uncompressed body; with `history`, an optional history section follows the
    /// objects, its state digest filled in from the objects section when the payload asks for it.
    func encode(history: HistoryPayload? = nil) -> [UInt8] {
        var w = ByteWriter(capacity: estimatedSize() + (history?.bytes.count ?? 0))
        write(history: history, into: &w)
        return w.bytes
    }

    /// The body of ``encode(history:)``, cut into chunks and deflated at zlib `level` on all
    /// cores while it is encoded (``DeflatePipeline``): the same pieces as
    /// ``ChunkCompression/deflate(_:level:)`` makes of the whole body, without ever holding it.
    func encodeDeflated(history: HistoryPayload? = nil, level: Int) -> [ChunkCompression.Piece] {
        var w = ByteWriter(streamingTo: DeflatePipeline(level: level))
        write(history: history, into: &w)
        return w.finish()
    }

    private func write(history: HistoryPayload?, into w: inout ByteWriter) {
        w.writeVarint(history == nil ? 1 : 2)
        w.writeVarint(BinaryFormat.BodySection.objects.rawValue)
        w.writeVarint(BinaryFormat.requiredFlag)
        let lengthAt = w.count
        w.writeUInt64(0)
        if let history {
            w.writeVarint(BinaryFormat.BodySection.history.rawValue)
            w.writeVarint(0)
            w.writeUInt64(UInt64(history.bytes.count))
        }
        let payloadStart = w.count
        let digests = history?.fillsDigest == true
        if digests { w.startDigest() }
        writeObjects(into: &w)
        w.patchUInt64(UInt64(w.count - payloadStart), at: lengthAt)
        if let history {
            if digests {
                w.writeBytes(HistoryCoding.filling(history.bytes, digest: w.finishDigest()))
            } else {
                w.writeBytes(history.bytes)
            }
        }
    }

    /// The payload of the objects section alone (what ``StateDigest`` hashes).
    func objectsPayload() -> [UInt8] {
        var w = ByteWriter(capacity: estimatedSize())
        writeObjects(into: &w)
        return w.bytes
    }

    private func writeObjects(into w: inout ByteWriter) {
        w.writeVarint(schema.entities.count)
        for entity in schema.entityIndices {
            w.writeString(schema.entities[entity].name)
            w.writeVarint(rowCount(entity))
        }
        for entity in schema.entityIndices {
            if let runs = runs[entity] {
                encodeTable(entity, rows: runs.joined(), runs: runs, into: &w)
            } else {
                encodeTable(entity, rows: order[entity], runs: nil, into: &w)
            }
        }
    }

    private func estimatedSize() -> Int {
        var size = 64
        for table in graph.tables {
            size += 32 + table.rowCount * (5 + 9 * table.attributes.count + 4 * table.relationships.count)
            for column in table.attributes where column.storage == .bytes { size += column.bytes.byteCount }
        }
        return size
    }

    // MARK: Tables

    /// Writes the rows `rows` of `entity`; `runs`, when given, are the same rows as runs of
    /// consecutive rows, which the columns are then read a page at a time for.
    private func encodeTable<Rows: Collection<Int>>(_ entity: EntityIndex, rows: Rows, runs: [Range<Int>]?, into w: inout ByteWriter) {
        let table = graph.tables[entity]
        let info = schema.infos[entity]
        var previous: UInt64 = 0
        var first = true
        func write(_ id: UInt64) {
            w.writeVarint(first ? id : id - previous - 1)
            previous = id
            first = false
        }
        if let runs {
            for run in runs {
                table.ids.forEachPiece(in: run) { _, ids in
                    for id in ids { write(id) }
                }
            }
        } else {
            for row in rows { write(table.ids[row]) }
        }
        let attributes = info.storedAttributeIndices
        w.writeVarint(attributes.count)
        for a in attributes {
            w.writeString(info.attributes[a].name)
            w.writeVarint(info.attributes[a].type.rawValue)
            encodeAttribute(table.attributes[a], rows: rows, runs: runs, into: &w)
        }
        let relationships = info.relationshipIndices.filter { Self.storesRelationship(info, $0, in: schema) }
        w.writeVarint(relationships.count)
        for r in relationships {
            encodeRelationship(info, r, table.relationships[r], rows: rows, into: &w)
        }
    }

    /// Whether the body stores relationship `r` of `info`'s entity.
    ///
    /// Transient relationships are not stored. Of an inverse pair, a to-many side is stored
    /// when the other side is to-one (it keeps the order); both to-many sides of a
    /// many-to-many pair are stored (each keeps its own order); of two to-one sides, the one
    /// whose `Entity.relationship` name sorts first. Relationships without inverse are stored.
    static func storesRelationship(_ info: EntityInfo, _ r: RelationshipIndex, in schema: Schema) -> Bool {
        let relationship = info.relationships[r]
        guard !relationship.isTransient else { return false }
        guard let inverse = info.inverses[r] else { return true }
        let destination = schema.infos[info.destinations[r]]
        let back = destination.relationships[inverse]
        switch (relationship.isToMany, back.isToMany) {
        case (true, _): return true
        case (false, true): return false
        case (false, false):
            let mine = "\(schema.entities[info.declaringEntity(of: r)].name).\(relationship.name)"
            let theirs = "\(schema.entities[destination.declaringEntity(of: inverse)].name).\(back.name)"
            return !theirs.utf8.lexicographicallyPrecedes(mine.utf8)
        }
    }

}
