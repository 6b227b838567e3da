import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// How Markdown's blocks map to items, notes, properties and the head, and how the headings
/// style lays them out.
@Suite struct InterchangeMarkdownStructureTests {
    private func read(_ text: String, strict: Bool = true) throws -> ImportedOutline {
        try MarkdownImporter.read(Data(text.utf8), file: "test.md", options: ImportOptions(strict: strict))
    }

    private func fixture(_ name: String) throws -> ImportedOutline {
        try MarkdownImporter.read(try InterchangeFixtures.markdown(name), file: name)
    }

    @Test func headingsAreItemsAtTheirLevelAndEverythingUnderThemBelongsToThem() throws {
        let imported = try read("# A\n\nNote of A.\n\n- a1\n  - a11\n\n## B\n\n1. b1\n\nMore of B.\n\n# C\n")
        #expect(
            imported.document.summary == [
                "A note=\"Note of A.\"", "  a1", "    a11", "  B note=\"More of B.\"", "    b1", "C",
            ])
    }

    @Test func aSkippedLevelNestsOneDeeperThanTheHeadingAbove() throws {
        let imported = try read("## Starts at two\n#### Four\n### Three\n# One\n### Three under one\n")
        #expect(imported.document.summary == ["Starts at two", "  Four", "  Three", "One", "  Three under one"])
    }

    @Test func setextHeadingsTakeTheParagraphAboveTheirUnderline() throws {
        let imported = try read("Intro.\n\nFirst line\nsecond line\n===\n\nText\n\nSub\n---\n\n---\n\nAfter a rule.\n")
        #expect(imported.document.summary == ["First line\nsecond line note=\"Text\"", "  Sub note=\"---\\n\\nAfter a rule.\""])
        #expect(imported.head[field: MarkdownDocumentHead.preambleField] == "Intro.")
    }

    @Test func closingHashesAndEscapesOfATXHeadings() throws {
        let imported = try read("# Title #\n## C# ##\n## ends with \\#\n### #\n")
        #expect(imported.document.summary == ["Title", "  C#", "  ends with #", "    "])
        let text = MarkdownExporter.write(imported.document, options: MarkdownExportOptions(style: .headings, headingLevels: 6)).data.utf8Text
        #expect(text == "# Title\n\n## C#\n\n## ends with \\#\n\n###\n")
        #expect(try read(text).document.summary == imported.document.summary)
    }

    @Test func frontMatterAndPreambleAreKeptInTheHead() throws {
        let readme = try fixture("ReadmeWithHTML.md")
        #expect(
            readme.head[field: MarkdownDocumentHead.preambleField] == """
                <!-- HEADER -->
                <p align="center">
                  <a href="https://example.org/lantern">
                    <img src="docs/lantern.png" alt="Lantern logo" width="96">
                  </a>

                  <h3 align="center">Lantern</h3>
                </p>

                [![Tests][tests-badge]][tests-url]
                [![License: MIT][license-badge]](LICENSE)
                """)
        let note = try fixture("FrontMatter.md")
        #expect(note.head.title == "Reading list: 2024")
        #expect(
            note.head[field: MarkdownDocumentHead.frontMatterField] == "---\ntitle: \"Reading list: 2024\"\ntags:\n  - books\n  - \"to read\"\n---")
        let written = MarkdownExporter.write(note.document, head: note.head).data.utf8Text
        #expect(written.hasPrefix("---\ntitle: \"Reading list: 2024\"\ntags:\n  - books\n  - \"to read\"\n---\n\n- Reading list\n"))
    }

    @Test(arguments: [
        ("plain", "plain"), ("\"double \\\"quoted\\\" \\u00E9\"", "double \"quoted\" é"), ("'single ''quoted'''", "single 'quoted'"),
        ("plain # with a comment", "plain"), ("|", nil), ("", nil),
    ])
    func frontMatterTitles(yaml: String, title: String?) throws {
        let imported = try read("---\ntitle: \(yaml)\n---\n\n# Item\n")
        #expect(imported.head.title == title)
    }

    @Test func aTitleWithoutFrontMatterIsWrittenAsFrontMatterAndReadBack() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("Item")
        var head = OPMLHead()
        head.title = "Quotes \" and \\ backslashes\nand lines"
        let written = MarkdownExporter.write(document, head: head).data.utf8Text
        #expect(written == "---\ntitle: \"Quotes \\\" and \\\\ backslashes\\nand lines\"\n---\n\n- Item\n")
        #expect(try read(written).head.title == head.title)
    }

    @Test func logseqMarkersPropertiesAndCollapsedStateAreKept() throws {
        let imported = try fixture("LogseqPage.md")
        let document = imported.document
        let items = document.items
        #expect(
            try document.extraAttributes(of: items[1])?.entries == [
                .mapped(name: "text", spelling: nil), .mapped(name: "_status", spelling: "TODO"),
                .kept(name: "id", value: "65f1c2a0-7b3e-4c1d-9a2b-0c4d5e6f7a8b"),
            ])
        #expect(document.isDone(items[2]))
        #expect(
            try document.extraAttributes(of: items[3])?.entries == [.mapped(name: "text", spelling: nil), .mapped(name: "collapsed", spelling: nil)])
        #expect(document.isCollapsed(items[3]))
        #expect(imported.head[field: MarkdownDocumentHead.preambleField] == "title:: Garden plans\ntags:: garden, spring")
        // Written back as Logseq writes it: markers, properties right after the first line.
        let text = MarkdownExporter.write(document, head: imported.head).data.utf8Text
        #expect(
            text.contains("  - TODO Tomatoes\n    id:: 65f1c2a0-7b3e-4c1d-9a2b-0c4d5e6f7a8b\n  - DONE Basil\n    SCHEDULED: <2024-03-02 Sat>\n"),
            "\(text)")
        #expect(text.contains("  - Chili peppers\n    collapsed:: true\n    - Ask the neighbour for cuttings\n"), "\(text)")
        #expect(text.contains("  - ```text\n    |  path  |\n    | beds   |\n    ```\n"), "\(text)")
    }

    @Test func propertiesOfHeadingsFollowTheHeadingLine() throws {
        let imported = try read("# Project\nstatus:: active\nowner:: Sam\n\nText.\n")
        let item = try #require(imported.document.items.first)
        #expect(try imported.document.extraAttributes(of: item)?.kept == [OPMLAttribute("status", "active"), OPMLAttribute("owner", "Sam")])
        #expect(imported.document.note(of: item) == "Text.")
    }

    @Test func propertyValuesThatSpellNoStateAreKeptWithAWarning() throws {
        let imported = try read("- a\n  collapsed:: maybe\n  created:: yesterday\n", strict: false)
        #expect(
            imported.warnings.map(\.description) == [
                "test.md: line 2: collapsed:: maybe is neither true nor false; kept as it is.",
                "test.md: line 3: created:: yesterday is not an RFC 822 date; kept as it is. Dates look like \"Sat, 09 Apr 2007 14:57:36 GMT\".",
            ])
        let item = try #require(imported.document.items.first)
        #expect(
            try imported.document.extraAttributes(of: item)?.kept == [OPMLAttribute("collapsed", "maybe"), OPMLAttribute("created", "yesterday")])
        let dated = try read("- a\n  created:: Tue, 12 Mar 2024 14:03:00 GMT\n")
        #expect(dated.document.created(of: try #require(dated.document.items.first)) == RFC822Date.parse("Tue, 12 Mar 2024 14:03:00 GMT"))
        // Written back as the date, not as a Swift optional.
        let written = MarkdownExporter.write(dated.document, head: dated.head).data.utf8Text
        #expect(written.contains("  created:: Tue, 12 Mar 2024 14:03:00 GMT\n"), "\(written)")
    }

    @Test func listsNestAsCommonMarkNestsThem() throws {
        // A sublist needs the parent's content column; one space less is a sibling.
        #expect(try read("- foo\n - bar\n  - baz\n   - boo\n", strict: false).document.summary == ["foo", "bar", "baz", "boo"])
        #expect(try read("10) foo\n    - bar\n").document.summary == ["foo", "  bar"])
        #expect(try read("- a\n\n      code, not an item\n").document.summary == ["a note=\"    code, not an item\""])
    }

    @Test func onlyBulletsAndOneCanStartAListInsideAParagraph() throws {
        #expect(
            try read("- The number of windows is\n  14. The doors are 6.\n").document.summary == ["The number of windows is\n14. The doors are 6."])
        #expect(try read("- a\n  1. b\n").document.summary == ["a", "  b"])
        #expect(try read("# H\n\nI was born in\n1986. Then I moved.\n").document.summary == ["H note=\"I was born in\\n1986. Then I moved.\""])
    }

    @Test func lazyContinuationLinesBelongToTheParagraphTheyContinue() throws {
        #expect(try read("- a\nlazy\n- b\n\n  note\nlazy too\n").document.summary == ["a\nlazy", "b note=\"note\\nlazy too\""])
        #expect(try read("> quote\nlazy\n\n- after\n").head[field: MarkdownDocumentHead.preambleField] == "> quote\nlazy")
    }

    @Test func codeAndHTMLBlocksHoldLinesThatLookLikeStructure() throws {
        let imported = try read("# H\n\n```\n# not a heading\n- not an item\n```\n\n<div>\n- not an item\n</div>\n\n- item\n")
        #expect(
            imported.document.summary == ["H note=\"```\\n# not a heading\\n- not an item\\n```\\n\\n<div>\\n- not an item\\n</div>\"", "  item"])
        // An unclosed fence runs to the end of its item.
        let unclosed = try read("- a\n\n  ```\n  - code\n- b\n")
        #expect(unclosed.document.summary == ["a note=\"```\\n- code\"", "b"])
        let written = MarkdownExporter.write(unclosed.document).data.utf8Text
        #expect(written == "- a\n\n  \\```\n  \\- code\n\n- b\n")
    }

    @Test func headingsStyleWritesTheTopLevelsAsHeadingsAndTheRestAsLists() throws {
        let document = try SampleOutlines.emptyDocument()
        let book = try document.insertItem("Book", note: "About the book.")
        let part = try document.insertItem("Part", under: book)
        let chapter = try document.insertItem("Chapter", under: part, done: true)
        try document.insertItem("Scene", under: chapter)
        try document.insertItem("Two\nlines", under: book)
        let text = MarkdownExporter.write(document, options: MarkdownExportOptions(style: .headings, headingLevels: 2)).data.utf8Text
        #expect(text == "# Book\n\nAbout the book.\n\n## Part\n\n- [x] Chapter\n  - Scene\n\nTwo\nlines\n---\n")
        let three = MarkdownExporter.write(document, options: MarkdownExportOptions(style: .headings, headingLevels: 3)).data.utf8Text
        #expect(three == "# Book\n\nAbout the book.\n\n## Part\n\n### [x] Chapter\n\n- Scene\n\nTwo\nlines\n---\n")
        for written in [text, three] {
            #expect(try read(written).document.summary == document.summary)
        }
    }

    @Test func textsOfSeveralLinesBelowLevelTwoMakeTheirSiblingsAList() throws {
        let document = try SampleOutlines.emptyDocument()
        let top = try document.insertItem("Top")
        let second = try document.insertItem("Second", under: top)
        try document.insertItem("One line", under: second)
        try document.insertItem("Two\nlines", under: second)
        let text = MarkdownExporter.write(document, options: MarkdownExportOptions(style: .headings, headingLevels: 6)).data.utf8Text
        #expect(text == "# Top\n\n## Second\n\n- One line\n- Two\n  lines\n")
        #expect(try read(text).document.summary == document.summary)
    }

    @Test func aDeepChainOfListsUnderHeadingsReadsWithoutRecursion() throws {
        let depth = 2_000
        var text = "# Top\n## Second\n"
        for level in 0 ..< depth { text += String(repeating: "  ", count: level) + "- \(level + 1)\n" }
        let imported = try read(text)
        #expect(imported.document.itemCount == depth + 3)
        let exported = MarkdownExporter.write(imported.document, options: MarkdownExportOptions(style: .headings))
        #expect(exported.data.utf8Text == "# Top\n\n## Second\n\n" + text.dropFirst("# Top\n## Second\n".count))
    }
}
