import ArgumentParser
import OutlineKit
import OutlineTool

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the undo history a document keeps, clear it, or set how long it is.",
        discussion: """
            Steps are listed in the order they were made; > marks the one `outline undo` takes \
            back next, and undone steps (which `outline redo` makes again) say so. A document \
            keeps its last 100 steps unless --limit says otherwise; the limit is kept in the \
            document. When another program changed the document since the history was saved, \
            the history cannot be used: --clear drops it (the document itself is not changed).

            Examples:
              outline history groceries.outline
              outline history groceries.outline --json
              outline history groceries.outline --clear
              outline history groceries.outline --limit 500
            """)

    @OptionGroup var document: DocumentArgument

    @Flag(help: "Drop the undo history: nothing can be undone or redone afterwards.")
    var clear = false

    @Option(help: ArgumentHelp("Keep the last n steps from now on (1 to 10,000; the document remembers it).", valueName: "n"))
    var limit: Int?

    @OptionGroup var output: JSONOption

    func run() throws {
        let file: OutlineFile
        if clear || limit != nil {
            file = try document.openForEditing()
            // A document that keeps no history has nothing to clear: it is not written (an
            // older version would be migrated by the save).
            let nothingToClear = file.store.historyStatus == .none
            let before = (undo: file.store.historyUndoStepNames.count, redo: file.store.historyRedoStepNames.count)
            if clear { file.clearHistory() }
            if let limit { try file.setHistoryLimit(limit) }
            if !(clear && nothingToClear && limit == nil), let notice = try file.save() { Console.note(notice) }
            if let limit, !clear, let note = Self.dropped(before, file.historyReport(), limit: limit, file: file.path) { Console.note(note) }
        } else {
            file = try OutlineFile.open(document.file, restoringHistory: true)
        }
        let report = file.historyReport()
        try Console.output(output.json ? report.renderJSON() : report.renderText())
    }

    /// What a smaller --limit dropped, said once: the oldest steps to undo, and steps that
    /// could have been redone (the nearest steps are kept, those to undo first).
    static func dropped(_ before: (undo: Int, redo: Int), _ after: HistoryReport, limit: Int, file: String) -> String? {
        let undo = before.undo - after.undoSteps.count
        let redo = before.redo - after.redoSteps.count
        guard undo > 0 || redo > 0 else { return nil }
        func steps(_ n: Int) -> String { n == 1 ? "1 step" : "\(n) steps" }
        let parts = [undo > 0 ? "the \(steps(undo)) to undo furthest back" : nil, redo > 0 ? "\(steps(redo)) that could be redone" : nil]
        return "\(file): keeping the last \(limit) dropped \(parts.compactMap { $0 }.joined(separator: " and "))."
    }
}
