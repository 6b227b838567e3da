import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@Suite struct BinaryRoundTripTests {
    /// Writes and reads back, with the given schema and with the embedded one.
    func roundTrip(
        _ context: EditingContext, metadata: StoreMetadata = StoreMetadata(format: .binary),
        level: Int = 1
    ) throws -> (ObjectGraph, StoreMetadata, [UInt8]) {
        let bytes = try BinaryStore.write(context.graph, metadata: metadata, level: level)
        let (graph, read) = try BinaryStore.read(bytes, schema: context.schema, file: "test.outline")
        #expect(snapshot(graph) == snapshot(context.graph))
        let (embedded, _) = try BinaryStore.read(bytes, schema: nil, file: "test.outline")
        #expect(snapshot(embedded) == snapshot(context.graph))
        #expect(embedded.schema == context.schema)
        return (graph, read, bytes)
    }

    static let samples: [(String, Value)] = [
        ("int16", .integer(-32768)), ("int16", .integer(32767)),
        ("int32", .integer(Int64(Int32.min))), ("int64", .integer(Int64.min)), ("int64", .integer(Int64.max)),
        ("decimal", .decimal(Decimal(string: "-12345678901234567890.125")!)), ("decimal", .decimal(0)),
        ("double", .double(-0.0)), ("double", .double(.pi)), ("double", .double(.infinity)), ("double", .double(.nan)),
        ("double", .double(.leastNonzeroMagnitude)), ("float", .double(Double(Float(1.1)))),
        ("string", .string("")), ("string", .string("plain")), ("string", .string("naïve – 日本語 🎉 \u{0}")),
        ("boolean", .boolean(true)), ("boolean", .boolean(false)),
        ("date", .date(Date(timeIntervalSinceReferenceDate: 0))), ("date", .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.123456))),
        ("binary", .binary(Data())), ("binary", .binary(Data([0, 0xFF, 0x80, 0xC0]))),
        ("uuid", .uuid(UUID(uuidString: "B4FC79D0-E654-43EF-9020-A5273B3F104A")!)),
        ("uri", .string("https://example.com/a?b=c")), ("transformable", .binary(Data("plist".utf8))),
        ("objectID", .string("x-coredata://B4FC79D0/Item/p1")),
    ]

    @Test(arguments: samples.indices)
    func everyAttributeTypeRoundTrips(_ index: Int) throws {
        let (key, value) = Self.samples[index]
        let context = EditingContext(schema: try StoreTestSchemas.allTypes())
        let object = try context.insert("Sample")
        try context.setValue(value, forKey: key, of: object)
        _ = try context.insert("Sample")  // all nil
        let (graph, _, _) = try roundTrip(context)
        let loaded = try #require(graph.objects(ofEntity: 0).first)
        let attribute = try #require(graph.schema.infos[0].attributeIndex(named: key))
        let stored = graph.attributeValue(of: loaded, attribute)
        if case .double(let d) = value, d.isNaN {
            #expect(stored?.doubleValue?.isNaN == true)
        } else {
            #expect(stored == value)
        }
    }

    @Test func nilAndEmptyStringStayDistinct() throws {
        let context = EditingContext(schema: try StoreTestSchemas.allTypes())
        let empty = try context.insert("Sample")
        try context.setValue(.string(""), forKey: "string", of: empty)
        try context.setValue(.binary(Data()), forKey: "binary", of: empty)
        let none = try context.insert("Sample")
        let (graph, _, _) = try roundTrip(context)
        let string = try #require(graph.schema.infos[0].attributeIndex(named: "string"))
        let binary = try #require(graph.schema.infos[0].attributeIndex(named: "binary"))
        #expect(graph.attributeValue(of: empty, string) == .string(""))
        #expect(graph.attributeValue(of: none, string) == nil)
        #expect(graph.attributeValue(of: empty, binary) == .binary(Data()))
        #expect(graph.attributeValue(of: none, binary) == nil)
    }

    @Test func everyRelationshipKindRoundTripsWithOrder() throws {
        let context = EditingContext(schema: try StoreTestSchemas.relationships())
        let nodes = try (0 ..< 5).map { i -> ManagedObject in
            let node = try context.insert("Node")
            try context.setValue(.string("n\(i)"), forKey: "name", of: node)
            return node
        }
        let tags = try (0 ..< 3).map { _ in try context.insert("Tag") }
        let badge = try context.insert("Badge")
        // Children in an order unlike insertion order.
        for child in [nodes[3], nodes[1], nodes[4]] { try context.add(child, toKey: "children", of: nodes[0]) }
        try context.add(nodes[2], toKey: "children", of: nodes[1])
        try context.add(nodes[1], toKey: "friends", of: nodes[0])
        try context.add(nodes[0], toKey: "friends", of: nodes[0])  // self-friend
        try context.add(nodes[4], toKey: "friends", of: nodes[2])
        try context.add(tags[2], toKey: "tags", of: nodes[0])
        try context.add(tags[0], toKey: "tags", of: nodes[0])
        try context.add(tags[2], toKey: "tags", of: nodes[3])
        try context.add(nodes[1], toKey: "nodes", of: tags[2])  // Tag.nodes order differs from insertion
        try context.setObject(badge, forKey: "badge", of: nodes[4])
        try context.setObject(tags[1], forKey: "favorite", of: nodes[2])
        try context.add(nodes[3], toKey: "followers", of: nodes[2])
        try context.add(nodes[2], toKey: "followers", of: nodes[2])
        let (graph, _, _) = try roundTrip(context)
        #expect(try context.objects(forKey: "nodes", of: tags[2]) == graph.relatedObjects(of: tags[2], 0))
        #expect(graph.relatedObjects(of: nodes[0], 0) == [nodes[3], nodes[1], nodes[4]])
    }

    @Test func abstractAndParentEntitiesRoundTrip() throws {
        let context = EditingContext(schema: try StoreTestSchemas.hierarchy())
        let group = try context.insert("Group")
        let circle = try context.insert("Circle")
        try context.setValue(.double(2), forKey: "radius", of: circle)
        try context.setValue(.string("c"), forKey: "name", of: circle)
        let square = try context.insert("Square")
        let rounded = try context.insert("RoundedSquare")
        try context.setValue(.double(0.5), forKey: "corner", of: rounded)
        try context.setValue(.double(3), forKey: "side", of: rounded)
        for shape in [rounded, circle, square] { try context.add(shape, toKey: "shapes", of: group) }
        let (graph, metadata, _) = try roundTrip(context)
        #expect(metadata.objectCounts == ["Shape": 0, "Circle": 1, "Square": 1, "RoundedSquare": 1, "Group": 1])
        #expect(graph.relatedObjects(of: group, 0) == [rounded, circle, square])
        #expect(graph.relatedObject(of: rounded, 0) == group)
    }

    @Test func metadataRoundTripsAndIsReadableWithoutTheBody() throws {
        let context = try StoreTestSchemas.outline()
        var metadata = StoreMetadata(format: .binary, uuid: UUID(uuidString: "B4FC79D0-E654-43EF-9020-A5273B3F104A")!, frameworkVersion: 1251)
        metadata[custom: "string"] = .string("value")
        metadata[custom: "nested"] = .dictionary([
            ("b", .array([.integer(-5), .real(1.5), .boolean(true), .boolean(false)])),
            ("a", .date(Date(timeIntervalSinceReferenceDate: 12.5))),
            ("c", .data(Data([1, 2, 3]))),
        ])
        let (_, read, bytes) = try roundTrip(context, metadata: metadata, level: 6)
        #expect(read.uuid == metadata.uuid)
        #expect(read.custom.map(\.key) == ["string", "nested"])
        #expect(read[custom: "nested"] == metadata[custom: "nested"])
        #expect(read.frameworkVersion == 1251)
        #expect(read.compressionLevel == 6)
        #expect(read.versionHashes == context.schema.entityVersionHashes)
        #expect(read.versionIdentifiers == [""])
        #expect(read.objectCounts == ["Item": 12])
        #expect(read.nextObjectID == context.graph.nextID)
        #expect(read.embeddedSchema == context.schema)

        // The header alone is enough: cut the file right after it.
        let headerSize = try #require(bytes.withUnsafeBytes { BinaryStore.headerSize(prefix: $0) })
        let headerOnly = try Array(bytes[..<headerSize]).withUnsafeBytes { try BinaryStore.readMetadata($0, file: "t") }
        #expect(headerOnly == read)
    }

    @Test func deletedObjectsAreDroppedAndRowsRenumbered() throws {
        let context = try StoreTestSchemas.outline(20)
        let items = try context.objects(ofEntity: "Item")
        try context.delete(items[2])  // cascades to its subtree
        try context.delete(items[13])
        let bytes = try BinaryStore.write(context.graph, metadata: StoreMetadata(format: .binary))
        let (graph, metadata) = try BinaryStore.read(bytes, schema: nil, file: "t")
        #expect(snapshot(graph) == snapshot(context.graph))
        #expect(graph.tables[0].rowCount == context.graph.objectCount)
        #expect(metadata.objectCounts == ["Item": context.graph.objectCount])
        #expect(graph.nextID == context.graph.nextID)
    }

    @Test(arguments: [0, 1, 6, 9])
    func rewritingIsByteIdenticalAtTheSameLevel(level: Int) throws {
        let context = try StoreTestSchemas.outline(50)
        var metadata = StoreMetadata(format: .binary)
        metadata[custom: "k"] = .string("v")
        let first = try BinaryStore.write(context.graph, metadata: metadata, level: level)
        let (graph, read) = try BinaryStore.read(first, schema: nil, file: "t")
        let second = try BinaryStore.write(graph, metadata: read, level: level)
        #expect(first == second)
    }

    @Test func largeBodiesSpanSeveralChunks() throws {
        let context = EditingContext(schema: try StoreTestSchemas.allTypes())
        context.isUndoRegistrationEnabled = false
        let blob = Data((0 ..< 200_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
        for _ in 0 ..< 25 {
            try context.setValue(.binary(blob), forKey: "binary", of: try context.insert("Sample"))
        }
        let (_, metadata, _) = try roundTrip(context, level: 1)
        #expect(try #require(metadata.uncompressedSize) > 4 << 20)
    }

    @Test func aDifferentModelIsRefusedNamingTheEntities() throws {
        let bytes = try BinaryStore.write(try StoreTestSchemas.outline().graph, metadata: StoreMetadata(format: .binary))
        let other = try Schema(
            name: "Other",
            entities: [
                Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)]),
                Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)]),
            ])
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bytes, schema: other, file: "notes.outline") }
        #expect(error?.code == .incompatibleModel)
        #expect(
            error?.description == """
                notes.outline: the document was saved with a different model (entities Item, Note). Open it with the model it was saved with, or migrate it to this model.
                  - Item: the entity changed
                  - Note: in the model, not in the document
                """)
    }

    @Test func emptyGraphRoundTrips() throws {
        let context = EditingContext(schema: try StoreTestSchemas.hierarchy())
        let (graph, metadata, _) = try roundTrip(context)
        #expect(graph.objectCount == 0)
        #expect(metadata.objectCounts?.values.allSatisfy { $0 == 0 } == true)
    }
}
