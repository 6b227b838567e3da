import ArgumentParser
import OutlineEngine
import OutlineKit
import OutlineTool

struct SchemaDiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the inferred mapping between two model versions, or every blocker.",
        discussion: """
            Shows what a lightweight migration from one version to the other does, entity by \
            entity and property by property, then the risks: changes that fail only for some \
            data (an optional attribute made required without a default, ...), as Risk lines; \
            the exit status stays 0. When the mapping cannot be inferred, every blocker is \
            listed and the exit status is 1. The bundle need not name a current version.

            Examples:
              outline schema diff Outline.xcdatamodeld --from Outline --to "Outline 2"
              outline schema diff Library.xcdatamodeld --from Library --to "Library 2"
              outline schema diff Shop.xcdatamodeld --from Shop --to "Shop 2" --json
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.", completion: .file())
    var model: String

    @Option(help: ArgumentHelp("The version to migrate from.", valueName: "name"))
    var from: String

    @Option(help: ArgumentHelp("The version to migrate to.", valueName: "name"))
    var to: String

    @Flag(help: "Allow a to-many relationship to become to-one (a risk instead of a blocker).")
    var allowToOne = false

    @OptionGroup var output: JSONOption

    func run() throws {
        let bundle = ModelSelection.printingWarnings(try ModelSelection.bundle(at: model))
        let options = MigrationOptions(allowsToManyToToOne: allowToOne)
        let report = MigrationPlanReport(
            plan: try MigrationPlanReport.inferred(
                in: bundle, from: from, to: to, file: model,
                options: options))
        try Console.output(output.json ? report.renderJSON() : report.renderText())
        if let failure = report.failure(file: model) { throw failure }
    }
}
