import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTestSupport
import Testing

/// The code of the articles in `Sources/OutlineKit/OutlineKit.docc`, run as written. The first test
/// checks that every ```` ```swift ```` block of those articles appears verbatim in a test file
/// of this folder (most are below), so an API change that breaks an article breaks a test.
@Suite struct KitArticleCodeTests {
    @Test func everyArticleCodeBlockIsInATestOfTheModule() throws {
        let (missing, checked) = try ArticleCode.missingBlocks(ofModule: "OutlineKit", in: "Tests/OutlineKitTests")
        #expect(checked >= 3)
        #expect(missing == [])
    }

    // MARK: GettingStarted.md

    @Test func openEditAndSaveASample() throws {
        let folder = try TemporaryFolder.make("outline-article")
        defer { TemporaryFolder.remove(folder) }
        let path = folder.appending(path: "groceries.outline").path
        try FileManager.default.copyItem(at: PackagePaths.fixture("Samples/groceries.outline"), to: URL(fileURLWithPath: path))
        let itemsBefore = try OutlineDocument(context: PersistentStore.open(path, model: OutlineSchemas.bundle).context).itemCount

        // Open the file, whatever its format; a document of an older schema version is migrated in memory.
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        let outline = try OutlineDocument(context: store.context)

        // Edit: each call is one undo step.
        let groceries = try outline.insertItem("Groceries")
        try outline.insertItem("Oat milk", under: groceries, note: "Not soy.")
        try outline.setDone(true, of: groceries)

        // Save: validated, then written atomically in the file's format.
        try store.save()

        var lines: [String] = []
        outline.walk { item, depth in
            lines.append(String(repeating: "  ", count: depth - 1) + (outline.text(of: item) ?? ""))
            return true  // false skips the item's children
        }
        #expect(Array(lines.suffix(2)) == ["Groceries", "  Oat milk"])

        let reopened = try OutlineDocument(context: PersistentStore.open(path, model: OutlineSchemas.bundle).context)
        #expect(reopened.itemCount == itemsBefore + 2)
        let saved = try #require(reopened.children(of: reopened.root).last)
        #expect(reopened.text(of: saved) == "Groceries" && reopened.isDone(saved))
        let child = try #require(reopened.children(of: saved).first)
        #expect(reopened.note(of: child) == "Not soy.")
        outline.context.undo()
        #expect(!outline.isDone(groceries))
    }

    @Test func createANewDocument() throws {
        let folder = try TemporaryFolder.make("outline-article")
        defer { TemporaryFolder.remove(folder) }
        let newPath = folder.appending(path: "todo.xml").path

        let newStore = PersistentStore(schema: try OutlineSchemas.current, path: newPath, format: .xml)
        let todo = try OutlineDocument(context: newStore.context)
        try todo.insertItem("Call Ann")
        try newStore.save()

        let reopened = try PersistentStore.open(newPath, model: OutlineSchemas.bundle)
        #expect(reopened.format == .xml)
        let document = try OutlineDocument(context: reopened.context)
        #expect(document.children(of: document.root).map { document.text(of: $0) } == ["Call Ann"])
    }
}
