import ArgumentParser
import OutlineKit
import OutlineTool

struct Remove: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove an item and everything under it, and say what was removed.",
        discussion: """
            Prints what was removed, such as: Removed “Groceries” and 12 items below it. The \
            removal is one step of the document's undo history.

            Examples:
              outline remove groceries.outline 1.2
              outline remove groceries.outline '#105'
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to remove: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @OptionGroup var history: HistoryOption

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let item = try file.item(at: path)
        let below = file.document.descendantCount(of: item)
        let quoted = file.quotedText(of: item)
        try file.edit(at: path) { try file.document.deleteItem(item) }
        let rest = below == 0 ? "" : " and \(below) \(below == 1 ? "item" : "items") below it"
        return EditOutcome(output: ["Removed \(quoted)\(rest)."])
    }
}
