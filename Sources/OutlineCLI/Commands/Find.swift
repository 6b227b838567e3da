import ArgumentParser
import OutlineKit
import OutlineTool

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the paths and texts of the items a predicate matches.",
        discussion: """
            QUERY is a predicate over items in Core Data's syntax, on the properties text, \
            note, done, collapsed, created and order. Matches are printed in document order; \
            none is not an error.

            Examples:
              outline find groceries.outline 'text CONTAINS[c] "milk"'
              outline find groceries.outline 'text CONTAINS[c] "milk" AND done == NO'
              outline find groceries.outline 'note != nil' --json
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: "The predicate, such as 'text CONTAINS[c] \"milk\" AND done == NO'.")
    var query: String

    @OptionGroup var output: JSONOption

    func run() throws {
        let file = try OutlineFile.open(document.file)
        let outline = file.document
        let matches = try file.attributing { try outline.matches(query) }
        Console.output(output.json ? outline.renderMatchesJSON(matches) : outline.renderMatchesText(matches))
    }
}
