import Foundation
import OutlineEngine
import OutlineStorage
import Testing

@Suite struct PersistentStoreTests {
    let folder: String
    init() throws { folder = try makeTemporaryFolder() }

    /// A copy of a binary fixture in the test's folder.
    func copyFixture(_ name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(at: BinaryFixtures.folder.appending(path: name), to: URL(fileURLWithPath: path))
        return path
    }

    @Test func opensEditsSavesAndReopens() throws {
        defer { removeFolder(folder) }
        let path = try copyFixture("small-outline.outline")
        let store = try PersistentStore.open(path)
        #expect(store.format == .binary)
        #expect(!store.hasChanges)
        let item = try store.context.insert("Item")
        try store.context.setValue(.string("new"), forKey: "title", of: item)
        #expect(store.hasChanges)
        try store.save()
        #expect(!store.hasChanges)
        #expect(store.metadata.objectCounts == ["Item": 13])

        let reopened = try PersistentStore.open(path)
        #expect(snapshot(reopened.context.graph) == snapshot(store.context.graph))
        #expect(reopened.metadata.uuid == BinaryFixtures.uuid)
        #expect(reopened[metadata: "author"] == .string("fixtures"))
    }

    @Test func customMetadataSurvivesSaves() throws {
        defer { removeFolder(folder) }
        let path = folder + "/new.outline"
        let store = PersistentStore(schema: try StoreTestSchemas.nestedList(), path: path)
        store[metadata: "window"] = .dictionary([("x", .integer(10)), ("y", .real(20.5))])
        #expect(store.hasChanges)
        try store.save()
        store[metadata: "tags"] = .array([.string("a")])
        try store.save()
        let metadata = try PersistentStore.readMetadata(path)
        #expect(metadata.custom.map(\.key) == ["window", "tags"])
        #expect(metadata[custom: "window"] == .dictionary([("x", .integer(10)), ("y", .real(20.5))]))
        #expect(metadata.uuid == store.metadata.uuid)
        #expect(metadata.objectCounts == ["Item": 0])
    }

    @Test func readMetadataDoesNotNeedTheBody() throws {
        defer { removeFolder(folder) }
        // A truncated body still has a readable header.
        let path = try copyFixture("truncated-body.outline")
        let metadata = try PersistentStore.readMetadata(path)
        #expect(metadata.objectCounts == ["Item": 12])
        #expect(metadata.compressionLevel == 6)
        #expect(metadata.embeddedSchema?.entities.map(\.name) == ["Item"])
    }

    @Test func inMemoryStoresSaveToBytes() throws {
        let store = PersistentStore(schema: try StoreTestSchemas.nestedList())
        let item = try store.context.insert("Item")
        try store.context.setValue(.string("scratch"), forKey: "title", of: item)
        try store.save()
        #expect(store.path == nil)
        #expect(!store.hasChanges)
        let bytes = try #require(store.savedBytes)
        let loaded = try PersistentStore.load(bytes)
        #expect(snapshot(loaded.context.graph) == snapshot(store.context.graph))
    }

