import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

/// The code of the articles in `Sources/OutlineStorage/OutlineStorage.docc`, run as written. The first test
/// checks that every ```` ```swift ```` block of those articles appears verbatim in a test file
/// of this folder (most are below), so an API change that breaks an article breaks a test.
@Suite struct StorageArticleCodeTests {
    @Test func everyArticleCodeBlockIsInATestOfTheModule() throws {
        let (missing, checked) = try ArticleCode.missingBlocks(ofModule: "OutlineStorage", in: "Tests/OutlineStorageTests")
        #expect(checked >= 2)
        #expect(missing == [])
    }

    // MARK: FileFormats.md

    @Test func saveAsXMLThenConvertToBinary() throws {
        let folder = try TemporaryFolder.make("outline-article")
        defer { TemporaryFolder.remove(folder) }
        let xmlPath = folder.appending(path: "notes.xml").path
        let binaryPath = folder.appending(path: "notes.outline").path
        let schema = try Schema(
            name: "Notes",
            entities: [
                Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)])
            ])
        let context = EditingContext(schema: schema)
        let note = try context.insert("Note")
        try context.setValue(.string("Buy milk"), forKey: "text", of: note)

        let store = PersistentStore(context: context, path: xmlPath, format: .xml)
        try store.save()

        // The format is found from the content, the model from the file.
        let reopened = try PersistentStore.open(xmlPath)
        try reopened.save(to: binaryPath, format: .binary)  // from now on the store is the binary file
        let metadata = try PersistentStore.readMetadata(binaryPath)  // the header only: nothing inflated

        #expect(reopened.format == .binary && reopened.path == binaryPath)
        #expect(metadata.format == .binary)
        #expect(metadata.objectCounts == ["Note": 1])
        let binary = try PersistentStore.open(binaryPath)
        let notes = try binary.context.objects(ofEntity: "Note")
        #expect(try notes.map { try binary.context.value(forKey: "text", of: $0) } == [.string("Buy milk")])
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: xmlPath)), as: UTF8.self).contains("<database>"))
    }

    // MARK: OpeningOlderDocuments.md

    @Test func openingWithTheModelMigratesInMemory() throws {
        let folder = try TemporaryFolder.make("outline-article")
        defer { TemporaryFolder.remove(folder) }
        let path = folder.appending(path: "old.outline").path
        try FileManager.default.copyItem(at: PackagePaths.fixture("Documents/outline-v1.outline"), to: URL(fileURLWithPath: path))
        let modelFolder = PackagePaths.file("Schemas/Outline.xcdatamodeld")

        let model = try ModelReader.read(at: modelFolder)  // an .xcdatamodeld with every version
        let store = try PersistentStore.open(path, model: model)
        let route = store.migration?.path  // ["Outline", "Outline 3"]: the versions it went through
        try store.save()  // writes the current version

        #expect(route == ["Outline", "Outline 3"])
        #expect(store.migration?.copiedObjects.values.reduce(0, +) ?? 0 > 0)
        let saved = try PersistentStore.readMetadata(path)
        #expect(try saved.versionHashes == model.current.entityVersionHashes)
    }
}
