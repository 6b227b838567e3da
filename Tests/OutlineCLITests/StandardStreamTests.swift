import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// `-` for standard input or output wherever a file is read or written, through real pipes.
@Suite struct StandardStreamTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    static func sample(_ format: DocumentFormat) throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", format: format, items: [("Groceries", ["Milk"]), ("Work", [])])
        #expect(try box.run("tag", "doc.outline", "1.1", "dairy").status == 0)
        return box
    }

    /// A tool that ends without reading its standard input (here a batch whose `--script` file
    /// is missing) while the tests still feed it more than a pipe holds: the run gives the
    /// tool's failure, instead of the test process ending on SIGPIPE.
    @Test func aToolThatStopsReadingItsInputEarlyFailsCleanly() throws {
        let box = try Self.sample(.binary)
        let script = String(repeating: "# padding padding padding padding\n", count: 60_000)
        let result = try box.run(["batch", "doc.outline", "--script", "missing.txt"], standardInput: Data(script.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("missing.txt"), "\(result)")
    }

    @Test(arguments: formats)
    func readingCommandsReadADocumentFromAPipe(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        let bytes = try box.bytes("doc.outline")
        let shown = try box.run(["show", "-"], standardInput: bytes)
        #expect(shown.status == 0 && shown.stdout == "1 Groceries\n  1.1 Milk  @dairy\n2 Work\n", "\(shown)")
        let found = try box.run(["find", "-", "text == \"Milk\""], standardInput: bytes)
        #expect(found.stdout == "1.1 Milk  @dairy\n", "\(found)")
        let tags = try box.run(["tags", "-"], standardInput: bytes)
        #expect(tags.stdout == "dairy  1 item\n", "\(tags)")
        let info = try box.run(["info", "-", "--json"], standardInput: bytes)
        #expect(try info.jsonObject()["file"] as? String == "standard input", "\(info)")
        #expect(try info.jsonObject()["format"] as? String == format.rawValue)
        let valid = try box.run(["validate", "-"], standardInput: bytes)
        #expect(valid.stdout == "standard input: valid (\(format.rawValue), Outline 3, 5 objects)\n", "\(valid)")
        let dump = try box.run(["dump", "-"], standardInput: bytes)
        #expect(dump.status == 0 && dump.stdout.contains("  text: \"Milk\"\n"), "\(dump)")
        let plan = try box.run(["migrate", "-", "--dry-run"], standardInput: bytes)
        #expect(plan.status == 0 && plan.stdout.hasPrefix("Migration of standard input: Outline 3 -> Outline 3\n"), "\(plan)")
    }

    @Test(arguments: formats)
    func convertReadsAndWritesStandardStreams(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        let opml = try box.run("convert", "doc.outline", "-", "--to", "opml")
        #expect(opml.status == 0 && opml.stderr == "", "\(opml)")
        #expect(opml.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">"), "\(opml)")
        #expect(opml.stdout.contains(#" category="dairy"/>"#), "\(opml)")
        // OPML from a pipe back into a document of the other format keeps the tags.
        let back = try box.run(["convert", "-", "back.outline", "--to", format == .binary ? "xml" : "binary"], standardInput: Data(opml.stdout.utf8))
        #expect(back.status == 0, "\(back)")
        #expect(try box.run("show", "back.outline").stdout == "1 Groceries\n  1.1 Milk  @dairy\n2 Work\n")
        // A store through a pipe, to a store on standard output.
        let piped = try box.run(["convert", "-", "-", "--to", "xml"], standardInput: try box.bytes("doc.outline"))
        #expect(piped.status == 0 && piped.stdout.contains("<database>"), "\(piped)")
        let markdown = try box.run(["convert", "-", "-", "--to", "markdown"], standardInput: Data("- One\n  - Two\n".utf8))
        #expect(markdown.stdout == "- One\n  - Two\n", "\(markdown)")
        let noFormat = try box.run("convert", "doc.outline", "-")
        #expect(
            noFormat.status == 64
                && noFormat.stderr.hasPrefix(
                    "Error: standard output: standard output (-) has no file name extension "
                        + "to choose its format by. Pass --to binary|xml|opml|markdown|text."),
            "\(noFormat)")
    }

    @Test func addTakesItsTextFromStandardInput() throws {
        let box = try Self.sample(.binary)
        let long = String(repeating: "word ", count: 100_000)
        let added = try box.run(["add", "doc.outline", "--text-file", "-", "--under", "2"], standardInput: Data((long + "\n").utf8))
        #expect(added.status == 0 && added.stdout == "2.1\n", "\(added)")
        #expect(try box.run("show", "doc.outline", "--json").shownOutline().items[1].children[0].text == long)
    }

    @Test func aDocumentFromStandardInputCannotBeEditedInPlace() throws {
        let box = try Self.sample(.binary)
        let result = try box.run(["add", "-", "X"], standardInput: try box.bytes("doc.outline"))
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: - (standard input) cannot be edited in place; give the document's file name.\n"), "\(result)")
    }

    @Test func standardInputIsReadForOneThingOnly() throws {
        let box = try Self.sample(.binary)
        let result = try box.run(["batch", "doc.outline"], standardInput: Data("add --text-file -\n".utf8))
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: standard input: line 1 (add --text-file -): standard input: standard input was already read "
                + "for something else, so it cannot also be the text. Give the text as a file instead of -. Nothing was changed: the "
                + "document is as it was.\n", "\(result)")
    }
}
