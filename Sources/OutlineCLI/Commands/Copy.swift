import ArgumentParser
import OutlineKit
import OutlineTool

struct Copy: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy an item with everything under it and print the copy's path.",
        discussion: """
            The copy has the same text, note, done and collapsed state, dates and tags, and \
            so does every item below it. It goes at the end of --under's children, or at \
            1-based position --at. Prints the copy's path, or with --id its #ID.

            Examples:
              outline copy groceries.outline 1 --under /
              outline copy groceries.outline 1.2 --under 2 --at 1
              outline copy groceries.outline '#105' --under 3 --id
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to copy: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("Where the copy goes: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String

    @Option(help: ArgumentHelp("The 1-based position among the new siblings (default: the end).", valueName: "n"))
    var at: Int?

    @Flag(help: "Print the copy's #ID instead of its path.")
    var id = false

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if let at, at < 1 {
            throw ValidationError("--at must be 1 or more (got \(at)).")
        }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let item = try file.item(at: path)
        let destination = try file.item(at: under)
        let copy = try file.edit(at: path) { try file.document.copyItem(item, under: destination, at: at.map { $0 - 1 }) }
        return EditOutcome(output: [id ? "#\(file.document.context.objectID(of: copy).rawValue)" : file.path(of: copy)])
    }
}
