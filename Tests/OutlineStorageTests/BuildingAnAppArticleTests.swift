import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

// The code of the article "Building an app on Outline"
// (Sources/OutlineStorage/OutlineStorage.docc/BuildingAnApp.md). Each region between the
// markers below is one ```swift block of the article, in order; the first test checks that
// they are identical, the second runs them.

// article code begin
@MainActor final class StatusLine {
    var text = ""
}
// article code end

// article code begin
@MainActor func openDocument(at path: String, status: StatusLine) async throws -> DocumentContainer {
    let container = try await DocumentContainer.open(path) { progress in
        status.text = "Opening: \(progress)"
    }
    status.text = "\(container.context.graph.objectCount) objects"
    return container
}
// article code end

// article code begin
@MainActor func addItem(_ text: String, under parent: ManagedObject, in container: DocumentContainer) throws -> ManagedObject {
    let context = container.context
    return try context.perform("Add Item") {
        let siblings = try context.count(for: FetchRequest(entityName: "Item", format: "parent == %@", .object(parent)))
        let item = try context.insert("Item")
        try context.setValue(.string(text), forKey: "text", of: item)
        try context.setValue(.integer(Int64(siblings)), forKey: "order", of: item)
        try context.setObject(parent, forKey: "parent", of: item)
        return item
    }
}
// article code end

// article code begin
@MainActor func saveWhileTyping(_ container: DocumentContainer, under parent: ManagedObject, status: StatusLine) async throws {
    status.text = "Saving…"
    let saving = Task { try await container.save() }
    // The save begins once the main actor is free; wait for that, then type meanwhile.
    while container.saveState == .unsaved { await Task.yield() }
    _ = try addItem("Typed during the save", under: parent, in: container)
    do {
        try await saving.value
        status.text = container.hasChanges ? "Edited since the last save" : "Saved"
    } catch {
        status.text = "Not saved: \(error)"
    }
}
// article code end

// article code begin
@MainActor func renameInSheet(_ item: ManagedObject, to text: String, in container: DocumentContainer, confirmed: Bool) throws -> [MergeConflict] {
    let sheet = container.makeScratchContext()
    try sheet.setValue(.string(text), forKey: "text", of: item)
    guard confirmed else {
        sheet.discard()
        return []
    }
    return try sheet.commit(named: "Rename").conflicts
}
// article code end

/// The article's code is this file's code, and it does what the article says.
@Suite(.timeLimit(.minutes(2))) @MainActor struct BuildingAnAppArticleTests {
    static let begin = "// article code begin", end = "// article code end"

    /// The ```swift blocks of the article, in order.
    static func articleBlocks() throws -> [String] {
        let article = PackagePaths.file("Sources/OutlineStorage/OutlineStorage.docc/BuildingAnApp.md")
        return ArticleCode.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)).map { $0.joined(separator: "\n") }
    }

    /// The regions of this file between the markers, in order.
    static func testRegions() throws -> [String] {
        let source = try String(contentsOf: PackagePaths.file("Tests/OutlineStorageTests/BuildingAnAppArticleTests.swift"), encoding: .utf8)
        var regions: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == begin {
                #expect(current == nil, "two begin markers in a row")
                current = []
            } else if line == end, let lines = current {
                regions.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        #expect(current == nil, "a region of this file is not closed")
        return regions
    }

    @Test func theArticleShowsExactlyTheCodeThisFileCompiles() throws {
        let blocks = try Self.articleBlocks()
        let regions = try Self.testRegions()
        #expect(blocks.count == 5)
        #expect(blocks.count == regions.count, "the article has \(blocks.count) swift blocks, this file \(regions.count) regions")
        for (index, (block, region)) in zip(blocks, regions).enumerated() {
            #expect(block == region, "block \(index + 1) of the article differs from region \(index + 1) of this file")
        }
    }

    @Test func theArticlesCodeOpensEditsSavesAndCommitsASheet() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(30, in: folder)
        let status = StatusLine()

        let container = try await openDocument(at: path, status: status)
        #expect(status.text == "31 objects")
        let root = StackFixtures.root(of: container.context)

        let added = try addItem("Milk", under: root, in: container)
        #expect(try container.context.value(forKey: "order", of: added) == .integer(10))
        #expect(container.context.undoActionName == "Add Item")

        try await saveWhileTyping(container, under: root, status: status)
        #expect(status.text == "Edited since the last save")
        var texts = try StackFixtures.texts(at: path)
        #expect(texts.contains("Milk") && !texts.contains("Typed during the save"))

        #expect(try renameInSheet(added, to: "Oat milk", in: container, confirmed: false).isEmpty)
        #expect(try container.context.value(forKey: "text", of: added) == .string("Milk"))
        #expect(try renameInSheet(added, to: "Oat milk", in: container, confirmed: true).isEmpty)
        #expect(try container.context.value(forKey: "text", of: added) == .string("Oat milk"))
        #expect(container.context.undoActionName == "Rename")

        try await container.save()
        texts = try StackFixtures.texts(at: path)
        #expect(texts.contains("Oat milk") && texts.contains("Typed during the save") && texts.count == 32)
        try await container.close()
    }
}
