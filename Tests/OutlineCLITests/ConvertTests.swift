import Foundation
import OutlineKit
import OutlineStorage
import OutlineTool
import Testing

/// `outline convert`: output format from --to or the extension, input format from the content,
/// older documents migrated on the way, compression levels.
@Suite struct ConvertTests {
    static let tree = [ShownItem("Groceries", [ShownItem("Milk"), ShownItem("Bread")]), ShownItem("Work")]

    /// The root item's text (the Core Data example app's root has one) is the title of OPML and
    /// Markdown; plain text, which has no title, says it is left out.
    @Test func theRootItemsTextIsTheTitleOrAWarning() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/small-outline.outline", as: "small.outline")
        let opml = try box.run("convert", "small.outline", "-", "--to", "opml")
        #expect(opml.status == 0 && opml.stdout.contains("<title>Groceries &amp; more</title>"), "\(opml)")
        let markdown = try box.run("convert", "small.outline", "-", "--to", "markdown")
        #expect(markdown.stdout.hasPrefix("---\ntitle: \"Groceries & more\"\n---\n"), "\(markdown)")
        let text = try box.run("convert", "small.outline", "small.txt")
        #expect(
            text.stderr.contains(
                "Warning: small.txt: the root item's text “Groceries & more” was not written: plain text has no title. "
                    + "Export Markdown or OPML to keep it.\n"), "\(text)")
    }

    @Test(arguments: [0, 1, 9])
    func binaryOutputTakesTheLevel(level: Int) throws {
        let box = try CLISandbox()
        try box.writeDocument("in.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        let result = try box.run("convert", "in.outline", "out.outline", "--level", String(level))
        #expect(result.status == 0 && result.stdout == "" && result.stderr == "", "\(result)")
        let info = try box.run("info", "out.outline", "--json").jsonObject()
        #expect(info["format"] as? String == "binary")
        #expect(info["compressionLevel"] as? Int == level)
        #expect(try box.run("show", "out.outline", "--json").shownOutline().items == Self.tree)
    }

    @Test(arguments: ["Outline", "Outline 2"])
    func olderDocumentsAreMigratedOnTheWay(version: String) throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: version, items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        let before = try box.bytes("old.outline")
        let result = try box.run("convert", "old.outline", "new.outline")
        #expect(result.status == 0 && result.stdout == "", "\(result)")
        #expect(result.stderr == "Note: old.outline: migrated from \(version) to Outline 3 on the way; old.outline is unchanged.\n")
        #expect(try box.bytes("old.outline") == before)
        #expect(!box.exists("old.outline.bak"))
        let info = try box.run("info", "new.outline", "--json").jsonObject()
        #expect(info["schemaVersion"] as? String == "Outline 3")
        #expect(try box.run("show", "new.outline", "--json").shownOutline().items == Self.tree)
    }

    @Test func documentsOfAnyModelConvertWithTheirModel() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 3", notes: [("Plan", 3)])
        let result = try box.run("convert", "notes.outline", "copy.outline", "--model", CLISandbox.notebookModel, "--level", "9")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let info = try box.run("info", "copy.outline", "--model", CLISandbox.notebookModel, "--json").jsonObject()
        #expect(info["schemaVersion"] as? String == "Notebook 3")
        #expect(info["objectCounts"] as? [String: Int] == ["Note": 1])
        #expect(info["compressionLevel"] as? Int == 9)
    }

    @Test func anOlderDocumentWhoseMigrationIsBlockedIsNotConverted() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 2", notes: [("Plan", 3)])
        let result = try box.run("convert", "notes.outline", "copy.outline", "--model", CLISandbox.notebookModel)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: notes.outline: Notebook 2 -> Notebook 3: no migration can be inferred"), "\(result)")
        #expect(!box.exists("copy.outline"))
    }

    @Test func aFailedConversionWritesNothing() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/truncated-body.outline", as: "bad.outline")
        let result = try box.run("convert", "bad.outline", "out.outline")
        #expect(result.status == 1)
        #expect(!box.exists("out.outline"))
        let folder = try FileManager.default.contentsOfDirectory(atPath: box.folder.path)
        #expect(folder.filter { !$0.hasPrefix(".std") }.sorted() == ["bad.outline"])
    }

    @Test func theFormatSwitchKnowsEveryFormatOnce() throws {
        let names = ConversionFormat.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names == ["binary", "xml", "opml", "markdown", "text"])
        #expect(ConversionFormat(named: "BINARY") == .binary)
        #expect(try ConversionFormat.forOutput("a/b.outline", requested: nil) == ConversionFormat.binary)
        #expect(try ConversionFormat.forOutput("b.outline", requested: .xml) == ConversionFormat.xml)
        #expect(try ConversionFormat.forOutput("b.XML", requested: nil) == ConversionFormat.xml)
        #expect(try ConversionFormat.forOutput("b.opml", requested: nil) == ConversionFormat.opml)
        #expect(try ConversionFormat.forOutput("b.md", requested: nil) == ConversionFormat.markdown)
        #expect(try ConversionFormat.forOutput("b.txt", requested: nil) == ConversionFormat.text)
    }

    @Test(arguments: [("binary", "xml"), ("xml", "binary"), ("xml", "xml"), ("binary", "binary")])
    func storeFormatsConvertBothWays(from: String, to: String) throws {
        let box = try CLISandbox()
        try box.writeDocument(
            "in.outline", version: "Outline 3", format: from == "xml" ? .xml : .binary,
            items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        let result = try box.run("convert", "in.outline", "out.outline", "--to", to)
        #expect(result.status == 0 && result.stdout == "" && result.stderr == "", "\(result)")
        #expect(try box.run("info", "out.outline", "--json").jsonObject()["format"] as? String == to)
        #expect(try box.run("show", "out.outline", "--json").shownOutline().items == Self.tree)
        let byExtension = try box.run("convert", "out.outline", "copy.xml")
        #expect(byExtension.status == 0, "\(byExtension)")
        #expect(try box.run("info", "copy.xml", "--json").jsonObject()["format"] as? String == "xml")
    }

    /// The committed v1 and v2 documents (`Fixtures/Documents`) in both formats, migrated on the way.
    @Test(arguments: ["outline-v1.outline", "outline-v1.xml", "outline-v2.outline", "outline-v2.xml"])
    func committedOlderDocumentsConvertToTheExpectedTree(fixture: String) throws {
        let box = try CLISandbox()
        try box.copyFixture("Documents/\(fixture)", as: fixture)
        let expectedName = fixture.split(separator: ".")[0] + ".expected.json"
        let expected = try JSONDecoder().decode(
            ShownOutline.self, from: try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Fixtures/Documents/\(expectedName)")))
        for target in ["new.outline", "new.xml"] {
            let result = try box.run("convert", fixture, target)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.hasPrefix("Note: \(fixture): migrated from "))
            #expect(try box.run("show", target, "--json").shownOutline() == expected)
        }
    }

    @Test func interchangeFormatsRoundTrip() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/OmniOutliner.opml", as: "trip.opml")
        let imported = try box.run("convert", "trip.opml", "trip.outline")
        #expect(imported.status == 0 && imported.stderr == "", "\(imported)")
        let tree = try box.run("show", "trip.outline", "--json").shownOutline()
        #expect(tree.items.map(\.text) == ["Packing", "Bookings", "Ideas"])
        #expect(tree.items[0].children[0] == ShownItem("Passport", note: "In the desk drawer.\nCheck the expiry date.", done: true))

        let opml = try box.run("convert", "trip.outline", "again.opml")
        #expect(opml.status == 0 && opml.stderr == "", "\(opml)")
        let text = String(decoding: try box.bytes("again.opml"), as: UTF8.self)
        #expect(text.contains("<title>Trip to Lisbon</title>"), "the OPML head is kept in the document")
        #expect(text.contains("<outline text=\"Passport\" _status=\"checked\""))

        let markdown = try box.run("convert", "trip.outline", "trip.md")
        #expect(markdown.status == 0)
        #expect(markdown.stderr == "", "OPML attributes are written as Markdown properties")
        #expect(
            String(decoding: try box.bytes("trip.md"), as: UTF8.self)
                .hasPrefix("---\ntitle: \"Trip to Lisbon\"\n---\n\n- [ ] Packing\n  Priority:: High\n  - [x] Passport\n"))
        let back = try box.run("convert", "trip.md", "back.outline")
        #expect(back.status == 0, "\(back)")
        #expect(try box.run("show", "back.outline", "--json").shownOutline().items.map(\.text) == ["Packing", "Bookings", "Ideas"])

        let plain = try box.run("convert", "trip.outline", "trip.txt")
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("Warning: trip.txt: 2 notes were dropped (first: item 1.1): plain text has no notes."))
        #expect(
            String(decoding: try box.bytes("trip.txt"), as: UTF8.self)
                == "Packing\n\tPassport\n\tAdapters\nBookings\n\tFlights\n\tHotel\nIdeas\n\tTram 28\n")
        let fromText = try box.run("convert", "trip.txt", "text.outline")
        #expect(fromText.status == 0, "\(fromText)")
        #expect(try box.run("show", "text.outline").stdout.hasPrefix("1 Packing\n  1.1 Passport\n"))
    }

    @Test func inputFormatIsFoundFromTheContent() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/OmniOutliner.opml", as: "trip.data")
        let opml = try box.run("convert", "trip.data", "a.outline")
        #expect(opml.status == 0, "\(opml)")
        try box.writeDocument("doc.bin", version: "Outline 3", format: .xml, items: [("One", [])])
        let xml = try box.run("convert", "doc.bin", "b.outline")
        #expect(xml.status == 0, "\(xml)")
        try Data("- One\n  - Two\n".utf8).write(to: URL(fileURLWithPath: box.path("list")))
        let markdown = try box.run("convert", "list", "c.outline")
        #expect(markdown.status == 0, "\(markdown)")
        #expect(try box.run("show", "c.outline").stdout == "1 One\n  1.1 Two\n")
    }

    @Test func aDamagedInterchangeFileIsAnError() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/NotWellFormed.opml", as: "bad.opml")
        let result = try box.run("convert", "bad.opml", "out.outline")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: bad.opml: line 8: not well-formed XML"), "\(result)")
        #expect(!box.exists("out.outline"))
    }

    @Test func aDocumentOfAnotherModelIsNotWrittenAsAnOutline() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 3", notes: [("Plan", 3)])
        let result = try box.run("convert", "notes.outline", "notes.opml", "--model", CLISandbox.notebookModel)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: notes.outline: Notebook 3: the document is not an outline"), "\(result)")
        #expect(!box.exists("notes.opml"))
    }
}

