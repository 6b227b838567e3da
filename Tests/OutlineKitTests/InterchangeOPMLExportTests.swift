import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct InterchangeOPMLExportTests {
    /// The outlines of a file as the exporter writes them back: `text` first where it was missing.
    private func expectedOutlines(_ file: OPMLFile) -> [String] {
        file.outlines.map { outline in
            var outline = outline
            if outline["text"] == nil { outline.attributes.insert(OPMLAttribute("text", outline["title"] ?? ""), at: 0) }
            return outline.summary
        }
    }

    private func fields(_ head: OPMLHead, except skipped: String? = nil) -> [[String]] {
        head.fields.filter { $0.name != skipped }.map { [$0.name, $0.value] + $0.attributes.map(\.description) }
    }

    @Test(arguments: InterchangeFixtures.readableOPML)
    func roundTripKeepsElementsAttributesAndOrder(fixture: String) throws {
        let data = try InterchangeFixtures.opml(fixture)
        let imported = try OPMLImporter.read(data, file: fixture)
        let exported = try OPMLExporter.write(imported.document, head: imported.head)
        #expect(exported.warnings.isEmpty)

        let original = try OPMLReader.read(data, file: fixture)
        let written = try OPMLReader.read(exported.data, file: "exported.opml", options: .init(strict: true))
        #expect(written.head.version == "2.0")
        #expect(written.head.attributes == original.head.attributes)
        // expansionState is rewritten 1-based from the items' state; the next test compares it.
        #expect(fields(written.head, except: "expansionState") == fields(original.head, except: "expansionState"))
        #expect(written.head.fields.map(\.name) == original.head.fields.map(\.name))
        #expect(written.outlines.map(\.summary) == expectedOutlines(original))
    }

    @Test(arguments: InterchangeFixtures.readableOPML)
    func roundTripKeepsEveryItemProperty(fixture: String) throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml(fixture), file: fixture)
        let exported = try OPMLExporter.write(imported.document, head: imported.head)
        let again = try OPMLImporter.read(exported.data, file: "exported.opml")
        #expect(again.document.fullSummary == imported.document.fullSummary)
        // Values kept as they were are warned about again; nothing new is.
        #expect(Set(again.warnings.map(\.message)).isSubset(of: imported.warnings.map(\.message)))
        // A second export writes the very same bytes.
        #expect(try OPMLExporter.write(again.document, head: again.head).data == exported.data)
    }

    /// A Markdown property named as OPML names an item's note, done state or a namespace is
    /// not written as that attribute (it would read back as something else), with a warning.
    @Test func propertiesNamedAsOPMLsOwnAttributesAreLeftOutWithAWarning() throws {
        let markdown = "- item\n  _note:: five\n  _status:: checked\n  xmlns:: seven\n  owner:: ann\n\n  real note\n"
        let imported = try Interchange.read(Data(markdown.utf8), format: .markdown, file: "p.md")
        let exported = try OPMLExporter.write(imported.document, file: "p.opml")
        let text = String(decoding: exported.data, as: UTF8.self)
        #expect(text.contains("<outline text=\"item\" owner=\"ann\" _note=\"real note\"/>"), "\(text)")
        #expect(
            exported.warnings.map(\.description) == [
                "p.opml: 3 kept attributes were not written (_note, _status, xmlns): OPML gives their names another meaning. "
                    + "Rename the property in the Markdown file to keep it."
            ])
        let reread = try OPMLImporter.read(exported.data, file: "p.opml")
        let item = reread.document.children(of: reread.document.root)[0]
        #expect(reread.document.note(of: item) == "real note" && !reread.document.isDone(item))
    }

    /// What the writer writes the reader reads: an element that would not fit libxml2's
    /// lookahead is refused, naming the item, instead of a file that cannot be read back.
    @Test func anItemTooLargeForOneElementIsRefusedAndOneThatFitsReadsBack() throws {
        let document = try SampleOutlines.emptyDocument()
        _ = try document.insertItem("first")
        let fits = try document.insertItem(String(repeating: "a", count: 6_000_000))
        try document.setNote(String(repeating: "n", count: 3_900_000), of: fits)
        let written = try OPMLExporter.write(document, file: "big.opml")
        let read = try OPMLImporter.read(written.data, file: "big.opml")
        #expect(read.document.note(of: read.document.children(of: read.document.root)[1])?.count == 3_900_000)
        try document.setNote(String(repeating: "n", count: 4_100_000), of: fits)
        let error = #expect(throws: OutlineError.self) { try OPMLExporter.write(document, file: "big.opml") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.location == "2", "\(String(describing: error))")
    }

    @Test func expansionStateIsWrittenBackOneBased() throws {
        for (fixture, expected) in [
            ("OPMLEditor.opml", "1,2,6"), ("ExpansionStateZeroBased.opml", "1,4"), ("OneLine.opml", "2"),
            ("OmniOutliner.opml", "1,4"),
        ] {
            let imported = try OPMLImporter.read(try InterchangeFixtures.opml(fixture), file: fixture)
            let written = try OPMLReader.read(try OPMLExporter.write(imported.document, head: imported.head).data, file: "x.opml")
            #expect(written.head[field: "expansionState"] == expected, "\(fixture)")
        }
    }

    @Test func exportIsStrictOPML() throws {
        let document = try SampleOutlines.emptyDocument()
        let parent = try document.insertItem("Plan \"A\" & <B>", note: "line 1\nline 2\tindented\r\nline 3")
        let child = try document.insertItem("", under: parent)
        try document.context.setValue(.date(Date(timeIntervalSince1970: 1_700_000_000.75)), forKey: "created", of: parent)
        try document.context.setValue(nil, forKey: "created", of: child)
        let exported = try OPMLExporter.write(document, head: OPMLHead(fields: [OPMLHeadField("title", "Plans")]))
        #expect(
            exported.data.utf8Text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0">
                \t<head>
                \t\t<title>Plans</title>
                \t</head>
                \t<body>
                \t\t<outline text="Plan &quot;A&quot; &amp; &lt;B&gt;" _note="line 1&#10;line 2&#9;indented&#13;&#10;line 3" created="Tue, 14 Nov 2023 22:13:20 GMT">
                \t\t\t<outline text=""/>
                \t\t</outline>
                \t</body>
                </opml>

                """)
    }

    @Test(arguments: [
        (OPMLFlavor?.none, #"<outline text="Done" _status="checked"/>"#, #"<outline text="Open"/>"#),
        (.omni, #"<outline text="Done" _status="checked"/>"#, #"<outline text="Open"/>"#),
        (.workflowy, #"<outline text="Done" _complete="true"/>"#, #"<outline text="Open"/>"#),
        (.dynalist, #"<outline text="Done" complete="true"/>"#, #"<outline text="Open"/>"#),
    ])
    func flavorDecidesHowDoneIsWritten(flavor: OPMLFlavor?, done: String, open: String) throws {
        let document = try SampleOutlines.emptyDocument()
        for item in [try document.insertItem("Done", done: true), try document.insertItem("Open")] {
            try document.context.setValue(nil, forKey: "created", of: item)
        }
        let text = try OPMLExporter.write(document, options: OPMLExportOptions(flavor: flavor)).data.utf8Text
        #expect(text.contains("\t\t\(done)\n"))
        #expect(text.contains("\t\t\(open)\n"))
    }

    @Test func flavorReplacesTheDoneAttributeInItsPlace() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("Workflowy.opml"), file: "Workflowy.opml")
        let omni = try OPMLExporter.write(imported.document, head: imported.head, options: OPMLExportOptions(flavor: .omni)).data.utf8Text
        #expect(omni.contains(#"<outline _status="checked" text="Empty the inbox"/>"#))
        let dynalist = try OPMLImporter.read(try InterchangeFixtures.opml("Dynalist.opml"), file: "Dynalist.opml")
        let workflowy = try OPMLExporter.write(dynalist.document, head: dynalist.head, options: OPMLExportOptions(flavor: .workflowy)).data.utf8Text
        #expect(workflowy.contains(#"<outline text="The Mythical Man-Month" checkbox="true" _complete="true" colorLabel="2"/>"#))
        #expect(workflowy.contains(#"<outline text="Out of the Tar Pit" checkbox="true" _complete="false"/>"#))
    }

    @Test func flavorWinsOverAKeptAttributeOfTheSameName() throws {
        // "Two done attributes" keeps complete="false" as an attribute; the dynalist flavour writes complete itself.
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("Values.opml"), file: "Values.opml")
        let text = try OPMLExporter.write(imported.document, head: imported.head, options: OPMLExportOptions(flavor: .dynalist)).data.utf8Text
        #expect(text.contains(#"<outline text="Two done attributes" complete="true"/>"#))
    }

    @Test func expansionStateIsDerivedFromCollapsedItems() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("A")
        let b = try document.insertItem("B", under: a)
        try document.insertItem("B.1", under: b)
        let c = try document.insertItem("C")
        try document.insertItem("C.1", under: c)
        for item in document.items { try document.context.setValue(nil, forKey: "created", of: item) }
        try document.setCollapsed(true, of: a)

        let exported = try OPMLExporter.write(document)
        #expect(exported.data.utf8Text.contains("\t<head>\n\t\t<expansionState>2</expansionState>\n\t</head>\n"))
        // B is hidden under A and expanded, which the list cannot say.
        #expect(exported.data.utf8Text.contains(#"<outline text="B" collapsed="false">"#))
        let again = try OPMLImporter.read(exported.data, file: "x.opml")
        #expect(again.document.summary == ["A [+]", "  B", "    B.1", "C", "  C.1"])
    }

    @Test func noExpansionStateWhenNothingIsCollapsed() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("B.1", under: try document.insertItem("B"))
        #expect(try !OPMLExporter.write(document).data.utf8Text.contains("expansionState"))
        #expect(
            try OPMLExporter.write(document, head: OPMLHead(fields: [OPMLHeadField("expansionState", "7")])).data.utf8Text
                .contains("<expansionState>1</expansionState>"))
    }

    @Test func noExpansionStateWhenCollapsedAttributesSayItAll() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("Dynalist.opml"), file: "Dynalist.opml")
        #expect(try !OPMLExporter.write(imported.document, head: imported.head).data.utf8Text.contains("expansionState"))
    }

    @Test func changedValuesAreWrittenCanonicallyInTheirPlace() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("Values.opml"), file: "Values.opml")
        let document = imported.document
        let item = document.items[0]
        try document.setCollapsed(false, of: item)
        try document.context.setValue(.date(Date(timeIntervalSince1970: 0)), forKey: "created", of: item)
        try document.setNote("added", of: item)
        let text = try OPMLExporter.write(document, head: imported.head).data.utf8Text
        #expect(text.contains(#"<outline text="Local time" created="Thu, 01 Jan 1970 00:00:00 GMT" collapsed="false" _note="added">"#))
    }

    @Test func damagedStoredAttributesAreLeftOutWithAWarning() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("FeedList.opml"), file: "FeedList.opml")
        let document = imported.document
        try document.context.setValue(.binary(Data([0x01, 0x07])), forKey: "extraAttributes", of: document.items[1])
        let exported = try OPMLExporter.write(document, head: imported.head, file: "out.opml")
        #expect(exported.data.utf8Text.contains("\t\t\t<outline text=\"Daring Fireball\"/>\n"))
        #expect(
            exported.warnings.map(\.description) == [
                "out.opml: 1 item's stored OPML attributes could not be decoded and were left out (first: item 1.1: extraAttributes byte 1: "
                    + "unknown entry tag 7. The stored OPML attributes of this item are damaged; clear them (they are only used to write "
                    + "OPML back) or restore the document from a backup.)."
            ])
    }

    @Test func charactersXMLCannotHoldAreReplacedWithAWarning() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("bell\u{07}")
        let exported = try OPMLExporter.write(document, file: "out.opml")
        #expect(
            exported.warnings.map(\.description) == [
                "out.opml: 1 character that XML cannot hold (control characters) written as U+FFFD."
            ])
    }
}
