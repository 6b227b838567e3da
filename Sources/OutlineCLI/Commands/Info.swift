import ArgumentParser
import OutlineKit
import OutlineTool

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a document's format, schema version, object counts and sizes.",
        discussion: """
            Shows the format, the schema version and whether migrating is needed, the objects \
            per entity, file and uncompressed sizes, compression level, UUID and whether the \
            document embeds its model. Binary documents are read from their header only. A \
            Core Data XML store of another app that comes without its model is described with a \
            model derived from the file (noted once).

            Examples:
              outline info groceries.outline
              outline info groceries.outline --json
              outline info library.sqlite.xml --model Library.xcdatamodeld
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var model: ModelOption
    @OptionGroup var output: JSONOption

    func run() throws {
        let info = try DocumentInfo.gather(path: document.file, model: try model.bundle())
        for note in info.notes { Console.note(note) }
        Console.output(output.json ? info.renderJSON() : info.renderText())
    }
}
