import Foundation
import OutlineEngine

/// Writes an ``ObjectGraph`` in Core Data's XML store layout, by hand into one buffer.
///
/// Everything constant per entity and property (`<object type="ITEM" id="z`, `<attribute
/// name="title" type="string">`, ...) is prepared once; per object only ids, values and
/// escapes are formatted.
enum XMLStoreWriter {
    /// The text of an entity's elements that does not depend on the object, in one array:
    /// `    <object type="ITEM" id="z`, then per property `        <attribute name="..." type="...">`
    /// or `        <relationship name="..." type="..." destination="..."`.
    private struct EntityPlan {
        var text: [UInt8]
        var objectOpening: Range<Int>
        var attributes: [(index: AttributeIndex, type: AttributeType, opening: Range<Int>)]
        var relationships: [(index: RelationshipIndex, isToMany: Bool, opening: Range<Int>)]
    }

    /// The whole store in memory.
    static func write(_ graph: GraphSnapshot, metadata: StoreMetadata) -> Data {
        var output = XMLOutputBuffer(capacity: estimatedSize(graph.tables))
        writeHeader(graph, metadata: metadata, to: &output)
        writeObjects(graph, to: &output)
        return output.takeData()
    }

    /// The size of the pieces ``write(_:metadata:to:)`` hands on: big enough that a system call
    /// per piece costs nothing, small enough to stay in the cache.
    static let pieceSize = 1 << 20

