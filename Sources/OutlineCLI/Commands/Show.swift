import ArgumentParser
import OutlineKit
import OutlineTool

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the outline as a numbered, indented tree.",
        discussion: """
            Each item is shown with its path (1.2.3), done items marked [x], then its tags \
            (@work), notes on the lines beneath. A collapsed item is shown with the number of \
            its hidden children ([+3]) unless --expand-all; so is an item whose children are \
            deeper than --depth. Control characters in texts are shown escaped (\\n, \\e, ...). \
            --under PATH shows that item and what is below it. Reads OPML, Markdown and text \
            files as they are (nothing is written), and standard input (-).

            --json prints {"schemaVersion", "items": [{"text", "note", "done", "collapsed", \
            "tags", "childCount", "children"}]}: the top-level items (or the --under item) \
            with every item below them, texts exact; "children" is left out where --depth \
            stops.

            Examples:
              outline show groceries.outline
              outline show groceries.outline --under 2 --depth 1
              outline show groceries.outline --ids --expand-all
              outline show export.opml --json
              cat notes.md | outline show -
            """)

    @OptionGroup var document: DocumentArgument

    @Option(help: ArgumentHelp("Show only this item and what is below it: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String?

    @Option(help: "How many levels to show below the top (or the --under item); 1 shows one level.")
    var depth: Int?

    @Flag(help: "Show each item's id (#102), usable wherever a PATH is expected.")
    var ids = false

    @Flag(help: "Show the children of collapsed items too.")
    var expandAll = false

    @OptionGroup var input: InputFormatOption

    @OptionGroup var output: JSONOption

    func validate() throws {
        if let depth, depth < 1 {
            throw ValidationError("--depth must be 1 or more (got \(depth)).")
        }
    }

    func run() throws {
        let reading = try OutlineFile.openForReading(document.file, format: try input.format())
        for warning in reading.warnings { Console.warning(warning) }
        let file = reading.file
        let start = try under.map(file.item(at:))
        if start == nil { try file.attributing { try file.document.requireEveryItemUnderRoot() } }
        let options = OutlineDocument.RenderOptions(
            start: start, includesStart: true, depth: depth, showsIDs: ids,
            expandsAll: expandAll)
        try Console.output(output.json ? file.document.renderJSON(options) : file.document.renderText(options))
    }
}
