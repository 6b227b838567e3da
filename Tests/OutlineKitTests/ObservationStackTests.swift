import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Batches for the document stack's ways of changing a context: a scratch context committed
/// as one undo step (several edits arriving as one commit), and a reload after another program
/// changed the file (every object replaced, the root item included).
@Suite struct ObservationStackTests {
    @Test func aScratchCommitArrivesAsOneBatchInEveryObserver() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let b = try document.insertItem("b")
        try document.insertItem("b1", under: b)
        let observed = try ObservedOutline(document: document, parent: document.root)
        var batches: [VisibleRowsBatch] = []
        var results: [ResultsBatch] = []
        observed.visible.onChange { batches.append($0) }
        observed.children.onChange { results.append($0) }

        let scratch = document.context.makeScratchContext()
        let sheet = try OutlineDocument(context: scratch)
        try sheet.insertItem("new", under: a)
        try sheet.insertItem("first", at: 0)
        try sheet.moveItem(b, under: a, at: 0)
        try sheet.setCollapsed(true, of: a)
        try sheet.setCollapsed(false, of: a)
        try document.commit(scratch, named: "Edit sheet")

        #expect(batches.count == 1)
        #expect(batches.first?.actionName == "Edit sheet")
        #expect(results.count == 1)
        #expect(results.first?.actionName == "Edit sheet")
        #expect(try observed.mismatch() == nil)
        #expect(observed.shownRows.map { document.text(of: $0.item) } == ["first", "a", "b", "b1", "new"])
        document.context.undo()
        #expect(try observed.mismatch() == nil)
        document.context.redo()
        #expect(try observed.mismatch() == nil)
    }

    @Test func aReloadDeliversEveryRowAgain() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("a")
        try document.insertItem("b")
        document.context.markSaved()
        // What another program saved: the same document with one more item.
        let other = EditingContext(graph: ObjectGraph(snapshot: document.context.graph.snapshot()))
        try OutlineDocument(context: other).insertItem("from another program")
        let observed = try ObservedOutline(document: document, parent: document.root)
        var reasons: [ChangeReason] = []
        observed.visible.onChange { reasons.append($0.reason) }
        observed.sectioned.onChange { reasons.append($0.reason) }
        document.context.replaceGraph(with: other.graph.snapshot())
        #expect(reasons == [.reload, .reload])
        #expect(try observed.mismatch() == nil)
        #expect(observed.shownRows.map { document.text(of: $0.item) } == ["a", "b", "from another program"])
    }

    @Test func aReloadThatReplacesTheRootMovesTheRowsToTheNewRoot() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        try document.insertItem("a1", under: a)
        try document.insertItem("b")
        document.context.markSaved()
        let oldRoot = document.root
        let other = EditingContext(graph: ObjectGraph(snapshot: document.context.graph.snapshot()))
        let newRoot = try RandomOutlineEditor.wrapRoot(of: OutlineDocument(context: other), text: "top")
        let observed = try ObservedOutline(document: document, parent: oldRoot)
        var batches: [VisibleRowsBatch] = []
        observed.visible.onChange { batches.append($0) }

        document.context.replaceGraph(with: other.graph.snapshot())

        #expect(batches.count == 1)
        #expect(batches.first?.reason == .reload)
        #expect(document.root == newRoot)
        #expect(try observed.mismatch() == nil)
        #expect(observed.shownRows.map { "\($0.depth) \(document.text(of: $0.item) ?? "")" } == ["1 ", "2 a", "3 a1", "2 b"])
        // And the rows keep following edits under the new root.
        try document.insertItem("c")
        try document.setCollapsed(true, of: oldRoot)
        #expect(try observed.mismatch() == nil)
        #expect(observed.shownRows.map { "\($0.depth) \(document.text(of: $0.item) ?? "")" } == ["1 ", "1 c"])
        document.context.undo()
        document.context.undo()
        #expect(try observed.mismatch() == nil)
    }

    @Test func aReloadWithAnotherDocumentWhoseHandlesCoincideDeliversItsRows() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("a")
        try document.insertItem("b")
        document.context.markSaved()
        // Another document altogether: its root is another row, its items reuse the handles.
        let otherDocument = try SampleOutlines.emptyDocument()
        let newRoot = try RandomOutlineEditor.wrapRoot(of: otherDocument, text: "other root")
        try otherDocument.insertItem("x", under: newRoot, at: 0)
        let observed = try ObservedOutline(document: document, parent: document.root)
        document.context.replaceGraph(with: otherDocument.context.graph.snapshot())
        #expect(try observed.mismatch() == nil)
        try document.insertItem("y")
        #expect(try observed.mismatch() == nil)
    }

    @Test func pausedRowsCatchUpOnAReloadUnderANewRootAndTheEditsAfterIt() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        try document.insertItem("a1", under: a)
        document.context.markSaved()
        let other = EditingContext(graph: ObjectGraph(snapshot: document.context.graph.snapshot()))
        try RandomOutlineEditor.wrapRoot(of: OutlineDocument(context: other), text: "top")
        let observed = try ObservedOutline(document: document, parent: document.root)
        var batches: [VisibleRowsBatch] = []
        observed.visible.onChange { batches.append($0) }
        observed.visible.pause()
        observed.children.pause()
        try document.insertItem("lost")
        document.context.replaceGraph(with: other.graph.snapshot())
        try document.insertItem("b")
        try document.setCollapsed(true, of: a)
        #expect(batches.isEmpty)
        observed.visible.resume()
        observed.children.resume()
        #expect(batches.count == 1)
        #expect(batches.first?.isCatchUp == true)
        #expect(try observed.mismatch() == nil)
        #expect(observed.shownRows.map { "\($0.depth) \(document.text(of: $0.item) ?? "")" } == ["1 ", "2 a", "1 b"])
    }

    @MainActor @Test func anOutlineStackReloadUnderANewRootKeepsTheRowsOfTheOutlineBeforeIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "outline-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "rows.outline").path
        let stack = try await OutlineStack.create(path, options: .init(externalChangeInterval: nil))
        let a = try stack.document.insertItem("a")
        try stack.document.insertItem("a1", under: a)
        try stack.document.insertItem("b")
        try await stack.save()
        let visible = VisibleRows(document: stack.document)
        var shown = visible.rows
        visible.onChange { $0.apply(to: &shown) }
        // Another program puts everything under a new top item.
        let store = try PersistentStore.open(path)
        try RandomOutlineEditor.wrapRoot(of: OutlineDocument(context: store.context), text: "top")
        try store.save()

        try await stack.container.reload()

        #expect(visible.document.root == stack.document.root)
        #expect(shown == VisibleRows.flatten(stack.document))
        #expect(shown.map { stack.document.text(of: $0.item) ?? "" } == ["", "a", "a1", "b"])
        try stack.document.insertItem("c")
        #expect(shown == VisibleRows.flatten(stack.document))
        #expect(shown.map(\.depth) == [1, 2, 3, 2, 1])
        try await stack.close()
    }

    /// The random edits of ``ObservationPropertyTests`` plus scratch commits (a scratch context
    /// gets a few random edits of its own and is committed as one step) and reloads (the
    /// document as another program changed it, sometimes under a new root, sometimes another
    /// document altogether).
    @Test(arguments: 0 ..< 2)
    func randomEditsWithScratchCommitsAndReloadsKeepEveryObserverRight(slice: Int) throws {
        for sequence in 0 ..< ObservationPropertyTests.sequences {
            let seed = UInt64(100_000 + slice * ObservationPropertyTests.sequences + sequence)
            guard try run(seed: seed) else { return }
        }
    }

    /// Runs one sequence; false (with an issue recorded) at the first mismatch.
    func run(seed: UInt64) throws -> Bool {
        var random = SeededRandom(seed: seed)
        let document = try SampleOutlines.emptyDocument()
        let editor = RandomOutlineEditor(document: document)
        try editor.grow(count: random.next(upTo: 20) + 3, random: &random)
        editor.extraSteps = [
            { random in try RandomOutlineEditor.scratchCommit(in: document, random: &random) },
            { random in try RandomOutlineEditor.reload(document, random: &random) },
        ]
        let observed = try ObservedOutline(document: document, parent: editor.someItem(&random, includingRoot: true))
        for step in 0 ..< ObservationPropertyTests.steps {
            let what = try editor.step(&random)
            if let problem = try observed.mismatch() {
                Issue.record("seed \(seed), step \(step) (\(what)): \(problem)")
                return false
            }
        }
        return true
    }
}

