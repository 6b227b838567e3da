import Foundation
import OutlineKit
import OutlineStorage
import Testing

@testable import OutlineTool

/// The undo history through ``OutlineFile``: what one command does is one step, and the user
/// hears when the history cannot keep a change.
@Suite struct OutlineFileHistoryTests {
    /// A folder with a new outline, removed by the caller.
    static func document() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outline-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("doc.outline").path
        try OutlineFile.create(path, format: .binary, replacing: false)
        return (folder, path)
    }

    @Test func theEditsOfOneSaveAreOneStepUnlessAskedOtherwise() throws {
        let (folder, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try OutlineFile.openForEditing(path)
        let item = try file.document.insertItem("Milk")
        try file.document.setNote("Oat", of: item)
        try file.document.setDone(true, of: item)
        #expect(try file.save() == nil)
        #expect(file.store.context.undoStepNames == ["Add item “Milk” and 2 more changes"])

        file.joinsStepsOnSave = false
        try file.document.setText("Oat milk", of: item)
        try file.document.setDone(false, of: item)
        try file.save()
        file.release()
        let reopened = try OutlineFile.open(path, restoringHistory: true)
        #expect(
            reopened.historyReport().undoSteps == [
                "Add item “Milk” and 2 more changes", "Edit text of “Milk”", "Mark “Oat milk” not done",
            ])
    }

    @Test func aChangeTooLargeForTheHistorySaysSo() throws {
        let (folder, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try OutlineFile.openForEditing(path)
        let item = try file.document.insertItem("Big", note: String(repeating: "x", count: HistoryLimits.maximumBytes + 1))
        #expect(try file.save() == nil)
        try file.document.deleteItem(item)
        let notice = try file.save()
        #expect(
            notice == "This change is too large for the undo history, which keeps at most 64 MiB (a step that removes "
                + "items keeps all of them): it cannot be undone, nor can the changes before it.")
        file.release()
        let reopened = try OutlineFile.openForEditing(path)
        #expect(throws: OutlineError.self) { try reopened.undo() }
    }
}
