import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

@Suite struct XMLStoreReadingTests {
    @Test func readsTheNestedListWithItsModel() throws {
        let (graph, metadata) = try XMLFixture.read("NestedList.xml", schema: try XMLFixture.nestedListSchema())
        #expect(graph.objectCount == 6)
        let root = try #require(graph.object(102))
        #expect(graph.value(root, "title") == .string("Groceries"))
        #expect(graph.value(root, "order") == .integer(0))
        #expect(graph.ids(root, "children") == [103, 104])
        #expect(graph.id(root, "parent") == nil)
        let milk = try #require(graph.object(103))
        #expect(graph.value(milk, "title") == .string("Milk & eggs <cheap>"))
        #expect(graph.id(milk, "parent") == 102)
        #expect(graph.value(try #require(graph.object(105)), "title") == .string("Rye, \"dark\""))
        #expect(graph.value(try #require(graph.object(106)), "title") == .string(""), "an empty element is an empty string")
        #expect(graph.value(try #require(graph.object(107)), "title") == nil, "an absent attribute is nil")
        #expect(metadata.uuid.uuidString == "B4FC79D0-E654-43EF-9020-A5273B3F104A")
        #expect(metadata.frameworkVersion == 1251)
        #expect(metadata.versionHashes["Item"]?.base64EncodedString() == "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=")
        #expect(metadata.versionIdentifiers == [""])
        #expect(metadata.nextObjectID == 107)
        #expect(metadata.objectCounts == ["Item": 6])
        #expect(metadata.custom.isEmpty)
        #expect(metadata.embeddedSchema == nil)
        #expect(graph.nextID == 108)
    }

    /// One fixture per prolog form Core Data has written.
    @Test(arguments: ["NestedList.xml", "PrologPlain.xml", "PrologStandaloneNo.xml"])
    func acceptsEveryProlog(_ fixture: String) throws {
        let (graph, metadata) = try XMLFixture.read(fixture, schema: nil)
        #expect(graph.objectCount > 0)
        #expect(metadata.format == .xml)
    }

    @Test func readsObjectsInAnyOrderWithAnEmptyMetadataElement() throws {
        let (graph, metadata) = try XMLFixture.read("PrologPlain.xml", schema: try XMLFixture.garageSchema())
        #expect(metadata.versionHashes.isEmpty && metadata.custom.isEmpty && metadata.frameworkVersion == nil)
        let volvo = try #require(graph.object(102))
        #expect(graph.value(volvo, "make") == .string("Volvo"))
        #expect(graph.value(volvo, "year") == .integer(2006))
        #expect(graph.ids(volvo, "pictures") == [104, 103], "the stored order is kept")
        #expect(graph.id(try #require(graph.object(103)), "vehicle") == 102)
        let saab = try #require(graph.object(105))
        #expect(graph.value(saab, "year") == nil)
        #expect(graph.ids(saab, "pictures") == [])
        #expect(metadata.objectCounts == ["Picture": 2, "Vehicle": 2])
    }

    @Test func readsSelfClosingMetadataLowNextObjectIDDatesAndBase64WithWhiteSpace() throws {
        let (graph, metadata) = try XMLFixture.read("PrologStandaloneNo.xml", schema: nil)
        #expect(metadata.uuid.uuidString == "0B6D3C52-7F0E-4A8E-9C47-2D5A2E4F9A11")
        #expect(metadata.nextObjectID == 103)
        #expect(graph.nextID == 121, "new ids start above the highest id in use, not above nextObjectID")
        let album = try #require(graph.object(110))
        #expect(graph.value(album, "cover") == .binary(Data("Hello, World!".utf8)))
        #expect(graph.ids(album, "photos") == [102, 120], "type=\"1/0\" is informational")
        let photo = try #require(graph.object(120))
        #expect(graph.value(photo, "taken") == .date(Date(timeIntervalSinceReferenceDate: 730000000.12345683574676513672)))
        #expect(graph.value(photo, "favorite") == .boolean(true))
        #expect(graph.value(try #require(graph.object(102)), "taken") == .date(Date(timeIntervalSinceReferenceDate: -31622400.5)))
        #expect(graph.value(try #require(graph.object(102)), "favorite") == .boolean(false))
    }

    @Test(arguments: [
        (102, "Tom & Jerry"),
        (103, "<b>bold</b>"),
        (104, "café 😀"),
        (105, "& < > é ☺"),
        (106, "\"quotes\" and 'apostrophes'\nsecond line, 日本語"),
        (107, "C:\\users\\u12 \\uzzzz \\u00d8 alone"),
        (108, ""),
        (110, "&amp; is not &amp;"),
    ])
    func decodesEscapes(_ id: UInt64, _ text: String) throws {
        let (graph, _) = try XMLFixture.read("Escapes.xml", schema: nil)
        #expect(graph.value(try #require(graph.object(id)), "text") == .string(text))
    }

    @Test func anObjectWithoutAttributesHasNilValues() throws {
        let (graph, _) = try XMLFixture.read("Escapes.xml", schema: nil)
        #expect(graph.value(try #require(graph.object(109)), "text") == nil)
    }