/// `--strict` for interchange input and `--flavor` for OPML output.
@Suite struct ConvertInterchangeOptionTests {
    @Test func strictTurnsImportWarningsIntoAFailure() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/Oddities.opml", as: "odd.opml")
        let lenient = try box.run("convert", "odd.opml", "odd.outline")
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.stderr.contains("odd.opml: line "), "warnings name the line: \(lenient)")
        let strict = try box.run("convert", "odd.opml", "strict.outline", "--strict")
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.stderr.hasPrefix("Error: odd.opml: line "), "\(strict)")
        #expect(!box.exists("strict.outline"))
    }

    @Test(arguments: [("omni", "_status=\"checked\""), ("workflowy", "_complete=\"true\""), ("dynalist", "complete=\"true\"")])
    func flavorChoosesHowDoneStateIsWritten(flavor: String, attribute: String) throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "todo.outline").status == 0)
        #expect(try box.run("add", "todo.outline", "Milk", "--done").status == 0)
        let result = try box.run("convert", "todo.outline", "todo.opml", "--flavor", flavor)
        #expect(result.status == 0, "\(result)")
        let opml = String(decoding: try box.bytes("todo.opml"), as: UTF8.self)
        #expect(opml.contains(" \(attribute)"), "\(opml)")
    }

    @Test func anUnknownFlavorIsBadUsage() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "todo.outline").status == 0)
        let result = try box.run("convert", "todo.outline", "todo.opml", "--flavor", "logseq")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--flavor logseq is not a flavor; use one of omni, workflowy, dynalist."), "\(result)")
    }
}
