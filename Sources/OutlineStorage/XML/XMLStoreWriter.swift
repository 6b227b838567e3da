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

    static func write(_ graph: GraphSnapshot, metadata: StoreMetadata) -> Data {
        let tables = graph.tables
        let plans = graph.schema.infos.map(plan)
        var output = XMLOutputBuffer(capacity: estimatedSize(tables))

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

        for object in objectsInIDOrder(tables) {
            writeObject(object, plans[object.entity], tables, to: &output)
        }
        output.append("</database>")
        return output.takeData()
    }

    // MARK: Objects

    private static func writeObject(_ object: ManagedObject, _ plan: EntityPlan, _ tables: [EntityTable],
                                    to output: inout XMLOutputBuffer) {
        let e = object.entity.rawValue
        let row = object.row
        plan.text.withUnsafeBytes { text in
            output.append(UnsafeRawBufferPointer(rebasing: text[plan.objectOpening]))
            output.appendDecimal(tables[e].ids[row])
            output.append("\">\n" as StaticString)
            for (a, type, opening) in plan.attributes {
                if isNil(type, tables, e, a.rawValue, row) { continue }
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                writeValue(type, tables, e, a.rawValue, row, to: &output)
                output.append("</attribute>\n" as StaticString)
            }
            for (r, isToMany, opening) in plan.relationships {
                output.append(UnsafeRawBufferPointer(rebasing: text[opening]))
                var first = true
                if isToMany {
                    for target in tables[e].relationships[r.rawValue].many[row] {
                        writeReference(target, tables, first: &first, to: &output)
                    }
                } else if let target = RelationshipColumn.object(stored: tables[e].relationships[r.rawValue].single[row]) {
                    writeReference(target, tables, first: &first, to: &output)
                }
                output.append(first ? "></relationship>\n" as StaticString : "\"></relationship>\n" as StaticString)
            }
        }
        output.appendIndent(1)
        output.append("</object>\n" as StaticString)
    }

    // Columns are reached through `tables`, by plain `Int` positions and stored properties
    // only, each time: binding a column to a local, calling one of its methods or indexing with
    // the typed indices (not inlined across modules) copies the column and retains its arrays
    // once per value.

    /// Whether attribute `a` (of type `type`) of `row` in table `e` is nil.
    @inline(__always)
    private static func isNil(_ type: AttributeType, _ tables: [EntityTable], _ e: Int, _ a: Int, _ row: Int) -> Bool {
        if tables[e].attributes[a].untouchedNilRows > 0 { return true }
        switch type {
        case .string, .uri, .objectID, .binary, .transformable: return tables[e].attributes[a].bytes.lengths[row] < 0
        case .integer16, .integer32, .integer64, .double, .float, .date: return !tables[e].attributes[a].present[row]
        case .boolean: return tables[e].attributes[a].flags[row] == nilFlag
        case .decimal, .uuid, .undefined: return tables[e].attributes[a].others[row] == nil
        }
    }

    /// ``AttributeColumn/nilFlag``, as a constant of this module.
    private static let nilFlag: UInt8 = 0xFF

    /// Calls `body` with the bytes of attribute `a` of `row` in table `e`, which is not nil.
    @inline(__always)
    private static func withBytes(_ tables: [EntityTable], _ e: Int, _ a: Int, _ row: Int,
                                  _ body: (UnsafeRawBufferPointer) -> Void) {
        let length = Int(tables[e].attributes[a].bytes.lengths[row])
        guard length > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let location = tables[e].attributes[a].bytes.starts[row]
        let offset = location & 0xFFFF_FFFF
        tables[e].attributes[a].bytes.chunks[location >> 32].withUnsafeBytes { chunk in
            body(UnsafeRawBufferPointer(rebasing: chunk[offset ..< offset + length]))
        }
    }

    /// Appends the value of attribute `a` of `row` in table `e`, which is not nil.
    @inline(__always)
    private static func writeValue(_ type: AttributeType, _ tables: [EntityTable], _ e: Int, _ a: Int, _ row: Int,
                                   to output: inout XMLOutputBuffer) {
        switch type {
        case .string, .uri, .objectID:
            withBytes(tables, e, a, row) { XMLStringEscaping.writeEscaped($0, to: &output) }
        case .integer16, .integer32, .integer64:
            output.appendDecimal(tables[e].attributes[a].integers[row])
        case .boolean:
            output.append(tables[e].attributes[a].flags[row] != 0 ? 0x31 : 0x30)
        case .date:
            XMLNumberFormatting.appendFixed20(tables[e].attributes[a].doubles[row], to: &output)
        case .double, .float:
            output.append(string: XMLNumberFormatting.shortest(tables[e].attributes[a].doubles[row]))
        case .binary, .transformable:
            withBytes(tables, e, a, row) { output.appendStoreBase64($0) }
        case .decimal, .uuid, .undefined:
            switch tables[e].attributes[a].others[row] {
            case .decimal(let value)?: output.append(string: value.description)
            case .uuid(let value)?: output.append(string: value.uuidString)
            case .string(let value)?: XMLStringEscaping.writeEntityEscaped(value, to: &output)
            default: break
            }
        }
    }

    /// Appends ` idrefs="zN` for the first reference, ` zN` for the others; skips deleted objects.
    @inline(__always)
    private static func writeReference(_ target: ManagedObject, _ tables: [EntityTable], first: inout Bool,
                                       to output: inout XMLOutputBuffer) {
        let e = target.entity.rawValue, row = target.row
        guard e < tables.count, row < tables[e].ids.count, tables[e].alive[row] else { return }
        output.append(first ? " idrefs=\"z" as StaticString : " z" as StaticString)
        first = false
        output.appendDecimal(tables[e].ids[row])
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
        return EntityPlan(text: [UInt8](text.takeData()), objectOpening: objectOpening,
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