extension RandomOutlineEditor {
    /// A scratch context over `document`'s context gets a few random edits (with its own undo
    /// and redo) and is committed as one undo step, through the outline or the context.
    static func scratchCommit(in document: OutlineDocument, random: inout SeededRandom) throws -> String {
        let scratch = document.context.makeScratchContext()
        let sheet = RandomOutlineEditor(document: try OutlineDocument(context: scratch))
        let count = random.next(upTo: 5) + 1
        for _ in 0 ..< count { try sheet.step(&random) }
        if random.chance(50) {
            try document.commit(scratch, named: "Scratch")
        } else {
            try scratch.commit(named: "Scratch")
        }
        return "scratch commit of \(count)"
    }

    /// Replaces `document`'s objects with those of another version of the file: this one with
    /// a few edits, this one under a new root, or another document altogether.
    static func reload(_ document: OutlineDocument, random: inout SeededRandom) throws -> String {
        let roll = random.next(upTo: 3)
        let other: OutlineDocument
        if roll == 2 {
            other = try SampleOutlines.emptyDocument()
            try RandomOutlineEditor(document: other).grow(count: random.next(upTo: 12) + 1, random: &random)
        } else {
            other = try OutlineDocument(context: EditingContext(graph: ObjectGraph(snapshot: document.context.graph.snapshot())))
            let editor = RandomOutlineEditor(document: other)
            for _ in 0 ..< random.next(upTo: 4) { try editor.step(&random) }
            if roll == 1 { try wrapRoot(of: other, text: "new root") }
        }
        document.context.replaceGraph(with: other.context.graph.snapshot())
        return ["reload of an edited version", "reload under a new root", "reload of another document"][roll]
    }

    /// Puts `document`'s root under a new item, which becomes the root when the document is
    /// read again.
    @discardableResult
    static func wrapRoot(of document: OutlineDocument, text: String) throws -> ManagedObject {
        let context = document.context
        let shape = document.shape
        return try context.perform("Wrap") {
            let top = try context.insert(entity: shape.item)
            try context.setAttribute(.string(text), shape.text, of: top)
            try context.setAttribute(.integer(0), shape.order, of: document.root)
            try context.add(document.root, to: shape.children, of: top)
            return top
        }
    }
}
