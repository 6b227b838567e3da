import ArgumentParser
import OutlineKit
import OutlineTool

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every object of a document of any model: entity, id, attributes, relationships.",
        discussion: """
            Prints the objects in id order, as stored (nothing is migrated): each object's \
            entity and id, then every stored attribute (nil when it has no value) and \
            relationship (the ids it points to). Works on documents of any app: a Core Data \
            XML store that comes without its model is read with a model derived from the file. \
            --json prints {"file", "model", "objects": [{"entity", "id", "attributes", \
            "relationships"}]}, one object per line.

            Examples:
              outline dump Vehicles.xml
              outline dump library.outline --json
              outline dump library.xml --model Library.xcdatamodeld
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var model: ModelOption
    @OptionGroup var output: JSONOption

    func run() throws {
        let dump = try DocumentDump.read(path: document.file, model: try model.bundle())
        for note in dump.notes { Console.note(note) }
        Console.output(output.json ? dump.renderJSON() : dump.renderText())
    }
}
