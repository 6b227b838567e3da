import ArgumentParser
import OutlineKit
import OutlineTool

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a document's file and object graph, listing every problem.",
        discussion: """
            Checks the file (format, checksums, references) by loading it, then the objects: \
            relationships that mirror their inverses, siblings numbered 0…n-1, a single root, \
            no cycles in parent chains, and required values and other rules of the model. \
            Exits with 0 when the document is valid, 1 with every problem listed otherwise. A \
            store of another app without its model is checked against a model derived from \
            it; when the document's model cannot be found at all, that is the error instead of \
            a verdict.

            Examples:
              outline validate groceries.outline
              outline validate library.xml --model Library.xcdatamodeld
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var model: ModelOption

    func run() throws {
        let report = try ValidationReport.check(path: document.file, model: try model.bundle())
        for note in report.notes { Console.note(note) }
        Console.output(report.renderText())
        if let failure = report.failure { throw failure }
    }
}
