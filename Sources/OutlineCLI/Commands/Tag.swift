import ArgumentParser
import OutlineKit
import OutlineTool

struct Tag: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add tags to an item.",
        discussion: """
            Each NAME is one tag (quote a name with spaces); a tag the item has already is \
            left as it is. Tags are shown by show and find, listed with counts by tags, and \
            written to OPML as the category attribute.

            Examples:
              outline tag groceries.outline 1.2 dairy
              outline tag groceries.outline 1 errands "this week"
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to tag: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @Argument(help: ArgumentHelp("The tags to add.", valueName: "name"))
    var names: [String] = []

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if names.isEmpty { throw ValidationError("Give at least one tag NAME after the PATH.") }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let item = try file.item(at: path)
        let added = try file.edit(at: path) { try file.document.addTags(names, to: [item]) }
        guard added > 0 else {
            return EditOutcome(
                notes: ["\(file.path): \(path) has \(names.count == 1 ? "this tag" : "these tags") already; nothing changed."],
                changed: false)
        }
        return EditOutcome()
    }
}

struct Untag: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove tags from an item.",
        discussion: """
            Removes each NAME from the item, or every tag with --all. A tag that no item has \
            any more is gone from the document.

            Examples:
              outline untag groceries.outline 1.2 dairy
              outline untag groceries.outline 1 --all
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @Argument(help: ArgumentHelp("The tags to remove.", valueName: "name"))
    var names: [String] = []

    @Flag(help: "Remove every tag of the item.")
    var all = false

    @OptionGroup var history: HistoryOption

    func validate() throws {
        if names.isEmpty && !all { throw ValidationError("Give the tag NAMEs to remove, or --all.") }
        if !names.isEmpty && all { throw ValidationError("Give tag NAMEs or --all, not both.") }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let item = try file.item(at: path)
        let removed = try file.edit(at: path) { try file.document.removeTags(all ? nil : names, from: [item]) }
        guard removed > 0 else {
            return EditOutcome(
                notes: ["\(file.path): \(path) has \(all ? "no tags" : names.count == 1 ? "no such tag" : "none of these tags"); nothing changed."],
                changed: false)
        }
        return EditOutcome()
    }
}

struct Tags: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the tags of a document with the number of items that have each.",
        discussion: """
            One line per tag, by name: the name, then how many items have it. --json prints \
            [{"name", "count"}]. Reads OPML, Markdown and text files too (OPML's category \
            attribute holds tags), and standard input (-).

            Examples:
              outline tags groceries.outline
              outline tags groceries.outline --json
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var input: InputFormatOption
    @OptionGroup var output: JSONOption

    func run() throws {
        let reading = try OutlineFile.openForReading(document.file, format: try input.format())
        for warning in reading.warnings { Console.warning(warning) }
        let outline = reading.file.document
        try Console.output(output.json ? outline.renderTagsJSON() : outline.renderTagsText())
    }
}
