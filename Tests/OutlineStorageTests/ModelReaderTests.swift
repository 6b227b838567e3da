import Foundation
import Testing
import OutlineEngine
import OutlineStorage

@Suite struct ModelReaderTests {
    @Test func nestedTodoListLoadsAndHashesToTheGoldenVector() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("NestedTodoList.xcdatamodeld"))
        #expect(bundle.name == "NestedTodoList")
        #expect(bundle.versions.map(\.name) == ["NestedTodoList"])
        let schema = bundle.current
        #expect(schema.versionIdentifier == "")
        let item = try #require(schema.info(named: "Item"))
        #expect(item.entity.className == "Item")
        #expect(item.attributes == [
            Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
            Attribute(name: "title", type: .string),
        ])
        #expect(item.relationships == [
            Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
            Relationship(name: "parent", destination: "Item", inverse: "children", minCount: 1, maxCount: 1),
        ])
        #expect(schema.entityVersionHashes["Item"]?.base64EncodedString() == "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=")
    }
}
