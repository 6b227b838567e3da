import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTestSupport
import Testing

/// An editor holding a document open (the document stack) and the `outline` tool changing
/// it: the editor notices, reloads when it has nothing unsaved, and never overwrites the
/// tool's change unasked.
@Suite(.timeLimit(.minutes(2))) @MainActor struct EditorAndToolTests {
    static func texts(_ stack: OutlineStack) -> [String] {
        SampleOutlines.outline(stack.document)
    }

    @Test func theToolAddingAnItemIsSeenByAnOpenEditor() async throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Milk", [])])
        let stack = try await OutlineStack.open(box.path("doc.outline"), options: .init(externalChangeInterval: nil))
        var events = stack.container.events.makeAsyncIterator()
        let added = try await box.runElsewhere("add", "doc.outline", "Bread")
        #expect(added.status == 0, "\(added)")
        await stack.container.checkForExternalChanges()
        #expect(await events.next() == .reloaded)
        #expect(Self.texts(stack) == ["Milk", "Bread"], "the outline follows the reload")
        try stack.document.insertItem("Eggs")
        try await stack.save()
        let shown = try await box.runElsewhere("show", "doc.outline")
        #expect(shown.stdout.contains("Bread") && shown.stdout.contains("Eggs"), "\(shown)")
        try await stack.close()
    }

    @Test func anEditorWithUnsavedChangesIsToldAndDoesNotOverwrite() async throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Milk", [])])
        let stack = try await OutlineStack.open(box.path("doc.outline"), options: .init(externalChangeInterval: nil))
        var events = stack.container.events.makeAsyncIterator()
        try stack.document.insertItem("typed in the editor")
        #expect(try await box.runElsewhere("add", "doc.outline", "Bread").status == 0)
        await stack.container.checkForExternalChanges()
        #expect(await events.next() == .externalChange)
        let error = await #expect(throws: StorageError.self) { try await stack.save() }
        #expect(error?.code == .conflict)
        #expect(try await box.runElsewhere("show", "doc.outline").stdout.contains("Bread"), "the tool's change is still there")
        try await stack.close()
    }
}
