import ArgumentParser
import OutlineKit
import OutlineTool

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the paths and texts of the items a predicate matches.",
        discussion: """
            QUERY is a predicate over items in Core Data's syntax, on the properties text, \
            note, done, collapsed, created and order. Matches are printed in document order \
            (with --under, only the items below that one); none is not an error. --count \
            prints how many there are instead. Reads OPML, Markdown and text files as they \
            are, and standard input (-).

            Examples:
              outline find groceries.outline 'text CONTAINS[c] "milk"'
              outline find groceries.outline 'done == NO' --under 2
              outline find groceries.outline 'note != nil' --json
              outline find export.opml 'done == YES' --count
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: "The predicate, such as 'text CONTAINS[c] \"milk\" AND done == NO'.")
    var query: String

    @Option(help: ArgumentHelp("Look only below this item: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String?

    @Flag(help: "Print the number of matches instead of the matches.")
    var count = false

    @OptionGroup var output: JSONOption

    func run() throws {
        let reading = try OutlineFile.openForReading(document.file)
        for warning in reading.warnings { Console.warning(warning) }
        let file = reading.file
        let outline = file.document
        let start = try under.map(file.item(at:))
        let matches = try file.attributing { try outline.matches(query, under: start) }
        if count {
            try Console.output(output.json ? "{\"count\": \(matches.count)}\n" : "\(matches.count)\n")
        } else {
            try Console.output(output.json ? outline.renderMatchesJSON(matches) : outline.renderMatchesText(matches))
        }
    }
}