    @Test func validationFailuresWriteNothing() throws {
        defer { removeFolder(folder) }
        let path = try copyFixture("small-outline.outline")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try PersistentStore.open(path)
        let item = try store.context.insert("Item")
        try store.context.setValue(nil, forKey: "order", of: item)
        let error = #expect(throws: StorageError.self) { try store.save() }
        #expect(error?.code == .validationFailed)
        #expect(
            error?.description == """
                \(path): Item z114.order: a value is required. Correct the values and save again; nothing was written.
                  - Item z114.order: a value is required
                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(store.hasChanges)
    }

    @Test func saveAsMovesTheDocumentAndKeepsBackupsWhenAsked() throws {
        defer { removeFolder(folder) }
        let path = try copyFixture("small-outline.outline")
        let store = try PersistentStore.open(path, options: .init(keepsBackup: true, compressionLevel: 9))
        let copy = folder + "/copy.outline"
        try store.save(to: copy)
        #expect(store.path == copy)
        #expect(store.metadata.compressionLevel == 9)
        #expect(!FileManager.default.fileExists(atPath: copy + ".bak"))
        try store.save()
        #expect(FileManager.default.fileExists(atPath: copy + ".bak"))
    }

    @Test func openingRemovesStaleTemporaries() throws {
        defer { removeFolder(folder) }
        let path = try copyFixture("small-outline.outline")
        let stale = folder + "/.small-outline.outline.outline-tmp-Zz9Yy8"
        #expect(
            FileManager.default.createFile(
                atPath: stale, contents: Data([1]),
                attributes: [.modificationDate: Date(timeIntervalSinceNow: -3600)]))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: stale)
        _ = try PersistentStore.open(path)
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("{\"json\": true}", "not an Outline document: it is UTF-8 text, neither binary nor XML (it starts with \"{\"json\": true}\")"),
        ("\u{1}\u{2}\u{3}", "not an Outline document: it is neither binary nor XML (it starts with 01 02 03)"),
    ])
    func contentInNoKnownFormatIsReportedAsAnUnknownFormat(content: String, message: String) throws {
        defer { removeFolder(folder) }
        let path = folder + "/doc.outline"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
        let error = #expect(throws: StorageError.self) { try PersistentStore.open(path) }
        #expect(error?.code == .unknownFormat)
        #expect(error?.message == message)
    }

    @Test func formatsAreDetectedFromContent() throws {
        #expect(DocumentFormat.detect(try BinaryFixtures.bytes("small-outline.outline")) == .binary)
        #expect(DocumentFormat.detect(Array("\u{FEFF}  <?xml version=\"1.0\"?>".utf8)) == .xml)
        #expect(DocumentFormat.detect(Array("<database>".utf8)) == .xml)
        #expect(DocumentFormat.detect(Array("hello".utf8)) == nil)
    }

    @Test func missingFilesAndFoldersAreUnreadable() throws {
        defer { removeFolder(folder) }
        let missing = #expect(throws: StorageError.self) { try PersistentStore.open(folder + "/none.outline") }
        #expect(missing?.description == "\(folder)/none.outline: cannot open: no such file or folder. Check the path.")
        let directory = #expect(throws: StorageError.self) { try PersistentStore.open(folder) }
        #expect(directory?.description == "\(folder): cannot open: it is a folder. Choose a file, not a folder.")
    }
}

extension PersistentStoreTests {
    @Test func savingOverAFileChangedByAnotherProgramIsAConflict() throws {
        defer { removeFolder(folder) }
        let path = try copyFixture("small-outline.outline")
        let store = try PersistentStore.open(path)
        try store.save()  // our own save is not a change by someone else
        let other = try PersistentStore.open(path)
        other[metadata: "by"] = .string("other")
        try other.save()
        store[metadata: "by"] = .string("me")
        let error = #expect(throws: StorageError.self) { try store.save() }
        #expect(
            error?.description
                == "\(path): the file changed on disk since it was opened or last saved. Open it again to see the other changes, or save under another name; nothing was written."
        )
        #expect(try PersistentStore.readMetadata(path)[custom: "by"] == .string("other"))

        store.options.detectsExternalChanges = false
        try store.save()
        #expect(try PersistentStore.readMetadata(path)[custom: "by"] == .string("me"))
    }
}

extension PersistentStoreTests {
    func copyXMLFixture(_ name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(at: Fixtures.folder.appending(path: "XML").appending(path: name), to: URL(fileURLWithPath: path))
        return path
    }

    @Test func xmlStoresOpenAndSaveAsXMLWithTheirModel() throws {
        defer { removeFolder(folder) }
        let path = try copyXMLFixture("NestedList.xml")
        let store = try PersistentStore.open(path, schema: try StoreTestSchemas.nestedList())
        #expect(store.format == .xml)
        #expect(try PersistentStore.readMetadata(path).uuid == store.metadata.uuid)
        try store.save()
        // Saved, the document embeds its model: it opens without one, and saving again changes nothing.
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        let reopened = try PersistentStore.open(path)
        #expect(reopened.metadata.embeddedSchema == store.schema)
        #expect(snapshot(reopened.context.graph) == snapshot(store.context.graph))
        reopened[metadata: "touched"] = .boolean(true)
        reopened[metadata: "touched"] = nil
        try reopened.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == saved)
    }

    @Test func xmlToBinaryToXMLIsByteIdentical() throws {
        defer { removeFolder(folder) }
        let xml = try copyXMLFixture("NestedList.xml")
        let store = try PersistentStore.open(xml, schema: try StoreTestSchemas.nestedList())
        try store.save()
        let original = try Data(contentsOf: URL(fileURLWithPath: xml))
        let binary = folder + "/NestedList.outline"
        try store.save(to: binary, format: .binary)
        #expect(store.format == .binary)
        #expect(DocumentFormat.detect(Array(try Data(contentsOf: URL(fileURLWithPath: binary)))) == .binary)

        let reopened = try PersistentStore.open(binary)
        #expect(snapshot(reopened.context.graph) == snapshot(store.context.graph))
        let back = folder + "/back.xml"
        try reopened.save(to: back, format: .xml)
        #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == original)
        #expect(reopened.metadata.objectCounts == ["Item": store.context.graph.objectCount])
    }
}
