import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Documents go through both formats and come back identical: XML -> binary -> XML byte for
/// byte, binary -> XML -> binary byte for byte at the same level, and the same objects either way.
@Suite struct CrossFormatTests {
    /// Graphs that exercise every attribute type, nil and empty values, every relationship kind and a hierarchy.
    static func samples() throws -> [(String, EditingContext)] {
        let types = EditingContext(schema: try StoreTestSchemas.allTypes())
        for (key, value) in BinaryRoundTripTests.samples {
            try types.setValue(value, forKey: key, of: try types.insert("Sample"))
        }
        try types.insert("Sample")

        let links = EditingContext(schema: try StoreTestSchemas.relationships())
        let nodes = try (0 ..< 4).map { i -> ManagedObject in
            let node = try links.insert("Node")
            try links.setValue(.string("n\(i) <&> \"q\""), forKey: "name", of: node)
            return node
        }
        let tag = try links.insert("Tag")
        let badge = try links.insert("Badge")
        for child in [nodes[3], nodes[1]] { try links.add(child, toKey: "children", of: nodes[0]) }
        try links.add(nodes[1], toKey: "friends", of: nodes[0])
        try links.add(tag, toKey: "tags", of: nodes[2])
        try links.add(tag, toKey: "tags", of: nodes[0])
        try links.setObject(badge, forKey: "badge", of: nodes[3])
        try links.setObject(tag, forKey: "favorite", of: nodes[1])
        try links.add(nodes[2], toKey: "followers", of: nodes[1])

        let shapes = EditingContext(schema: try StoreTestSchemas.hierarchy())
        let group = try shapes.insert("Group")
        for entity in ["RoundedSquare", "Circle", "Square"] { try shapes.add(try shapes.insert(entity), toKey: "shapes", of: group) }

        return [("types", types), ("links", links), ("shapes", shapes), ("outline", try StoreTestSchemas.outline(40))]
    }

    @Test(arguments: 0 ..< 4)
    func xmlToBinaryToXMLIsByteIdentical(_ index: Int) throws {
        let (_, context) = try Self.samples()[index]
        var metadata = StoreMetadata(format: .xml, embeddedSchema: context.schema)
        metadata[custom: "Owner"] = .string("Ann")
        metadata[custom: "Window"] = .dictionary([("width", .integer(800)), ("zoom", .real(1.5))])
        let xml = [UInt8](XMLStore.write(context.graph, metadata: metadata))
        let fromXML = try PersistentStore.load(xml)
        #expect(fromXML.format == .xml)
        let binary = try fromXML.encoded(as: .binary)
        let fromBinary = try PersistentStore.load(binary)
        #expect(snapshot(fromBinary.context.graph) == snapshot(context.graph))
        #expect(fromBinary.metadata[custom: "Owner"] == .string("Ann"))
        #expect(try fromBinary.encoded(as: .xml) == xml)
        #expect(try PersistentStore.load(try fromBinary.encoded(as: .xml)).encoded(as: .binary) == binary)
    }

    @Test(arguments: 0 ..< 4)
    func binaryToXMLToBinaryIsByteIdentical(_ index: Int) throws {
        let (_, context) = try Self.samples()[index]
        let binary = try BinaryStore.write(context.graph, metadata: StoreMetadata(format: .binary, embeddedSchema: context.schema), level: 6)
        let viaXML = try PersistentStore.load(try PersistentStore.load(binary).encoded(as: .xml))
        viaXML.options.compressionLevel = 6
        let again = try viaXML.encoded(as: .binary)
        let first = try BinaryStore.readMetadata(Data(binary), file: "a")
        let second = try BinaryStore.readMetadata(Data(again), file: "b")
        #expect(first.frameworkVersion == second.frameworkVersion)
        #expect(first.nextObjectID == second.nextObjectID)
        #expect(first.custom.map { $0.key } == second.custom.map { $0.key })
        #expect(first.versionIdentifiers == second.versionIdentifiers)
        #expect(first.uuid == second.uuid)
        #expect(first.objectCounts == second.objectCounts)
        #expect(again == binary)
        #expect(snapshot(viaXML.context.graph) == snapshot(context.graph))
    }
}
