import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// The outline over the document stack: migration on open, a background import merged as one
/// undo step, an edit sheet in a scratch context.
@Suite(.timeLimit(.minutes(10))) @MainActor struct OutlineStackTests {
    /// Items in the background import: `OUTLINE_LARGE_ITEMS` or 10,000.
    static let importItems = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap(Int.init) ?? 10_000

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "outline-stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An OPML file of `count` items, up to 10 children each, breadth first (`item 1`, ...).
    static func opml(items count: Int) -> Data {
        var children = [[Int]](repeating: [], count: count + 1)
        for i in 1 ... count { children[(i - 1) / 10].append(i) }
        var text = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>Big</title></head><body>\n"
        var stack: [(item: Int, next: Int)] = [(0, 0)]
        while let top = stack.last {
            if top.next < children[top.item].count {
                let child = children[top.item][top.next]
                stack[stack.count - 1].next += 1
                text += "<outline text=\"item \(child)\"" + (children[child].isEmpty ? "/>\n" : ">\n")
                if !children[child].isEmpty { stack.append((child, 0)) }
            } else {
                stack.removeLast()
                if top.item != 0 { text += "</outline>\n" }
            }
        }
        return Data((text + "</body></opml>\n").utf8)
    }

    @Test func anOlderDocumentIsMigratedOnOpenAndKeptAsABackupOnFirstSave() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "old.outline").path
        try FileManager.default.copyItem(atPath: InterchangeFixtures.folder.appending(path: "Documents/outline-v1.outline").path, toPath: path)
        var phases: [LoadProgress.Phase] = []
        let stack = try await OutlineStack.open(path, options: .init(externalChangeInterval: nil)) { progress in
            if phases.last != progress.phase { phases.append(progress.phase) }
        }
        #expect(phases.contains(.migrating) && phases.first == .reading)
        #expect(stack.container.migration != nil && stack.container.hasChanges)
        #expect(stack.document.supportsNotes)
        try await stack.save()
        #expect(FileManager.default.fileExists(atPath: path + ".bak"))
        #expect(try PersistentStore.readMetadata(path).embeddedSchema?.name == OutlineSchemas.current.name)
        try await stack.close()
    }

    /// A binary file at `path` with three top-level items whose `order` is `orders`.
    static func writeItems(ordered orders: [Int64], to path: String) throws {
        let store = PersistentStore(schema: try OutlineSchemas.current, path: path)
        let document = try OutlineDocument(context: store.context)
        for (index, order) in orders.enumerated() {
            let item = try document.insertItem("item \(index + 1)", under: document.root)
            try store.context.setAttribute(.integer(order), document.shape.order, of: item)
        }
        try store.save(to: path)
    }

    @Test(arguments: [([0, 1, 2] as [Int64], true), ([1, 2, 3], false), ([0, 2, 5], false)])
    func openingRenumbersOnlyListsNotNumberedFromZero(orders: [Int64], consecutive: Bool) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "numbered.outline").path
        try Self.writeItems(ordered: orders, to: path)
        let stack = try await OutlineStack.open(path, options: .init(externalChangeInterval: nil))
        let document = stack.document
        #expect(document.listsWereNumbered == consecutive)
        let children = document.children(of: document.root)
        #expect(children.map(document.text(of:)) == ["item 1", "item 2", "item 3"])
        #expect(children.map(document.order(of:)) == [0, 1, 2])
        #expect(stack.container.hasChanges == !consecutive)
        #expect(!stack.context.canUndo)
        try await stack.close()
    }

    @Test func aBackgroundImportArrivesAsOneUndoStepWhileEditingGoesOn() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "doc.outline").path
        let stack = try await OutlineStack.create(path, options: .init(externalChangeInterval: nil))
        let document = stack.document
        let first = try document.insertItem("typed before")
        let data = Self.opml(items: Self.importItems)
        let importing = Task { try await stack.importItems(data, format: .opml, file: "big.opml").items.count }
        // Typing goes on while the import runs in the background. On a busy machine the import
        // may be merged before this task runs again; the typed item then comes after it and is
        // the last undo step, and everything else holds the same.
        await Task.yield()
        let typed = try document.insertItem("typed during")
        let imported = try await importing.value
        #expect(imported == min(Self.importItems, 10))
        #expect(document.itemCount == Self.importItems + 3)
        let top = document.children(of: document.root)
        let typedDuringTheImport = top[1] == typed
        #expect(top.first == first, "the import lands after what was there")
        #expect(typedDuringTheImport || top.last == typed)
        #expect(document.text(of: top[typedDuringTheImport ? 2 : 1]) == "item 1")
        SampleOutlines.checkInvariants(document)
        if !typedDuringTheImport { stack.context.undo() }
        #expect(stack.context.undoActionName == "Import big.opml")
        stack.context.undo()
        #expect(document.children(of: document.root) == (typedDuringTheImport ? [first, typed] : [first]), "one step took the whole import away")
        stack.context.redo()
        if !typedDuringTheImport { stack.context.redo() }
        #expect(document.itemCount == Self.importItems + 3)
        try await stack.save()
        let reopened = try await OutlineStack.open(path, options: .init(externalChangeInterval: nil))
        #expect(reopened.document.itemCount == Self.importItems + 3)
        try await stack.close()
        try await reopened.close()
    }

    @Test func anEditSheetCommitsAsOneStepOrIsDiscarded() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stack = try await OutlineStack.create(folder.appending(path: "doc.outline").path, options: .init(externalChangeInterval: nil))
        let document = stack.document
        let item = try document.insertItem("Groceries")
        let scratch = stack.container.makeScratchContext()
        let sheet = try OutlineDocument(context: scratch)
        try sheet.setText("Groceries for Sunday", of: item)
        try sheet.insertItem("Milk", under: item)
        try sheet.insertItem("Bread", under: item)
        #expect(document.children(of: item).isEmpty)
        let report = try document.commit(scratch, named: "Edit “Groceries”")
        #expect(report.conflicts.isEmpty)
        #expect(SampleOutlines.outline(document) == ["Groceries for Sunday", "  Milk", "  Bread"])
        #expect(stack.context.undoActionName == "Edit “Groceries”")
        stack.context.undo()
        #expect(SampleOutlines.outline(document) == ["Groceries"])

        let cancelled = stack.container.makeScratchContext()
        try OutlineDocument(context: cancelled).deleteItem(item)
        cancelled.discard()
        #expect(SampleOutlines.outline(document) == ["Groceries"])
        try await stack.close()
    }

    @Test func anEditSheetMeetingEditsOfTheSameListKeepsTheOrderConsistent() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stack = try await OutlineStack.create(folder.appending(path: "doc.outline").path, options: .init(externalChangeInterval: nil))
        let document = stack.document
        let list = try document.insertItem("List")
        try document.insertItem("a", under: list)
        let scratch = stack.container.makeScratchContext()
        try OutlineDocument(context: scratch).insertItem("from the sheet", under: list, at: 0)
        try document.insertItem("typed meanwhile", under: list)
        let report = try document.commit(scratch, named: "Sheet")
        #expect(report.conflicts.map(\.kind) == [.changedInBoth])
        #expect(SampleOutlines.outline(document) == ["List", "  from the sheet", "  a", "  typed meanwhile"])
        SampleOutlines.checkInvariants(document)
        try await stack.close()
    }
}
