import ArgumentParser
import OutlineTool

/// `--no-history`, for the commands that change a document.
struct HistoryOption: ParsableArguments {
    @Flag(
        name: .customLong("no-history"),
        help: "Save without the document's undo history: the history is dropped and this change cannot be undone.")
    var dropsHistory = false
}

extension DocumentArgument {
    /// The document opened to edit (see ``openForEditing()``), keeping its undo history unless `--no-history`.
    func openForEditing(_ history: HistoryOption) throws -> OutlineFile {
        try openForEditing(keepingHistory: !history.dropsHistory)
    }
}
