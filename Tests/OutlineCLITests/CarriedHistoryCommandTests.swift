import Foundation
import OutlineEngine
import OutlineTool
import Testing

@testable import OutlineStorage

/// Editing commands carry the document's undo history to their save without taking its steps
/// back and forth, and `undo` and `redo` take over the one step they need, so checking the
/// history costs them one step at most; a step that does not fit the document is refused when
/// undo reaches it, not before.
@Suite struct CarriedHistoryCommandTests {
    @Test func anEditKeepsAHistoryItDidNotCheckAndUndoStopsAtTheStepThatDoesNotFit() throws {
        let box = try CLISandbox()
        let path = box.path("f.outline")
        try UndoCommandTests.ok(box, "create", "f.outline")
        try UndoCommandTests.ok(box, "add", "f.outline", "One")
        // The same objects with a history whose one step names an object the document never had.
        let store = try PersistentStore.load(Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: "f.outline")
        let forged = UndoHistory(undoSteps: [.init(name: "Forged step", changes: [.attribute(ObjectID(9_999), "title", old: nil)])])
        let bytes = try StoreCodec.write(
            store.context.graph.snapshot(), metadata: store.metadata, format: .binary, level: 1, file: nil,
            history: HistoryPayload(bytes: HistoryCoding.encode(forged, stepLimit: 100).bytes, fillsDigest: true))
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let added = try box.run("add", "f.outline", "Two")
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added)")
        #expect(
            try UndoCommandTests.ok(box, "history", "f.outline") == """
                f.outline: 2 steps to undo, nothing to redo (the document keeps the last 100).
                  1  Forged step
                > 2  Add item “Two”

                """)
        // Undo takes over the nearest step only: the edit made since undoes, the forged step
        // before it is refused when undo reaches it, and the document stays as it was then.
        #expect(try UndoCommandTests.ok(box, "undo", "f.outline") == "Undid: Add item “Two”\n")
        let undo = try box.run("undo", "f.outline")
        #expect(undo.status == 1, "\(undo)")
        #expect(undo.stderr.contains("the undo history does not fit the document"), "\(undo)")
        #expect(undo.stderr.contains("9999"), "\(undo)")
        #expect(try UndoCommandTests.ok(box, "show", "f.outline") == "1 One\n")
        // Redo takes the nearest redo step only, which fits.
        #expect(try UndoCommandTests.ok(box, "redo", "f.outline") == "Redid: Add item “Two”\n")
        #expect(try UndoCommandTests.ok(box, "show", "f.outline") == "1 One\n2 Two\n")
        // Clearing it lets editing with undo start again.
        try UndoCommandTests.ok(box, "history", "f.outline", "--clear")
        try UndoCommandTests.ok(box, "add", "f.outline", "Three")
        #expect(try UndoCommandTests.ok(box, "undo", "f.outline") == "Undid: Add item “Three”\n")
    }
}
