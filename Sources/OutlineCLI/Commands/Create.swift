import ArgumentParser
import OutlineKit
import OutlineTool

struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new, empty outline document.",
        discussion: """
            The new document holds only the root item and uses the current schema version. \
            An existing file is never replaced unless --force is given.

            Examples:
              outline create groceries.outline
              outline create notes.outline --format xml
              outline create groceries.outline --force
            """)

    @Argument(help: "The document to create.", completion: .file(extensions: ["outline"]))
    var file: String

    @Option(help: "The file format.")
    var format: StoreFormatArgument = .binary

    @Flag(help: "Replace the file if it exists.")
    var force = false

    func run() throws {
        try OutlineFile.create(file, format: format.documentFormat, replacing: force, lockTimeout: LockWait.seconds)
    }
}
