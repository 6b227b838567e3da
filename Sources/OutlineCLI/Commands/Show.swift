import ArgumentParser
import OutlineKit
import OutlineTool

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the outline as a numbered, indented tree.",
        discussion: """
            Each item is shown with its path (1.2.3), done items marked [x], notes on the lines \
            beneath their item. --json prints {"schemaVersion", "items": [{"text", "note", \
            "done", "collapsed", "children"}]} where items are the top-level items in order.

            Examples:
              outline show groceries.outline
              outline show groceries.outline --under 2 --depth 1
              outline show groceries.outline --ids
              outline show groceries.outline --json
            """)

    @OptionGroup var document: DocumentArgument

    @Option(help: ArgumentHelp("Show only the items under this one: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String?

    @Option(help: "How many levels to show (1 shows only the first level).")
    var depth: Int?

    @Flag(help: "Show each item's id (#102), usable wherever a PATH is expected.")
    var ids = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        if let depth, depth < 1 {
            throw ValidationError("--depth must be 1 or more (got \(depth)).")
        }
    }

    func run() throws {
        let file = try OutlineFile.open(document.file)
        let start = try under.map(file.item(at:))
        if start == nil { try file.attributing { try file.document.requireEveryItemUnderRoot() } }
        let options = OutlineDocument.RenderOptions(start: start, depth: depth, showsIDs: ids)
        Console.output(output.json ? file.document.renderJSON(options) : file.document.renderText(options))
    }
}
