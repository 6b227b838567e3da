import OutlineTestSupport
import Testing

@testable import OutlineEngine

@Suite struct SchemaTests {
    @Test func inheritedPropertiesComeFirstAndKeepTheirIndices() throws {
        let schema = try Schema(entities: [
            Entity(name: "Node", isAbstract: true, attributes: [Attribute(name: "name", type: .string)]),
            Entity(name: "Leaf", parent: "Node", attributes: [Attribute(name: "weight", type: .double)]),
        ])
        let leaf = try #require(schema.info(named: "Leaf"))
        #expect(leaf.attributes.map(\.name) == ["name", "weight"])
        #expect(leaf.attributeIndex(named: "name") == schema.info(named: "Node")?.attributeIndex(named: "name"))
        #expect(schema.info(named: "Node")?.subentities == [1])
    }
}
