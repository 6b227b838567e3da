import Foundation
import OutlineTool

/// What keeping the undo history in the document costs an edit (`Docs/UndoHistory.md`).
extension SizeSuite {
    /// `edit.add-history` and `edit.undo`: `outline add` and `outline undo` as the tool runs
    /// them, keeping the document's undo history: open for editing (which takes the history
    /// over: the digest of the objects is checked and every step rehearsed), edit, save with the
    /// history and the digest of the objects saved. Each round adds an item at the end of the
    /// top level and undoes it, so every round starts from the same objects; compare with
    /// `edit.add`, the same add without the history.
    func measureHistoryEdits(_ paths: Paths, into samples: inout [String: Sample]) throws {
        let path = scratch.file("\(items)-history.outline")
        scratch.removeFile(URL(fileURLWithPath: path).lastPathComponent)
        try FileManager.default.copyItem(atPath: paths.binary, toPath: path)
        let cycle = try measurer.measureCycle([
            (
                "edit.add-history (outline add, keeping the undo history)",
                {
                    let file = try OutlineFile.openForEditing(path)
                    defer { file.release() }
                    let parent = try file.item(at: "/")
                    try file.attributing(at: "/") { try file.document.insertItem("Added by the benchmark", under: parent) }
                    try file.save()
                }
            ),
            (
                "edit.undo (outline undo)",
                {
                    let file = try OutlineFile.openForEditing(path)
                    defer { file.release() }
                    _ = try file.undo()
                    try file.save()
                }
            ),
        ])
        samples["edit.add-history"] = cycle[0]
        samples["edit.undo"] = cycle[1]
    }
}
