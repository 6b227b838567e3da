import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Reading stores without their model: the schema derived from the file.
@Suite struct XMLStoreDerivationTests {
    /// `Entity.property -> destination (to-one/to-many) inverse` for every relationship, sorted.
    static func relationships(_ schema: Schema) -> [String] {
        schema.entities.flatMap { entity in
            entity.relationships.map {
                "\(entity.name).\($0.name) -> \($0.destination) \($0.isToMany ? "to-many" : "to-one") inverse \($0.inverse ?? "-")"
            }
        }.sorted()
    }

    static func attributes(_ schema: Schema) -> [String] {
        schema.entities.flatMap { entity in entity.attributes.map { "\(entity.name).\($0.name): \($0.type.modelName)" } }
    }

    @Test func derivesTheNestedList() throws {
        let (graph, _) = try XMLFixture.read("NestedList.xml", schema: nil)
        let schema = graph.schema
        #expect(schema.entities.map(\.name) == ["Item"], "the case comes from the version hashes")
        #expect(Self.attributes(schema) == ["Item.order: Integer 64", "Item.title: String"])
        #expect(Self.relationships(schema) == ["Item.children -> Item to-many inverse parent", "Item.parent -> Item to-one inverse children"])
        #expect(graph.ids(try #require(graph.object(104)), "children") == [105, 106])
    }

    @Test func derivesHierarchyInversesAndEveryType() throws {
        let (graph, _) = try XMLFixture.read("AllTypes.xml", schema: nil)
        let schema = graph.schema
        #expect(schema.entities.map(\.name) == ["Base", "Note", "Person", "Record", "Tag"])
        let base = try #require(schema.info(named: "Base"))
        #expect(base.entity.isAbstract)
        #expect(base.subentities.map { schema.entities[$0].name }.sorted() == ["Note", "Record"])
        #expect(
            Self.attributes(schema) == [
                "Base.created: Date", "Note.text: String", "Person.fullname: String",
                "Record.small: Integer 16", "Record.medium: Integer 32", "Record.large: Integer 64", "Record.flag: Boolean",
                "Record.ratio: Float", "Record.amount: Double", "Record.price: Decimal", "Record.when: Date",
                "Record.blob: Binary", "Record.name: String", "Record.ident: UUID", "Record.link: URI",
                "Record.payload: Transformable", "Tag.label: String",
            ])
        #expect(
            Self.relationships(schema) == [
                "Base.tags -> Tag to-many inverse items",
                "Person.records -> Record to-many inverse owner",
                "Record.next -> Record to-one inverse previous",
                "Record.owner -> Person to-one inverse records",
                "Record.previous -> Record to-one inverse next",
                "Record.related -> Record to-many inverse related",
                "Tag.items -> Base to-many inverse tags",
            ])
        let tag = try #require(graph.object(110))
        #expect(graph.ids(tag, "items") == [106, 104])
    }

    @Test func derivedSchemasAreUsableForEditingAndValidation() throws {
        let (graph, metadata) = try XMLFixture.read("PrologPlain.xml", schema: nil)
        #expect(
            Self.relationships(graph.schema) == [
                "PICTURE.vehicle -> VEHICLE to-one inverse pictures",
                "VEHICLE.pictures -> PICTURE to-many inverse vehicle",
            ])
        let context = EditingContext(graph: graph)
        #expect(context.validationIssues().isEmpty)
        let picture = try context.insert("PICTURE")
        let saab: ManagedObject = try #require(graph.object(105))
        try context.setObject(saab, forKey: "vehicle", of: picture)
        #expect(graph.ids(saab, "pictures") == [106], "the derived inverse is maintained")
        let (copy, _) = try XMLStore.read(XMLStore.write(graph, metadata: metadata), schema: nil, file: "copy.xml")
        #expect(copy.objectCount == 5)
    }

    @Test func pairsALoneRelationshipPairEvenWithoutLinks() throws {
        let text = """
            <?xml version="1.0"?>
            <database>
                <databaseInfo><version>134481920</version><UUID>343C8D7F-A000-42C4-8463-43FA1E5EF3FB</UUID><metadata/></databaseInfo>
                <object type="ITEM" id="z102">
                    <relationship name="children" type="0/0" destination="ITEM"></relationship>
                    <relationship name="parent" type="1/1" destination="ITEM"></relationship>
                </object>
            </database>
            """
        let (graph, _) = try XMLStore.read(Data(text.utf8), schema: nil, file: "lone.xml")
        #expect(Self.relationships(graph.schema) == ["ITEM.children -> ITEM to-many inverse parent", "ITEM.parent -> ITEM to-one inverse children"])
    }
}
