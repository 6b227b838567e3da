import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTestSupport
import Testing

@Suite struct OutlineSchemasTests {
    /// The package's `Schemas/` folder.
    static let schemasFolder = PackagePaths.file("Schemas")

    @Test func embeddedFilesEqualTheFilesOfTheSchemasFolder() throws {
        var onDisk: [String: String] = [:]
        let root = Self.schemasFolder.standardizedFileURL.path
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        for case let relative as String in walker {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            onDisk[relative] = try String(contentsOfFile: path, encoding: .utf8)
        }
        #expect(onDisk.count == 4)
        #expect(OutlineSchemas.files == onDisk)
    }

    @Test func allThreeVersionsLoadAndTheThirdIsCurrent() throws {
        let bundle = try OutlineSchemas.bundle
        #expect(bundle.name == "Outline")
        #expect(bundle.versions.map(\.name) == ["Outline", "Outline 2", "Outline 3"])
        #expect(bundle.versions.map(\.versionIdentifier) == ["1", "2", "3"])
        #expect(try OutlineSchemas.current.name == "Outline 3")
        #expect(try OutlineSchemas.versions.count == 3)
    }

    @Test func firstVersionIsTheNestedListModelWithTheGoldenHash() throws {
        let v1 = try #require(try OutlineSchemas.version(named: "Outline"))
        #expect(v1.entities.map(\.name) == ["Item"])
        let item = try #require(v1.info(named: "Item"))
        #expect(item.attributes.map(\.name) == ["order", "title"])
        #expect(item.relationships.map(\.name) == ["children", "parent"])
        #expect(v1.entityVersionHashes["Item"]?.base64EncodedString() == "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=")
    }

    @Test func secondVersionRenamesTitleToTextAndAddsNoteDoneCreated() throws {
        let v2 = try #require(try OutlineSchemas.version(named: "Outline 2"))
        let item = try #require(v2.info(named: "Item"))
        #expect(item.attributes.map(\.name) == ["created", "done", "note", "order", "text"])
        let text = item.attributes[4]
        #expect(text.renamingIdentifier == "title" && text.type == .string && text.isOptional)
        let done = item.attributes[1]
        #expect(done.type == .boolean && !done.isOptional && done.defaultValue == .boolean(false))
        #expect(item.attributes[0].type == .date && item.attributes[0].isOptional)
        #expect(item.attributes[2].type == .string && item.attributes[2].isOptional)
    }

    @Test func thirdVersionAddsCollapsedExtraAttributesAndTags() throws {
        let v3 = try OutlineSchemas.current
        #expect(v3.entities.map(\.name) == ["Item", "Tag"])
        let item = try #require(v3.info(named: "Item"))
        #expect(item.attributes.map(\.name) == ["collapsed", "created", "done", "extraAttributes", "note", "order", "text"])
        #expect(item.relationships.map(\.name) == ["children", "parent", "tags"])
        let collapsed = item.attributes[0]
        #expect(collapsed.type == .boolean && !collapsed.isOptional && collapsed.defaultValue == .boolean(false))
        let extra = item.attributes[3]
        #expect(extra.type == .binary && extra.isOptional && extra.userInfo["purpose"] != nil)

        let tag = try #require(v3.info(named: "Tag"))
        #expect(tag.attributes.map(\.name) == ["name"])
        #expect(!tag.attributes[0].isOptional)
        #expect(tag.entity.uniquenessConstraints == [["name"]])
        let items = tag.relationships[0]
        #expect(items.name == "items" && items.isToMany && items.destination == "Item" && items.inverse == "tags")
        #expect(items.deleteRule == .nullify && item.relationships[2].deleteRule == .nullify)
        #expect(item.relationships[2].isToMany && item.relationships[2].inverse == "items")
    }

    @Test func eachVersionHasDifferentHashes() throws {
        let checksums = try OutlineSchemas.versions.map(\.versionChecksum)
        #expect(Set(checksums).count == 3)
    }

    @Test(arguments: ["Outline", "Outline 2", "Outline 3"])
    func schemaFilesAreExactlyWhatTheWriterWrites(_ version: String) throws {
        let schema = try #require(try OutlineSchemas.version(named: version))
        let file = try #require(OutlineSchemas.files["Outline.xcdatamodeld/\(version).xcdatamodel/contents"])
        #expect(ModelWriter.contents(of: schema) == file)
    }
}
