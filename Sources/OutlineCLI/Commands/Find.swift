import ArgumentParser
import OutlineEngine
import OutlineKit
import OutlineTool

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the paths and texts of the items a predicate matches.",
        discussion: """
            QUERY is a predicate over items in Core Data's syntax, on the properties text, \
            note, done, collapsed, created and order, and the relationships parent and \
            children. Matches are printed in document order (with --under, only the items \
            below that one); none is not an error. --count prints how many there are instead. \
            Reads OPML, Markdown and text files as they are, and standard input (-).

            $NAME in the query is a variable; give it a value with --var NAME=VALUE. VALUE is \
            read as a literal of the query syntax when it is one (3, -1.5, YES, nil, \
            "quoted text", {1, 2}, CAST(721692800, "NSDate")) and as text otherwise, so \
            --var n=3 is the number 3 and --var 'n="3"' the text 3.

            Examples:
              outline find groceries.outline 'text CONTAINS[c] "milk"'
              outline find groceries.outline 'done == NO' --under 2
              outline find groceries.outline 'note != nil' --json
              outline find export.opml 'done == YES' --count
              outline find groceries.outline 'text BEGINSWITH[c] $prefix' --var prefix=bu
              outline find groceries.outline \\
                'SUBQUERY(children, $c, $c.done == NO).@count > 0'
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: "The predicate, such as 'text CONTAINS[c] \"milk\" AND done == NO'.")
    var query: String

    @Option(help: ArgumentHelp("Look only below this item: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String?

    @Flag(help: "Print the number of matches instead of the matches.")
    var count = false

    @OptionGroup var variables: QueryVariablesOption

    @OptionGroup var input: InputFormatOption

    @OptionGroup var output: JSONOption

    func validate() throws {
        _ = try variables.values(for: query)
    }

    func run() throws {
        let reading = try OutlineFile.openForReading(document.file, format: try input.format())
        for warning in reading.warnings { Console.warning(warning) }
        let file = reading.file
        let outline = file.document
        let start = try under.map(file.item(at:))
        let values = try variables.values(for: query)
        let matches = try QueryDiagnostic.showingColumn(of: query) {
            try file.attributing { try outline.matches(query, under: start, variables: values) }
        }
        if count {
            try Console.output(output.json ? "{\"count\": \(matches.count)}\n" : "\(matches.count)\n")
        } else {
            try Console.output(output.json ? outline.renderMatchesJSON(matches) : outline.renderMatchesText(matches))
        }
    }
}
