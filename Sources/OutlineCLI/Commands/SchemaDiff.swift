import ArgumentParser
import OutlineKit
import OutlineTool

struct SchemaDiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the inferred mapping between two model versions, or every blocker.",
        discussion: """
            Shows what a lightweight migration from one version to the other does, entity by \
            entity and property by property. When the mapping cannot be inferred, every \
            blocker is listed and the exit status is 1.

            Examples:
              outline schema diff Schemas/Outline.xcdatamodeld --from Outline --to "Outline 2"
              outline schema diff Library.xcdatamodeld --from Library --to "Library 2" --json
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    @Option(help: ArgumentHelp("The version to migrate from.", valueName: "name"))
    var from: String

    @Option(help: ArgumentHelp("The version to migrate to.", valueName: "name"))
    var to: String

    @OptionGroup var output: JSONOption

    func run() throws {
        let bundle = try ModelSelection.bundle(at: model)
        let report = MigrationPlanReport(plan: try MigrationPlanReport.inferred(in: bundle, from: from, to: to, file: model))
        Console.output(output.json ? report.renderJSON() : report.renderText())
        if let failure = report.failure(file: model) { throw failure }
    }
}
