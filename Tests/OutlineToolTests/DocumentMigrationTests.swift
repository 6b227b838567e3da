import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit
@testable import OutlineTool

/// Opening documents written with older (and newer) outline schema versions.
@Suite struct DocumentMigrationTests {
    static func temporaryPath(_ name: String) throws -> String {
        let directory = try TemporaryFolder.make("outline-migration")
        return directory.appendingPathComponent(name).path
    }

    /// A small tree written at `version`: Groceries (Milk, Bread), Work.
    static func writeOld(_ version: String, to path: String) throws {
        let schema = try #require(try OutlineSchemas.version(named: version))
        let store = PersistentStore(schema: schema, path: path)
        let document = try OutlineDocument(context: store.context)
        let groceries = try document.insertItem("Groceries")
        try document.insertItem("Milk", under: groceries)
        try document.insertItem("Bread", under: groceries)
        try document.insertItem("Work")
        try store.save()
    }

    @Test(arguments: ["Outline", "Outline 2"])
    func olderDocumentsMigrateInMemoryToTheCurrentVersion(version: String) throws {
        let path = try Self.temporaryPath("old.outline")
        try Self.writeOld(version, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        #expect(store.schema.name == "Outline 3")
        #expect(store.migration?.path.first == version)
        #expect(store.hasChanges)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "opening never writes")
        let document = try OutlineDocument(context: store.context)
        #expect(SampleOutlines.outline(document) == ["Groceries", "  Milk", "  Bread", "Work"])
        let milk = try document.item(at: ItemReference(parsing: "1.1"))
        #expect(!document.isDone(milk) && !document.isCollapsed(milk) && document.note(of: milk) == nil)
        SampleOutlines.checkInvariants(document)
        try store.save()
        let reopened = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        #expect(reopened.migration == nil && !reopened.hasChanges)
        #expect(SampleOutlines.outline(try OutlineDocument(context: reopened.context)) == ["Groceries", "  Milk", "  Bread", "Work"])
    }

    @Test func aDocumentFromANewerVersionIsRefused() throws {
        let current = try OutlineSchemas.current
        var entities = current.entities
        entities[0].attributes.append(Attribute(name: "priority", type: .integer16))
        let newer = try Schema(name: "Outline 4", versionIdentifier: "4", entities: entities)
        let path = try Self.temporaryPath("new.outline")
        let store = PersistentStore(schema: newer, path: path)
        try store.save()
        let error = #expect(throws: StorageError.self) { try PersistentStore.open(path, model: try OutlineSchemas.bundle) }
        #expect(error?.code == .unsupportedVersion)
        #expect(
            error?.description
                == "\(path): the document was written by a newer version of the model (Outline 4) than this build knows (newest: Outline 3). Open it with a newer version of Outline; it was left unchanged."
        )
    }

    @Test func aDocumentOfAnotherModelIsNotMigratedAway() throws {
        let other = try Schema(name: "Notes", entities: [Entity(name: "Note", attributes: [Attribute(name: "body", type: .string)])])
        let path = try Self.temporaryPath("notes.outline")
        let store = PersistentStore(schema: other, path: path)
        try store.context.setValue(.string("hello"), forKey: "body", of: try store.context.insert("Note"))
        try store.save()
        let error = #expect(throws: StorageError.self) { try PersistentStore.open(path, model: try OutlineSchemas.bundle) }
        #expect(
            error?.description
                == "\(path): the document's model (Notes) has no entity in common with Outline 3. It is not a document of this model; open it with its own model to work with it."
        )
        #expect(try PersistentStore.open(path).context.graph.objectCount == 1, "it still opens with its own embedded model")
    }
}
