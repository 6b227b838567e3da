import Foundation
import Testing
@_spi(Storage) import OutlineEngine
@testable import OutlineStorage

@Suite struct XMLStoreReadingTests {
    @Test func readsTheNestedListWithItsModel() throws {
        let schema = try XMLFixture.nestedListSchema()
        let (graph, metadata) = try XMLFixture.read("NestedList.xml", schema: schema)
        #expect(graph.objectCount == 6)
        let root = try #require(graph.object(102))
        #expect(graph.value(root, "title") == .string("Groceries"))
        #expect(graph.ids(root, "children") == [103, 104])
        let milk = try #require(graph.object(103))
        #expect(graph.value(milk, "title") == .string("Milk & eggs <cheap>"))
        #expect(graph.id(milk, "parent") == 102)
        #expect(metadata.uuid.uuidString == "B4FC79D0-E654-43EF-9020-A5273B3F104A")
        #expect(metadata.frameworkVersion == 1251)
        #expect(metadata.versionIdentifiers == [""])
        #expect(metadata.nextObjectID == 107)
        #expect(graph.nextID == 108)
    }

    @Test func writesTheNestedListBackByteForByte() throws {
        let schema = try XMLFixture.nestedListSchema()
        let bytes = try XMLFixture.data("NestedList.xml")
        let (graph, metadata) = try XMLStore.read(bytes, schema: schema, file: "NestedList.xml")
        let written = XMLStore.write(graph, metadata: metadata)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
    }

    @Test func readsTheNestedListWithoutItsModel() throws {
        let (graph, _) = try XMLFixture.read("NestedList.xml", schema: nil)
        #expect(graph.schema.entities.map(\.name) == ["Item"])
        let written = XMLStore.write(graph, metadata: try XMLFixture.read("NestedList.xml", schema: nil).metadata)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try XMLFixture.data("NestedList.xml"), as: UTF8.self))
    }
}
