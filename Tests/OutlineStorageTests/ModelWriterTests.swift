import Foundation
import OutlineEngine
import OutlineStorage
import Testing

@Suite struct ModelWriterTests {
    /// Every model read from a file in the tests: the valid fixtures and the outline schema versions.
    static let modelFiles: [String] = [
        "Fixtures/Models/NestedTodoList.xcdatamodeld",
        "Fixtures/Models/Library.xcdatamodeld",
        "Fixtures/Models/AllAttributeTypes.xcdatamodel",
        "Schemas/Outline.xcdatamodeld",
    ]

    static func schemas(in relative: String) throws -> [Schema] {
        try ModelReader.read(at: Fixtures.folder.deletingLastPathComponent().appending(path: relative)).versions
    }

    /// Writes `schema`, reads it back and checks that nothing changed.
    static func expectRoundTrip(_ schema: Schema) throws {
        let text = ModelWriter.contents(of: schema)
        let back = try ModelReader.readSchema(contents: Data(text.utf8), name: schema.name)
        #expect(back == schema)
        #expect(back.entityVersionHashes == schema.entityVersionHashes)
        #expect(back.versionChecksum == schema.versionChecksum)
        #expect(ModelWriter.contents(of: back) == text)
    }

    @Test(arguments: modelFiles)
    func everyModelFileSchemaSurvivesWriteAndRead(_ relative: String) throws {
        let schemas = try Self.schemas(in: relative)
        #expect(!schemas.isEmpty)
        for schema in schemas { try Self.expectRoundTrip(schema) }
    }

    @Test func schemaBuiltInCodeSurvivesWriteAndRead() throws {
        try Self.expectRoundTrip(try Self.everything())
    }

    @Test func outputHasXcodesLayout() throws {
        let schema = try Schema(
            name: "Small", versionIdentifier: "7",
            entities: [
                Entity(name: "Empty"),
                Entity(
                    name: "Tag",
                    attributes: [
                        Attribute(name: "name", type: .string, isOptional: false, userInfo: ["b": "2", "a": "x & <y> \"z\""])
                    ], uniquenessConstraints: [["name"]], className: "Tag"),
            ])
        #expect(
            ModelWriter.contents(of: schema) == """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="7">
                    <entity name="Empty" syncable="YES"/>
                    <entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="name" attributeType="String">
                            <userInfo>
                                <entry key="a" value="x &amp; &lt;y&gt; &quot;z&quot;"/>
                                <entry key="b" value="2"/>
                            </userInfo>
                        </attribute>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="name"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                </model>
                """)
    }

    @Test func emptySchemaIsASelfClosingModel() throws {
        let text = ModelWriter.contents(of: try Schema(entities: []))
        #expect(text.hasSuffix(#"userDefinedModelVersionIdentifier=""/>"#))
        #expect(try ModelReader.readSchema(contents: Data(text.utf8), name: "").entities.isEmpty)
    }

    @Test func outputIsDeterministic() throws {
        let schema = try Self.everything()
        let texts = (0 ..< 5).map { _ in ModelWriter.data(of: schema) }
        #expect(Set(texts).count == 1)
    }

    /// A schema using every feature the writer writes.
    static func everything() throws -> Schema {
        let base = Entity(
            name: "Base", isAbstract: true,
            attributes: [
                Attribute(
                    name: "created", type: .date, isOptional: false,
                    defaultValue: .date(Date(timeIntervalSinceReferenceDate: 12.25)),
                    minValue: .date(Date(timeIntervalSinceReferenceDate: -86400)),
                    preservesValueInHistoryOnDeletion: true),
                Attribute(name: "identifier", type: .uuid, defaultValue: .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))),
            ],
            renamingIdentifier: "Root", versionHashModifier: "v2", className: "Base",
            userInfo: ["line\nbreak": "tab\there"])
        let node = Entity(
            name: "Node", parent: "Base",
            attributes: [
                Attribute(
                    name: "count", type: .integer16, isOptional: false, defaultValue: .integer(-1),
                    minValue: .integer(-10), maxValue: .integer(10), versionHashModifier: "signed"),
                Attribute(name: "amount", type: .decimal, defaultValue: .decimal(Decimal(12_345) / 1000)),
                Attribute(name: "ratio", type: .float, defaultValue: .double(0.1)),
                Attribute(name: "big", type: .integer64, defaultValue: .integer(Int64.max)),
                Attribute(name: "done", type: .boolean, isOptional: false, defaultValue: .boolean(true)),
                Attribute(
                    name: "label", type: .string, minValue: .integer(0), maxValue: .integer(80),
                    regularExpression: "^[^<>&\"]*$", renamingIdentifier: "title"),
                Attribute(name: "link", type: .uri, defaultValue: .string("https://example.com/?a=1&b=2")),
                Attribute(name: "payload", type: .binary, allowsExternalBinaryDataStorage: true),
                Attribute(name: "colors", type: .transformable, valueTransformerName: "ColorTransformer"),
                Attribute(name: "scratch", type: .undefined, isTransient: true),
                Attribute(name: "ref", type: .objectID),
                Attribute(name: "measure", type: .double, isTransient: true, defaultValue: .double(1e-7)),
            ],
            relationships: [
                Relationship(
                    name: "children", destination: "Node", inverse: "parent", isToMany: true, isOrdered: true,
                    minCount: 1, maxCount: 9, deleteRule: .cascade, userInfo: ["k": "v"]),
                Relationship(name: "parent", destination: "Node", inverse: "children", minCount: 1, maxCount: 1),
                Relationship(name: "peers", destination: "Node", inverse: "peers", isToMany: true, deleteRule: .noAction),
                Relationship(
                    name: "owner", destination: "Base", isOptional: false, deleteRule: .deny,
                    renamingIdentifier: "holder", versionHashModifier: "x"),
                Relationship(name: "cache", destination: "Base", isTransient: true),
            ],
            uniquenessConstraints: [["label"], ["count", "owner"]])
        return try Schema(name: "Everything", versionIdentifier: "id <&>", entities: [base, node])
    }
}
