import Foundation
@_spi(Storage) import OutlineEngine

/// Writes an ``ObjectGraph`` in Core Data's XML store layout, by hand into one buffer.
///
/// Everything constant per entity and property (`<object type="ITEM" id="z`, `<attribute
/// name="title" type="string">`, ...) is prepared once; per object only ids, values and
/// escapes are formatted.
enum XMLStoreWriter {
    /// The parts of one property's element that do not depend on the object.
    private struct PropertyPlan {
        var index: Int
        var type: AttributeType
        /// `        <attribute name="..." type="...">` or `        <relationship name="..." type="..." destination="..."`.
        var opening: [UInt8]
        var isToMany = false
    }

    private struct EntityPlan {
        /// `    <object type="ITEM" id="z`.
        var opening: [UInt8]
        var attributes: [PropertyPlan]
        var relationships: [PropertyPlan]
    }

    static func write(_ graph: ObjectGraph, metadata: StoreMetadata) -> Data {
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
        output.append(metadata.uuid.uuidString.uppercased())
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
        let table = tables[object.entity]
        let row = object.row
        plan.opening.withUnsafeBytes { output.append($0) }
        output.appendDecimal(table.ids[row])
        output.append("\">\n")
        for property in plan.attributes {
            let column = table.attributes[property.index]
            guard !column.isNil(row) else { continue }
            property.opening.withUnsafeBytes { output.append($0) }
            switch property.type {
            case .string, .uri, .objectID:
                column.bytes.withBytes(row) { bytes in
                    if let bytes { XMLStringEscaping.writeEscaped(bytes, to: &output) }
                }
            case .integer16, .integer32, .integer64:
                output.appendDecimal(column.integers[row])
            case .boolean:
                output.append(column.integers[row] != 0 ? 0x31 : 0x30)
            case .date:
                XMLNumberFormatting.appendFixed20(column.doubles[row], to: &output)
            case .double, .float:
                output.append(XMLNumberFormatting.shortest(column.doubles[row]))
            case .binary, .transformable:
                column.bytes.withBytes(row) { bytes in
                    if let bytes { output.appendStoreBase64(bytes) }
                }
            case .decimal, .uuid, .undefined:
                switch column.value(row) {
                case .decimal(let value)?: output.append(value.description)
                case .uuid(let value)?: output.append(value.uuidString)
                case .string(let value)?: XMLStringEscaping.writeEntityEscaped(value, to: &output)
                default: break
                }
            }
            output.append("</attribute>\n")
        }
        for property in plan.relationships {
            property.opening.withUnsafeBytes { output.append($0) }
            let column = table.relationships[property.index]
            var first = true
            func reference(_ target: ManagedObject) {
                guard target.entity < tables.count, target.row < tables[target.entity].rowCount,
                      tables[target.entity].alive[target.row] else { return }
                output.append(first ? " idrefs=\"z" : " z")
                first = false
                output.appendDecimal(tables[target.entity].ids[target.row])
            }
            if property.isToMany {
                for target in column.many[row] { reference(target) }
            } else if let target = column.object(row) {
                reference(target)
            }
            output.append(first ? "></relationship>\n" : "\"></relationship>\n")
        }
        output.appendIndent(1)
        output.append("</object>\n")
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
        var opening = XMLOutputBuffer(capacity: 64)
        opening.appendIndent(1)
        opening.append("<object type=\"")
        XMLStringEscaping.writeEntityEscaped(info.name.uppercased(), inAttribute: true, to: &opening)
        opening.append("\" id=\"z")
        var attributes: [PropertyPlan] = []
        for index in info.storedAttributeIndices where info.attributes[index].type != .undefined {
            let attribute = info.attributes[index]
            var text = XMLOutputBuffer(capacity: 64)
            text.appendIndent(2)
            text.append("<attribute name=\"")
            XMLStringEscaping.writeEntityEscaped(attribute.name.lowercased(), inAttribute: true, to: &text)
            text.append("\" type=\"")
            text.append(attribute.type.xmlStoreName)
            text.append("\">")
            attributes.append(PropertyPlan(index: index, type: attribute.type, opening: [UInt8](text.takeData())))
        }
        var relationships: [PropertyPlan] = []
        for index in info.storedRelationshipIndices {
            let relationship = info.relationships[index]
            var text = XMLOutputBuffer(capacity: 64)
            text.appendIndent(2)
            text.append("<relationship name=\"")
            XMLStringEscaping.writeEntityEscaped(relationship.name.lowercased(), inAttribute: true, to: &text)
            text.append(relationship.isToMany ? "\" type=\"0/0\" destination=\"" : "\" type=\"1/1\" destination=\"")
            XMLStringEscaping.writeEntityEscaped(relationship.destination.uppercased(), inAttribute: true, to: &text)
            text.append("\"")
            relationships.append(PropertyPlan(index: index, type: .undefined, opening: [UInt8](text.takeData()),
                                              isToMany: relationship.isToMany))
        }
        return EntityPlan(opening: [UInt8](opening.takeData()), attributes: attributes, relationships: relationships)
    }

    /// A generous guess of the output size, so the buffer rarely grows.
    private static func estimatedSize(_ tables: [EntityTable]) -> Int {
        var size = 4096
        for table in tables {
            size += table.liveCount * (64 + 64 * table.attributes.count + 96 * table.relationships.count)
            for column in table.attributes where column.storage == .bytes { size += column.bytes.arena.count * 4 / 3 }
        }
        return size
    }
}
