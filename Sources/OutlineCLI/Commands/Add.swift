import ArgumentParser
import OutlineKit
import OutlineTool

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an item and print its path.",
        discussion: """
            The item goes at the end of the parent's children, or at 1-based position --at.

            Examples:
              outline add groceries.outline "Dairy"
              outline add groceries.outline "Milk" --under 1
              outline add groceries.outline "Eggs" --under 1 --at 1 --note "A dozen."
              outline add groceries.outline "Bread" --done
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: "The item's text.")
    var text: String

    @Option(help: ArgumentHelp("The parent item: a path such as 2.1.3, / for the root, or #ID (default: the root).", valueName: "path"))
    var under: String?

    @Option(help: ArgumentHelp("The 1-based position among the parent's children (default: the end).", valueName: "n"))
    var at: Int?

    @Option(help: "A note shown beneath the item.")
    var note: String?

    @Flag(help: "Mark the item done.")
    var done = false

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if let at, at < 1 {
            throw ValidationError("--at must be 1 or more (got \(at)).")
        }
    }

    func run() throws {
        let file = try document.openForEditing(history)
        let parent = try file.item(at: under ?? "/")
        let item = try file.attributing(at: under ?? "/") {
            try file.document.insertItem(text, under: parent, at: at.map { $0 - 1 }, note: note, done: done)
        }
        let notice = try file.save()
        Console.output(file.path(of: item) + "\n")
        if let notice { Console.note(notice) }
    }
}
