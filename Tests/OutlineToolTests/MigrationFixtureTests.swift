import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit
@testable import OutlineTool

/// Outline documents written at `Outline` (v1) and `Outline 2`, in both formats, migrate to
/// the current version with every item, text, order and the tree shape kept and new
/// attributes defaulted. The expected results are `Fixtures/Documents/*.expected.json`.
@Suite struct MigrationFixtureTests {
    static let folder = PackagePaths.fixture("Documents")

    static let fixtures = ["outline-v1.xml", "outline-v1.outline", "outline-v2.xml", "outline-v2.outline"]

    @Test(arguments: fixtures)
    func migratesToTheCurrentVersion(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        #expect(store.schema.name == "Outline 3")
        #expect(store.migration?.path == (name.contains("v1") ? ["Outline", "Outline 3"] : ["Outline 2", "Outline 3"]))
        let document = try OutlineDocument(context: store.context)
        SampleOutlines.checkInvariants(document)
        let version = name.contains("v1") ? "v1" : "v2"
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("outline-\(version).expected.json"), encoding: .utf8)
        #expect(document.renderJSON() == expected)
        #expect(store.context.validationIssues().isEmpty)
    }

    @Test(arguments: fixtures)
    func migrationOutputIsDeterministic(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let first = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        let second = try PersistentStore.open(path, model: try OutlineSchemas.bundle)
        #expect(try first.encoded() == second.encoded())
        #expect(first.migration?.copiedObjects == second.migration?.copiedObjects)
    }

    @Test func migratingInPlaceKeepsTheOldBytesAsBackup() throws {
        let directory = try TemporaryFolder.make("outline-inplace")
        defer { TemporaryFolder.remove(directory) }
        let path = directory.appendingPathComponent("old.outline").path
        let original = try Data(contentsOf: Self.folder.appendingPathComponent("outline-v1.outline"))
        try original.write(to: URL(fileURLWithPath: path))
        var phases: [MigrationProgress.Phase] = []
        let store = try PersistentStore.open(path, model: try OutlineSchemas.bundle, progress: { phases.append($0.phase) })
        #expect(phases.first == .copyingObjects && phases.last == .checking)
        store.options.keepsBackup = true
        try store.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".bak")) == original)
        #expect(try PersistentStore.readMetadata(path).embeddedSchema?.name == "Outline 3")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(leftovers == ["old.outline", "old.outline.bak"])
    }

    @Test func bothFormatsHoldTheSameDocument() throws {
        for version in ["v1", "v2"] {
            let xml = try PersistentStore.open(Self.folder.appendingPathComponent("outline-\(version).xml").path)
            let binary = try PersistentStore.open(Self.folder.appendingPathComponent("outline-\(version).outline").path)
            #expect(xml.format == .xml && binary.format == .binary)
            #expect(try xml.encoded(as: .xml) == binary.encoded(as: .xml))
        }
    }

    /// Rewrites the fixtures. Run with `OUTLINE_REGENERATE_FIXTURES=1 swift test --filter MigrationFixtureTests`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["OUTLINE_REGENERATE_FIXTURES"] == "1"))
    func regenerate() throws {
        for (version, name) in [("v1", "Outline"), ("v2", "Outline 2")] {
            let schema = try #require(try OutlineSchemas.version(named: name))
            var metadata = StoreMetadata(format: .xml, uuid: UUID(uuidString: "6F1D2C3B-4A59-4E8F-9C7D-0B1A2E3F4D5C")!, embeddedSchema: schema)
            metadata[custom: "Author"] = .string("Outline fixtures")
            let store = PersistentStore(schema: schema)
            let document = try OutlineDocument(context: store.context)
            let groceries = try document.insertItem("Groceries & “more”")
            let milk = try document.insertItem("Milk <oat>", under: groceries)
            try document.insertItem("Bread", under: groceries)
            try document.insertItem("Crème fraîche", under: groceries, at: 0)
            let work = try document.insertItem("Work")
            let report = try document.insertItem("Quarterly report", under: work)
            try document.insertItem("Draft", under: report)
            try document.insertItem("Review", under: report)
            try document.insertItem("")
            if version == "v2" {
                try document.setNote("Two cartons,\nthe barista kind.", of: milk)
                try document.setDone(true, of: milk)
                let created = store.schema.info(named: "Item")!.attributeIndex(named: "created")!
                var stamp = 800_000_000.0
                document.walk { item, _ in
                    try? store.context.setAttribute(.date(Date(timeIntervalSinceReferenceDate: stamp)), created, of: item)
                    stamp += 3600.5
                    return true
                }
            }
            for format in [DocumentFormat.xml, .binary] {
                metadata.format = format
                let bytes =
                    format == .xml
                    ? [UInt8](XMLStore.write(store.context.graph, metadata: metadata))
                    : try BinaryStore.write(store.context.graph, metadata: metadata, level: 6)
                try Data(bytes).write(to: Self.folder.appendingPathComponent("outline-\(version).\(format == .xml ? "xml" : "outline")"))
            }
            let migrated = try PersistentStore.open(
                Self.folder.appendingPathComponent("outline-\(version).outline").path,
                model: try OutlineSchemas.bundle)
            try OutlineDocument(context: migrated.context).renderJSON()
                .write(to: Self.folder.appendingPathComponent("outline-\(version).expected.json"), atomically: true, encoding: .utf8)
        }
    }
}
