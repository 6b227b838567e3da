import ArgumentParser
import OutlineKit
import OutlineTool

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove an item and everything under it.",
        discussion: """
            Examples:
              outline remove groceries.outline 1.2
              outline remove groceries.outline '#105'
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to remove: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @OptionGroup var history: HistoryOption

    func run() throws {
        let file = try document.openForEditing(history)
        let item = try file.item(at: path)
        try file.attributing(at: path) { try file.document.deleteItem(item) }
        if let notice = try file.save() { Console.note(notice) }
    }
}
