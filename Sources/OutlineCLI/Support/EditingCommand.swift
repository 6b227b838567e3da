import ArgumentParser
import OutlineKit
import OutlineTool

/// What an editing command did: the lines it prints on standard output once the document is
/// saved, and notes for standard error.
struct EditOutcome {
    var output: [String] = []
    var notes: [String] = []
    /// Whether the document changed (nothing is saved when it did not).
    var changed = true
}

/// A command that changes a document (`add`, `edit`, `move`, `tag`, ...). On its own it opens
/// the document for editing, applies its change as one undo step, saves, then prints;
/// `outline batch` applies many of them, one per line, to one open document and saves once.
protocol EditingCommand: ParsableCommand {
    /// The document the command changes.
    var document: DocumentArgument { get set }
    /// `--no-history`: save without the document's undo history.
    var history: HistoryOption { get set }

    /// Applies the change to `file` as one undo step, without saving.
    func apply(to file: OutlineFile) throws -> EditOutcome
}

extension EditingCommand {
    func run() throws {
        try runEditing()
    }

    /// Opens the document, applies the change, saves and prints: what `run()` does unless a
    /// command has another form (`edit` with only FILE opens the full-screen editor).
    func runEditing() throws {
        let file = try document.openForEditing(history)
        let outcome = try apply(to: file)
        let notice = outcome.changed ? try file.save() : nil
        for note in outcome.notes { Console.note(note) }
        try Console.output(lines: outcome.output)
        if let notice { Console.note(notice) }
        ProcessLifetime.keepUntilExit(file)
    }
}