    @Test func keepsCustomMetadataOfEveryPropertyListTypeInFileOrder() throws {
        let (_, metadata) = try XMLFixture.read("CustomMetadata.xml", schema: try XMLFixture.nestedListSchema())
        #expect(metadata.custom.map(\.key) == ["AppSettings", "LastOpened", "Thumbnail", "flags", "title", "zCount"])
        #expect(
            metadata[custom: "AppSettings"]
                == .dictionary([
                    ("recent", .array([])), ("theme", .string("dark & cosy <3")), ("zoom", .real(1.25)),
                ]))
        #expect(metadata[custom: "LastOpened"] == .date(Date(timeIntervalSince1970: 1_709_251_198)))
        #expect(metadata[custom: "Thumbnail"] == .data(Data((200 ..< 256).map { UInt8($0) } + (0 ..< 24).map { UInt8($0) })))
        #expect(metadata[custom: "flags"] == .array([.boolean(true), .boolean(false), .integer(-3)]))
        #expect(metadata[custom: "title"] == .string("Tom \"and\" Jerry"))
        #expect(metadata[custom: "zCount"] == .integer(9_000_000_000))
    }

    @Test func dropsCoreDataKeysThatComeFromTheFileOrCannotBeRecomputed() throws {
        let (_, metadata) = try XMLFixture.read("FrameworkDigest.xml", schema: try XMLFixture.nestedListSchema())
        #expect(metadata.custom.isEmpty)
        #expect(metadata.uuid.uuidString == "B4FC79D0-E654-43EF-9020-A5273B3F104A", "NSStoreUUID does not override <UUID>")
        #expect(metadata.versionHashes.keys.sorted() == ["Item"])
    }

    @Test func readsEveryAttributeTypeAndRelationshipKind() throws {
        let schema = try XMLFixture.allTypesSchema()
        let (graph, metadata) = try XMLFixture.read("AllTypes.xml", schema: schema)
        let a = try #require(graph.object(104))
        #expect(graph.value(a, "created") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(graph.value(a, "small") == .integer(-32768))
        #expect(graph.value(a, "medium") == .integer(2_147_483_647))
        #expect(graph.value(a, "large") == .integer(.min))
        #expect(graph.value(a, "flag") == .boolean(true))
        #expect(graph.value(a, "ratio") == .double(0.5))
        #expect(graph.value(a, "amount") == .double(3.141592653589793))
        #expect(graph.value(a, "price") == .decimal(Decimal(string: "12345.6789")!))
        #expect(graph.value(a, "when") == .date(Date(timeIntervalSinceReferenceDate: 730000000.123456789)))
        #expect(graph.value(a, "blob") == .binary(Data((0 ..< 100).map { UInt8($0) })))
        #expect(graph.value(a, "name") == .string("Ann & <Bob>"))
        #expect(graph.value(a, "ident") == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        #expect(graph.value(a, "link") == .string("https://example.com/a?b=1&c=2"))
        #expect(graph.value(a, "payload") == .binary(Data([1, 2, 3])))
        #expect(graph.value(a, "scratch") == nil && graph.value(a, "cache") == nil, "transient attributes are not stored")
        #expect(graph.id(a, "owner") == 103)
        #expect(graph.id(a, "next") == 105)
        #expect(graph.id(a, "previous") == nil)
        #expect(graph.ids(a, "related") == [105])
        #expect(graph.ids(a, "tags") == [110])
        let b = try #require(graph.object(105))
        #expect(graph.value(b, "name") == .string(""))
        #expect(graph.value(b, "small") == nil)
        #expect(graph.id(b, "previous") == 104)
        #expect(graph.ids(b, "related") == [104], "a self-inverse relationship mirrors itself")
        let person = try #require(graph.object(103))
        #expect(graph.value(person, "fullName") == .string("Zoë Ng"), "property names match ignoring case")
        #expect(graph.ids(person, "records") == [105, 104])
        let note = try #require(graph.object(106))
        #expect(schema.entities[note.entity].name == "Note")
        #expect(graph.ids(try #require(graph.object(110)), "items") == [106, 104], "an abstract destination holds subentity objects")
        #expect(metadata.objectCounts == ["Note": 1, "Person": 1, "Record": 2, "Tag": 1])
    }

    @Test func usesTheEmbeddedModelWhenGivenNone() throws {
        let (graph, metadata) = try XMLFixture.read("EmbeddedModel.xml", schema: nil)
        let nested = try XMLFixture.nestedListSchema()
        let embedded = try #require(metadata.embeddedSchema)
        #expect(embedded.name == "NestedTodoList")
        #expect(embedded.entityVersionHashes == nested.entityVersionHashes)
        #expect(graph.schema.entities == embedded.entities)
        #expect(metadata.custom.isEmpty, "the embedded model keys are not custom keys")
        #expect(graph.ids(try #require(graph.object(102)), "children") == [103, 104])
    }

    @Test func readsMetadataAloneAndFromAPrefix() throws {
        let bytes = try XMLFixture.data("CustomMetadata.xml")
        let whole = try XMLStore.readMetadata(bytes, file: "CustomMetadata.xml")
        let cut = try #require(XMLFixture.text(bytes).range(of: "</databaseInfo>"))
        let prefix = Data(XMLFixture.text(bytes)[..<cut.upperBound].utf8)
        let partial = try XMLStore.readMetadata(prefix, file: "CustomMetadata.xml")
        #expect(partial == whole)
        #expect(whole.nextObjectID == 107 && whole.objectCounts == nil && whole.custom.count == 6)
    }

    @Test func readingMetadataStopsBeforeTheObjects() throws {
        // Objects after </databaseInfo> are never looked at: a broken one does not matter.
        let bytes = try XMLFixture.data("Malformed/BadObjectID.xml")
        #expect(try XMLStore.readMetadata(bytes, file: "BadObjectID.xml").uuid.uuidString == "343C8D7F-A000-42C4-8463-43FA1E5EF3FB")
    }

    @Test func readsFromAnyContiguousBytes() throws {
        let data = try XMLFixture.data("NestedList.xml")
        let schema = try XMLFixture.nestedListSchema()
        let fromArray = try XMLStore.read([UInt8](data), schema: schema, file: "NestedList.xml")
        #expect(fromArray.graph.objectCount == 6)
    }
}
