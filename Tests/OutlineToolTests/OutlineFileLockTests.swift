import Foundation
import OutlineKit
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineTool

/// Editing through ``OutlineFile``: editors take turns through the document's lock, readers
/// never wait, and a save over a change made meanwhile is refused instead of losing it.
@Suite struct OutlineFileLockTests {
    /// A folder with an outline holding one item, removed by the caller.
    static func document() throws -> (folder: URL, path: String) {
        let folder = try TemporaryFolder.make("outline-lock")
        let path = folder.appendingPathComponent("doc.outline").path
        let file = try OutlineFile.create(path, format: .binary, replacing: false)
        try file.document.insertItem("First")
        try file.save()
        return (folder, path)
    }

    @Test func anEditorHoldsTheDocumentUntilItLetsGo() throws {
        let (folder, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: folder) }
        let editor = try OutlineFile.openForEditing(path, lockTimeout: 0)
        #expect(editor.lock?.isHeld == true)
        let second = #expect(throws: StorageError.self) { try OutlineFile.openForEditing(path, lockTimeout: 0.2) }
        #expect(second?.code == .conflict)
        #expect(
            second?.description
                == "\(path): another process is editing the document (waited 0.2 seconds for it to finish). Try again once the other command is done; nothing was written."
        )
        // Readers do not wait for it.
        let reader = try OutlineFile.open(path)
        #expect(reader.lock == nil)
        try editor.document.insertItem("Second")
        try editor.save()
        editor.release()
        #expect(editor.lock == nil)
        let next = try OutlineFile.openForEditing(path, lockTimeout: 0)
        #expect(next.document.children(of: next.document.root).compactMap { next.document.text(of: $0) } == ["First", "Second"])
    }

    @Test func aSaveOverAChangeMadeMeanwhileIsRefused() throws {
        let (folder, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Opened to read (no lock), then edited and saved after an editor saved its change.
        let stale = try OutlineFile.open(path)
        let editor = try OutlineFile.openForEditing(path, lockTimeout: 0)
        try editor.document.insertItem("From the editor")
        try editor.save()
        editor.release()
        try stale.document.insertItem("From the stale copy")
        let error = #expect(throws: StorageError.self) { try stale.save() }
        #expect(error?.code == .conflict)
        let reopened = try OutlineFile.open(path)
        #expect(reopened.document.children(of: reopened.document.root).compactMap { reopened.document.text(of: $0) } == ["First", "From the editor"])
    }

    @Test func killedSavesLeftoversAreRemovedWhenEditingStarts() throws {
        let (folder, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: folder) }
        let leftovers = [".doc.outline.outline-tmp-Dead01", ".doc.outline.outline-tmp-Empty0"]
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(leftovers[0]).path, contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(leftovers[1]).path, contents: Data()))
        _ = try OutlineFile.openForEditing(path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["doc.outline"])
    }
}
