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
              outline schema show Outline.xcdatamodeld
              outline schema show Outline.xcdatamodeld --model-version "Outline 2"
              outline schema show Library.xcdatamodel/contents --json
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    // Not --version: that is the tool's own flag, which every command keeps.
    @Option(name: .customLong("model-version"), help: ArgumentHelp("The version to show (default: the current version).", valueName: "name"))
    var version: String?

    @OptionGroup var output: JSONOption

    func run() throws {
        let bundle = ModelSelection.printingWarnings(try ModelSelection.bundle(at: model))
        let description = try SchemaDescription(model: bundle, versionName: version, file: model)
        try Console.output(output.json ? description.renderJSON() : description.renderText())
    }
}
