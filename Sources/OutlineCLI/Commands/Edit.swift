import ArgumentParser
import OutlineEngine
import OutlineKit
import OutlineTool

struct Edit: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change the text, note or done state of an item, a subtree or every match.",
        discussion: """
            Give at least one change, and the items: PATH, or --where QUERY for every item the \
            predicate matches (as find prints them). --recursive changes the items below each \
            one too. An empty --note removes the note. The whole edit is one step. With \
            --where or --recursive, prints how many items changed.

            Examples:
              outline edit groceries.outline 1.2 --text "Oat milk"
              outline edit groceries.outline 1.2 --note "The big carton."
              outline edit groceries.outline '#105' --not-done --note ""
              outline edit groceries.outline 1 --done --recursive
              outline edit groceries.outline --where 'text BEGINSWITH "Old"' --done
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to edit: a path such as 2.1.3, or #ID (or --where).", valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp("Edit every item this predicate matches instead of PATH.", valueName: "query"))
    var `where`: String?

    @Flag(help: "Edit the items below each item too.")
    var recursive = false

    @Option(help: "The new text.")
    var text: String?

    @Option(help: ArgumentHelp("Read the new text from this file (- for standard input).", valueName: "file"), completion: .file())
    var textFile: String?

    @Option(help: "The new note (an empty note removes it).")
    var note: String?

    @Option(help: ArgumentHelp("Read the new note from this file (- for standard input).", valueName: "file"), completion: .file())
    var noteFile: String?

    @Flag(exclusivity: .exclusive)
    var state: DoneState?

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if text == nil && textFile == nil && note == nil && noteFile == nil && state == nil {
            throw ValidationError("Nothing to change: give --text, --note, --done or --not-done.")
        }
        switch (path, `where`) {
        case (nil, nil): throw ValidationError("Say which items: give PATH, or --where QUERY.")
        case (_?, _?): throw ValidationError("Give PATH or --where QUERY, not both.")
        default: break
        }
        if text != nil && textFile != nil { throw ValidationError("Give --text or --text-file, not both.") }
        if note != nil && noteFile != nil { throw ValidationError("Give --note or --note-file, not both.") }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let text = try TextSource.choose(text, file: textFile, name: "text", optional: true)
        let note = try TextSource.choose(note, file: noteFile, name: "note", optional: true)
        let outline = file.document
        var targets: [ManagedObject]
        if let query = `where` {
            targets = try QueryDiagnostic.showingColumn(of: query) { try file.attributing { try outline.matches(query).map(\.item) } }
        } else if let path {
            targets = [try file.item(at: path)]
            if targets[0] == outline.root {
                throw OutlineError(.invalidEdit, file: file.path, at: "/", "the root item cannot be edited",
                                   hint: "Edit the top-level items (1, 2, ...) instead, or all of them with --where 'TRUEPREDICATE'.")
            }
        } else {
            targets = []
        }
        if recursive { targets = Self.withDescendants(targets, in: outline) }
        let counted = `where` != nil || recursive
        guard !targets.isEmpty else {
            return EditOutcome(output: ["No item matches; nothing changed."], changed: false)
        }
        let name = targets.count == 1 ? stepName(for: targets[0], in: file, text: text, note: note) : "Edit \(targets.count) items"
        try file.edit(name, at: path) {
            for item in targets {
                if let text { try outline.setText(text, of: item) }
                if let note { try outline.setNote(note.isEmpty ? nil : note, of: item) }
                if let state { try outline.setDone(state == .done, of: item) }
            }
        }
        return EditOutcome(output: counted ? ["Changed \(targets.count) \(targets.count == 1 ? "item" : "items")."] : [])
    }

    /// The undo step's name for one item, as the edits name themselves: the first change, and
    /// how many more there are (`Edit text of “Milk” and 1 more change`).
    func stepName(for item: ManagedObject, in file: OutlineFile, text: String?, note: String?) -> String {
        let quoted = "“" + OutlineDocument.shorten(file.document.text(of: item) ?? "") + "”"
        var names: [String] = []
        if text != nil { names.append("Edit text of \(quoted)") }
        if note != nil { names.append("Edit note of \(quoted)") }
        if let state { names.append(state == .done ? "Mark \(quoted) done" : "Mark \(quoted) not done") }
        guard let first = names.first else { return "Edit \(quoted)" }
        let more = names.count - 1
        return more == 0 ? first : "\(first) and \(more) more \(more == 1 ? "change" : "changes")"
    }

    /// `items` and everything below them, each once, in document order of each subtree.
    static func withDescendants(_ items: [ManagedObject], in outline: OutlineDocument) -> [ManagedObject] {
        var seen: Set<ManagedObject> = []
        var all: [ManagedObject] = []
        for item in items where !seen.contains(item) {
            for member in outline.subtree(of: item) where seen.insert(member).inserted { all.append(member) }
        }
        return all
    }
}
