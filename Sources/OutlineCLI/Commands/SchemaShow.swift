import ArgumentParser
import OutlineKit
import OutlineTool

struct SchemaShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a model version's entities, attributes, relationships and version hashes.",
        discussion: """
            Version hashes are base64, as stores record them.

            Examples:
              outline schema show Schemas/Outline.xcdatamodeld
              outline schema show Schemas/Outline.xcdatamodeld --version "Outline 2"
              outline schema show Library.xcdatamodel/contents --json
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    // The issue names this option --version; it takes precedence over the parser's --version
    // flag here (its help lists both), and `outline --version` still prints the tool's version.
    @Option(help: ArgumentHelp("The version to show (default: the current version).", valueName: "name"))
    var version: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let bundle = ModelSelection.printingWarnings(try ModelSelection.bundle(at: model))
        let description = try SchemaDescription(model: bundle, versionName: version, file: model)
        Console.output(output.json ? description.renderJSON() : description.renderText())
    }
}
