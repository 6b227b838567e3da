import Foundation
import OutlineEngine
import OutlineStorage
import Testing

@Suite struct ModelReaderTests {
    @Test func nestedTodoListLoadsAndHashesToTheGoldenVector() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("NestedTodoList.xcdatamodeld"))
        #expect(bundle.name == "NestedTodoList")
        #expect(bundle.versions.map(\.name) == ["NestedTodoList"])
        let schema = try bundle.current
        #expect(schema.versionIdentifier == "")
        let item = try #require(schema.info(named: "Item"))
        #expect(item.entity.className == "Item")
        #expect(
            item.attributes == [
                Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                Attribute(name: "title", type: .string),
            ])
        #expect(
            item.relationships == [
                Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                Relationship(name: "parent", destination: "Item", inverse: "children", minCount: 1, maxCount: 1),
            ])
        #expect(schema.entityVersionHashes["Item"]?.base64EncodedString() == "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=")
    }
}

extension ModelReaderTests {
    @Test func libraryBundleReadsBothVersionsAndTheCurrentOne() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("Library.xcdatamodeld"))
        #expect(bundle.name == "Library")
        #expect(bundle.versions.map(\.name) == ["Library", "Library 2"])
        #expect(bundle.currentVersionName == "Library 2")
        #expect(try bundle.current.versionIdentifier == "2.0")
        #expect(bundle.version(named: "Library")?.versionIdentifier == "1.0")
        #expect(bundle.version(named: "Library 3") == nil)
    }

    @Test func libraryFirstVersionHasHierarchyOrderingAndTheOldToOneForm() throws {
        let schema = try #require(try ModelReader.read(at: Fixtures.model("Library.xcdatamodeld")).version(named: "Library"))
        #expect(schema.entities.map(\.name) == ["Author", "Book", "Media", "Recording", "Shelf"])
        let media = try #require(schema.info(named: "Media"))
        #expect(media.entity.isAbstract && media.entity.className == "LBMedia")
        #expect(media.subentities.map { schema.entities[$0].name } == ["Book", "Recording"])
        let added = media.attributes[0]
        #expect(added.type == .date && added.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 347_155_200)))
        #expect(media.attributes[1].defaultValue == .string("Untitled"))
        let shelf = media.relationships[1]
        #expect(shelf.isOptional && shelf.minCount == 1 && shelf.maxCount == 1 && !shelf.isToMany)

        let book = try #require(schema.info(named: "Book"))
        #expect(book.entity.parent == "Media")
        #expect(book.attributes.map(\.name) == ["added", "title", "isbn", "pages"])
        #expect(book.attributes[2].regularExpression == "[0-9X-]+")
        #expect(book.attributes[3].defaultValue == .integer(0) && book.attributes[3].minValue == .integer(1))

        let author = try #require(schema.info(named: "Author"))
        #expect(author.attributes[0].minValue == .integer(1) && author.attributes[0].maxValue == .integer(200))
        #expect(author.relationships[0].deleteRule == .deny)
        let media2 = try #require(schema.info(named: "Shelf")).relationships[0]
        #expect(media2.isOrdered && media2.isToMany && media2.deleteRule == .cascade && media2.maxCount == 0)
    }

    @Test func librarySecondVersionHasRenamingModifiersConstraintsAndUserInfo() throws {
        let schema = try ModelReader.read(at: Fixtures.model("Library.xcdatamodeld")).current
        let bookcase = try #require(schema.info(named: "Bookcase"))
        #expect(bookcase.entity.renamingIdentifier == "Shelf")
        #expect(bookcase.relationships.map(\.name) == ["media"], "the fetched property is not a relationship")
        let media = try #require(schema.info(named: "Media"))
        #expect(media.entity.userInfo == ["kind": "abstract"])
        let link = media.relationships[1]
        #expect(link.name == "bookcase" && link.renamingIdentifier == "shelf" && link.minCount == 0 && link.maxCount == 1)
        let author = try #require(schema.info(named: "Author"))
        #expect(author.entity.uniquenessConstraints == [["name"]])
        #expect(author.relationships[0].userInfo == ["note": "Deny: an author with works cannot be deleted"])
        let recording = try #require(schema.info(named: "Recording"))
        #expect(recording.entity.versionHashModifier == "minutes-to-seconds")
        #expect(recording.attributes.last?.versionHashModifier == "2")
        #expect(try #require(schema.info(named: "Book")).attributes.map(\.name) == ["added", "title", "cover", "isbn", "pages"])
        let cover = try #require(schema.info(named: "Book")?.attributes.first { $0.name == "cover" })
        #expect(cover.type == .binary && cover.allowsExternalBinaryDataStorage)
    }

    @Test func allAttributeTypesReadWithTheirDefaultsAndBounds() throws {
        let schema = try ModelReader.read(at: Fixtures.model("AllAttributeTypes.xcdatamodel")).current
        #expect(schema.name == "AllAttributeTypes" && schema.versionIdentifier == "types-1")
        let sample = try #require(schema.info(named: "Sample"))
        #expect(sample.entity.className == ".Sample")
        let byName = Dictionary(uniqueKeysWithValues: sample.attributes.map { ($0.name, $0) })
        let types = sample.attributes.map(\.type)
        #expect(Set(types) == Set(AttributeType.allCases))
        #expect(byName["blob"]?.allowsExternalBinaryDataStorage == true)
        #expect(byName["blob"]?.maxValue == .integer(1_048_576))
        #expect(byName["colors"]?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(byName["flag"]?.defaultValue == .boolean(true))
        let uuid = try #require(UUID(uuidString: "F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9"))
        #expect(byName["identifier"]?.defaultValue == .uuid(uuid))
        #expect(byName["identifier"]?.preservesValueInHistoryOnDeletion == true)
        #expect(byName["large"]?.defaultValue == .integer(9_007_199_254_740_993))
        #expect(byName["medium"]?.defaultValue == .integer(0))
        #expect(byName["name"]?.minValue == .integer(1) && byName["name"]?.maxValue == .integer(40))
        #expect(byName["name"]?.regularExpression == "[A-Za-z ]+" && byName["name"]?.defaultValue == .string("Anonymous"))
        #expect(byName["price"]?.defaultValue == .decimal(Decimal(string: "9.99", locale: Locale(identifier: "en_US_POSIX"))!))
        #expect(byName["ratio"]?.defaultValue == .double(0.5) && byName["weight"]?.defaultValue == .double(1.5))
        #expect(byName["scratch"]?.isTransient == true && byName["scratch"]?.type == .undefined)
        #expect(byName["small"]?.minValue == .integer(-100) && byName["small"]?.defaultValue == .integer(-3))
        #expect(byName["when"]?.minValue == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(byName["when"]?.maxValue == .date(Date(timeIntervalSinceReferenceDate: 1_000_000_000)))
        #expect(byName["when"]?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 694_224_000.5)))
        let related = sample.relationships[0]
        #expect(related.inverse == "related" && related.deleteRule == .noAction && sample.inverses == [0])
    }

    @Test(arguments: [
        "NestedTodoList.xcdatamodeld", "Library.xcdatamodeld", "AllAttributeTypes.xcdatamodel",
        "Library.xcdatamodeld/Library 2.xcdatamodel", "AllAttributeTypes.xcdatamodel/contents",
    ])
    func inMemoryFilesReadLikeTheSameFilesOnDisk(_ fixture: String) throws {
        let models = Fixtures.folder.appending(path: "Models")
        var files: [String: Data] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: models.path))
        for case let relative as String in walker {
            var isDirectory: ObjCBool = false
            let path = models.path + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        let fromMemory = try ModelReader.read(path: fixture, in: files)
        let fromDisk = try ModelReader.read(at: Fixtures.model(fixture))
        #expect(fromMemory == fromDisk)
    }

    @Test func bareContentsFileTakesItsNameFromTheVersionFolder() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("NestedTodoList.xcdatamodeld/NestedTodoList.xcdatamodel/contents"))
        #expect(try bundle.current.name == "NestedTodoList")
        let loose = try ModelReader.read(path: "model.xml", in: ["model.xml": Self.minimalModel])
        #expect(try loose.current.name == "model")
    }

    @Test func singleVersionWithoutCurrentVersionFileIsCurrent() throws {
        let bundle = try ModelReader.read(path: "Notes.xcdatamodeld/", in: ["Notes.xcdatamodeld/Notes 7.xcdatamodel/contents": Self.minimalModel])
        #expect(bundle.name == "Notes" && bundle.currentVersionName == "Notes 7")
    }

    @Test func flagsAcceptTrueAndUnknownElementsAndAttributesAreIgnored() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model someFutureFlag="YES">
                <entity name="Note" isAbstract="true" futureAttribute="1">
                    <futureElement><attribute name="ignored" attributeType="Nonsense"/></futureElement>
                    <attribute name="text" optional="true" transient="TRUE" attributeType="String"/>
                    <relationship name="self" optional="false" toMany="true" ordered="true" deletionRule="Nullify" destinationEntity="Note"/>
                </entity>
                <futureSection/>
            </model>
            """
        let note = try ModelReader.read(path: "contents", in: ["contents": text]).current.entities[0]
        #expect(note.isAbstract)
        #expect(note.attributes == [Attribute(name: "text", type: .string, isOptional: true, isTransient: true)])
        #expect(note.relationships == [Relationship(name: "self", destination: "Note", isToMany: true, isOrdered: true, isOptional: false)])
    }

    static let minimalModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """
}