    /// Streams the store to `sink` in pieces of about ``pieceSize`` bytes, the first of them
    /// everything up to and including `</databaseInfo>`.
    ///
    /// - Returns: that first piece (the metadata), for the caller to read back.
    /// - Throws: the first error `sink` throws (no more pieces are written after it).
    static func write(
        _ graph: GraphSnapshot, metadata: StoreMetadata, pieceSize: Int = pieceSize,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> [UInt8] {
        var head = XMLOutputBuffer(capacity: 64 << 10)
        writeHeader(graph, metadata: metadata, to: &head)
        let header = [UInt8](head.takeData())
        try header.withUnsafeBytes { try sink($0) }
        try withoutActuallyEscaping(
            sink,
            do: { (sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws in
                var output = XMLOutputBuffer(pieceSize: pieceSize, sink: sink)
                writeObjects(graph, to: &output)
                try output.finish()
            })
        return header
    }

    /// The prolog, `<database>` and the `<databaseInfo>` element.
    private static func writeHeader(_ graph: GraphSnapshot, metadata: StoreMetadata, to output: inout XMLOutputBuffer) {
        output.append("<?xml version=\"1.0\" standalone=\"yes\"?>\n")
        output.append("<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n")
        output.append("<database>\n")
        output.appendIndent(1)
        output.append("<databaseInfo>\n")
        output.appendIndent(2)
        output.append("<version>")
        output.appendDecimal(XMLStoreParser.storeVersion)
        output.append("</version>\n")
        output.appendIndent(2)
        output.append("<UUID>")
        output.append(string: metadata.uuid.uuidString.uppercased())
        output.append("</UUID>\n")
        output.appendIndent(2)
        output.append("<nextObjectID>")
        output.appendDecimal(graph.nextID > 0 ? graph.nextID - 1 : 0)
        output.append("</nextObjectID>\n")
        XMLMetadataMapping.write(XMLMetadataMapping.entries(for: metadata, schema: graph.schema), level: 2, to: &output)
        output.appendIndent(1)
        output.append("</databaseInfo>\n")
    }

    // MARK: Objects

    /// Every live object in id order, then `</database>`.
    private static func writeObjects(_ graph: GraphSnapshot, to output: inout XMLOutputBuffer) {
        let tables = graph.tables
        let plans = graph.schema.infos.map(plan)
        let objects = objectsInIDOrder(tables)
        withExtendedLifetime(graph) {
            let columns = XMLWriterColumns(graph)
            defer { columns.deallocate() }
            objects.withUnsafeBufferPointer { objects in
                // Runs of objects of one entity share its plan.
                var start = 0
                while start < objects.count {
                    let e = objects[start].entity.rawValue
                    var end = start + 1
                    while end < objects.count && objects[end].entity.rawValue == e { end += 1 }
                    let plan = plans[e]
                    plan.text.withUnsafeBytes { text in
                        plan.attributes.withUnsafeBufferPointer { attributes in
                            plan.relationships.withUnsafeBufferPointer { relationships in
                                for i in start ..< end {
                                    writeObject(
                                        row: objects[i].row, e, columns, tables, text: text, opening: plan.objectOpening,
                                        attributes: attributes, relationships: relationships, to: &output)
                                }
                            }
                        }
                    }
                    start = end
                }
            }
        }
        output.append("</database>")
    }

    /// Writes row `row` of table `e`, through `columns`.
    private static func writeObject(
        row: Int, _ e: Int, _ columns: XMLWriterColumns, _ tables: [EntityTable],
        text: UnsafeRawBufferPointer, opening: Range<Int>,
        attributes: UnsafeBufferPointer<(index: AttributeIndex, type: AttributeType, opening: Range<Int>)>,
        relationships: UnsafeBufferPointer<(index: RelationshipIndex, isToMany: Bool, opening: Range<Int>)>,
        to output: inout XMLOutputBuffer
    ) {
        let table = columns.tables[e]
        output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
        output.appendDecimal(table.ids[row])
        output.append("\">\n" as StaticString)
        for (a, type, opening) in attributes {
            switch table.attributes[a.rawValue] {
            case .none:
                continue
            case .integers(let values, let present):
                guard present[row] else { continue }
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                output.appendDecimal(values[row])
            case .flags(let flags):
                let flag = flags[row]
                guard flag != nilFlag else { continue }
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                output.append(flag != 0 ? 0x31 : 0x30)
            case .doubles(let values, let present):
                guard present[row] else { continue }
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                if type == .date {
                    XMLNumberFormatting.appendFixed20(values[row], to: &output)
                } else {
                    output.append(string: XMLNumberFormatting.shortest(values[row]))
                }
            case .bytes(let starts, let lengths, let chunks):
                let length = Int(lengths[row])
                guard length >= 0 else { continue }
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
                if length > 0 {
                    let location = starts[row]
                    bytes = UnsafeRawBufferPointer(start: chunks[location >> 32] + (location & 0xFFFF_FFFF), count: length)
                }
                if type == .binary || type == .transformable {
                    output.appendStoreBase64(bytes)
                } else {
                    XMLStringEscaping.writeEscaped(bytes, to: &output)
                }
            case .other:
                guard writeOther(tables, e, a.rawValue, row, opening: UnsafeRawBufferPointer(rebasing: text[opening]), to: &output) else { continue }
            }
            output.append("</attribute>\n" as StaticString)
        }
        for (r, _, opening) in relationships {
            output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
            var first = true
            switch table.relationships[r.rawValue] {
            case .many(let lists):
                lists.withMembers(row) { targets in
                    for target in targets { writeReference(target, columns, first: &first, to: &output) }
                }
            case .single(let pages):
                if let target = RelationshipColumn.object(stored: pages[row]) {
                    writeReference(target, columns, first: &first, to: &output)
                }
            }
            output.append(first ? "></relationship>\n" as StaticString : "\"></relationship>\n" as StaticString)
        }
        output.appendIndent(1)
        output.append("</object>\n" as StaticString)
    }

    /// Appends ` idrefs="zN` for the first reference, ` zN` for the others; skips deleted objects.
    @inline(__always)
    private static func writeReference(
        _ target: ManagedObject, _ columns: XMLWriterColumns, first: inout Bool,
        to output: inout XMLOutputBuffer
    ) {
        let e = target.entity.rawValue
        let row = target.row
        guard e < columns.tables.count else { return }
        let table = columns.tables[e]
        guard row < table.rowCount, table.alive[row] else { return }
        output.append(first ? " idrefs=\"z" as StaticString : " z" as StaticString)
        first = false
        output.appendDecimal(table.ids[row])
    }

    /// ``AttributeColumn/nilFlag``, as a constant of this module.
    private static let nilFlag: UInt8 = 0xFF

    /// Appends the value of attribute `a` of `row` in table `e`, a Decimal, UUID or undefined
    /// attribute (kept as values, not in typed columns); returns false when it is nil.
    private static func writeOther(
        _ tables: [EntityTable], _ e: Int, _ a: Int, _ row: Int, opening: UnsafeRawBufferPointer,
        to output: inout XMLOutputBuffer
    ) -> Bool {
        guard let value = tables[e].attributes[a].others[row] else { return false }
        output.append(opening)
        switch value {
        case .decimal(let value): output.append(string: value.description)
        case .uuid(let value): output.append(string: value.uuidString)
        case .string(let value): XMLStringEscaping.writeEntityEscaped(value, to: &output)
        default: break
        }
        return true
    }

    /// Every live object, by ascending id: each table's rows (sorted when they are not
    /// already), merged.
    private static func objectsInIDOrder(_ tables: [EntityTable]) -> [ManagedObject] {
        var lists: [[ManagedObject]] = []
        for table in tables where table.liveCount > 0 {
            var rows: [Int] = []
            rows.reserveCapacity(table.liveCount)
            var sorted = true
            var previous: UInt64 = 0
            for row in 0 ..< table.rowCount where table.alive[row] {
                if !rows.isEmpty && table.ids[row] < previous { sorted = false }
                previous = table.ids[row]
                rows.append(row)
            }
            if !sorted { rows.sort { table.ids[$0] < table.ids[$1] } }
            lists.append(rows.map { ManagedObject(entity: table.entity, row: $0) })
        }
        if lists.count == 1 { return lists[0] }
        let total = lists.reduce(0) { $0 + $1.count }
        var merged: [ManagedObject] = []
        merged.reserveCapacity(total)
        if lists.count > 8 {
            merged = lists.flatMap { $0 }
            merged.sort { tables[$0.entity].ids[$0.row] < tables[$1.entity].ids[$1.row] }
            return merged
        }
        var heads = [Int](repeating: 0, count: lists.count)
        for _ in 0 ..< total {
            var best = -1
            var bestID = UInt64.max
            for k in lists.indices where heads[k] < lists[k].count {
                let object = lists[k][heads[k]]
                let id = tables[object.entity].ids[object.row]
                if best < 0 || id < bestID {
                    best = k
                    bestID = id
                }
            }
            merged.append(lists[best][heads[best]])
            heads[best] += 1
        }
        return merged
    }

    // MARK: Plans

    private static func plan(_ info: EntityInfo) -> EntityPlan {
        var text = XMLOutputBuffer(capacity: 1024)
        text.appendIndent(1)
        text.append("<object type=\"")
        XMLStringEscaping.writeEntityEscaped(info.name.uppercased(), inAttribute: true, to: &text)
        text.append("\" id=\"z")
        let objectOpening = 0 ..< text.count
        var attributes: [(index: AttributeIndex, type: AttributeType, opening: Range<Int>)] = []
        for index in info.storedAttributeIndices where info.attributes[index].type != .undefined {
            let attribute = info.attributes[index]
            let start = text.count
            text.appendIndent(2)
            text.append("<attribute name=\"")
            XMLStringEscaping.writeEntityEscaped(attribute.name.lowercased(), inAttribute: true, to: &text)
            text.append("\" type=\"")
            text.append(string: attribute.type.xmlStoreName)
            text.append("\">")
            attributes.append((index, attribute.type, start ..< text.count))
        }
        var relationships: [(index: RelationshipIndex, isToMany: Bool, opening: Range<Int>)] = []
        for index in info.storedRelationshipIndices {
            let relationship = info.relationships[index]
            let start = text.count
            text.appendIndent(2)
            text.append("<relationship name=\"")
            XMLStringEscaping.writeEntityEscaped(relationship.name.lowercased(), inAttribute: true, to: &text)
            text.append(relationship.isToMany ? "\" type=\"0/0\" destination=\"" as StaticString : "\" type=\"1/1\" destination=\"")
            XMLStringEscaping.writeEntityEscaped(relationship.destination.uppercased(), inAttribute: true, to: &text)
            text.append("\"")
            relationships.append((index, relationship.isToMany, start ..< text.count))
        }
        return EntityPlan(
            text: [UInt8](text.takeData()), objectOpening: objectOpening,
            attributes: attributes, relationships: relationships)
    }

    /// A generous guess of the output size, so the buffer rarely grows.
    private static func estimatedSize(_ tables: [EntityTable]) -> Int {
        var size = 4096
        for table in tables {
            size += table.liveCount * (64 + 64 * table.attributes.count + 96 * table.relationships.count)
            for column in table.attributes where column.storage == .bytes { size += column.bytes.byteCount * 4 / 3 }
        }
        return size
    }
}
