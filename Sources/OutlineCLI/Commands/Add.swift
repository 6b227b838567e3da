import ArgumentParser
import OutlineKit
import OutlineTool

struct Add: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an item and print its path.",
        discussion: """
            The item goes at the end of the parent's children, or at 1-based position --at. \
            Prints the new item's path, or with --id its #ID (which stays the same when other \
            items move). A text or note longer than a command line can come from a file, or \
            from standard input (-).

            Examples:
              outline add groceries.outline "Dairy"
              outline add groceries.outline "Milk" --under 1
              outline add groceries.outline "Eggs" --under 1 --at 1 --note "A dozen."
              outline add groceries.outline "Bread" --done --id
              outline add notes.outline --text-file - < title.txt
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: "The item's text (or --text-file).")
    var text: String?

    @Option(
        help: ArgumentHelp("Read the item's text from this file (- for standard input).", valueName: "file"),
        completion: .file())
    var textFile: String?

    @Option(help: ArgumentHelp("The parent item: a path such as 2.1.3, / for the root, or #ID (default: the root).", valueName: "path"))
    var under: String?

    @Option(help: ArgumentHelp("The 1-based position among the parent's children (default: the end).", valueName: "n"))
    var at: Int?

    @Option(help: "A note shown beneath the item.")
    var note: String?

    @Option(help: ArgumentHelp("Read the note from this file (- for standard input).", valueName: "file"), completion: .file())
    var noteFile: String?

    @Flag(help: "Mark the item done.")
    var done = false

    @Flag(help: "Print the new item's #ID instead of its path.")
    var id = false
    @OptionGroup var history: HistoryOption

    func validate() throws {
        if let at, at < 1 {
            throw ValidationError("--at must be 1 or more (got \(at)).")
        }
        if text != nil && textFile != nil { throw ValidationError("Give the text or --text-file, not both.") }
        if text == nil && textFile == nil { throw ValidationError("Give the item's text, or --text-file FILE (- for standard input).") }
        if note != nil && noteFile != nil { throw ValidationError("Give --note or --note-file, not both.") }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let text = try TextSource.choose(text, file: textFile, name: "text", optional: false) ?? ""
        let note = try TextSource.choose(note, file: noteFile, name: "note", optional: true)
        let parent = try file.item(at: under ?? "/")
        let item = try file.edit(at: under ?? "/") {
            try file.document.insertItem(text, under: parent, at: at.map { $0 - 1 }, note: note, done: done)
        }
        return EditOutcome(output: [id ? "#\(file.document.context.objectID(of: item).rawValue)" : file.path(of: item)])
    }
}
