import ArgumentParser
import OutlineKit
import OutlineTool

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change an item's text, note or done state.",
        discussion: """
            Give at least one change. An empty --note removes the note.

            Examples:
              outline edit groceries.outline 1.2 --text "Oat milk"
              outline edit groceries.outline 1.2 --note "The big carton."
              outline edit groceries.outline 1.2 --done
              outline edit groceries.outline '#105' --not-done --note ""
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to edit: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @Option(help: "The new text.")
    var text: String?

    @Option(help: "The new note (an empty note removes it).")
    var note: String?

    @Flag(exclusivity: .exclusive)
    var state: DoneState?

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if text == nil && note == nil && state == nil {
            throw ValidationError("Nothing to change: give --text, --note, --done or --not-done.")
        }
    }

    func run() throws {
        let file = try document.openForEditing(history)
        let item = try file.item(at: path)
        try file.attributing(at: path) {
            let outline = file.document
            guard item != outline.root else {
                throw OutlineError(.invalidEdit, at: "/", "the root item cannot be edited",
                                   hint: "Edit the top-level items (1, 2, ...) instead.")
            }
            if let text { try outline.setText(text, of: item) }
            if let note { try outline.setNote(note.isEmpty ? nil : note, of: item) }
            if let state { try outline.setDone(state == .done, of: item) }
        }
        if let notice = try file.save() { Console.note(notice) }
    }
}
