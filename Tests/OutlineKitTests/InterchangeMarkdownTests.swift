import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// A Markdown fixture, the outline it reads as, and its warnings in full.
struct MarkdownCase: Sendable, CustomTestStringConvertible {
    let fixture: String
    let outline: [String]
    let warnings: [String]
    var testDescription: String { fixture }
}

@Suite struct InterchangeMarkdownTests {
    static let cases: [MarkdownCase] = [
        MarkdownCase(
            fixture: "Tasks.md", outline: ["Groceries", "  Fruit", "    Apples [x]", "    Pears", "  Bakery", "    Bread [x]", "  Dairy"],
            warnings: []),
        MarkdownCase(
            fixture: "FourSpaces.md",
            outline: ["Chapter one", "  Scene one", "    Beat", "  Scene two", "Chapter two", "Numbered", "Also numbered"],
            warnings: []),
        MarkdownCase(fixture: "Tabs.md", outline: ["Home", "  Kitchen", "    Sink", "  Garden", "Work"], warnings: []),
        MarkdownCase(
            fixture: "Notes.md",
            outline: [
                "Meeting notes\nAgreed on the budget.\nNext review in May. note=\"Second paragraph of the note.\\n- not a child item\"",
                "  Action items\nOwner: Sam",
                "    Send minutes [x]",
                "\\- starts with a dash",
                "[ ] not a task box",
                "1\\. not a numbered list",
                "\\# not a heading",
                "First line\\\nsecond line of the same item",
                "Ends in a backslash C:\\\\",
                "Plain",
            ], warnings: []),
        MarkdownCase(
            fixture: "JumpTwoLevels.md", outline: ["Top", "  Child", "    Jumped two levels", "  Back to child level"],
            warnings: [
                "JumpTwoLevels.md: line 3: the item is indented 4 columns deeper than its parent, two levels or more; read as one level deeper. "
                    + "Indent each level by 2 spaces."
            ]),
        MarkdownCase(
            fixture: "MixedIndentation.md", outline: ["One", "  Spaces", "    Tab", "Two"],
            warnings: [
                "MixedIndentation.md: line 3: the indentation uses tabs where the lines before use spaces. Indent with one or the other."
            ]),
        MarkdownCase(fixture: "NotAList.md", outline: ["Item\nLazy line without indentation", "Another item"], warnings: []),
        MarkdownCase(
            fixture: "UnevenIndentation.md", outline: ["A", "  B", "  C lines up with nothing"],
            warnings: [
                "UnevenIndentation.md: line 3: the item is indented 2 columns, which lines up with no item above; read as a child of the "
                    + "item on the level above (indented 0). Indent each level by the same amount."
            ]),
        MarkdownCase(
            fixture: "ReadmeWithHTML.md",
            outline: [
                "Lantern note=\"Lantern turns plain folders of notes into a searchable\\nweb page. It runs offline.\"",
                "  Table of contents",
                "    [Installation](#installation)",
                "      [Requirements](#requirements)",
                "    [Usage](#usage)",
                "  Installation note=\"Clone the repository and build:\\n\\n```sh\\ngit clone https://example.org/lantern.git\\n"
                    + "- this dash is code, not an item\\n# neither is this hash\\n```\"",
                "    Requirements note=\"<details>\\n<summary>Building on Windows</summary>\\n\\n</details>\"",
                "      A POSIX shell",
                "      Make 4.0 or later",
                "      Install the subsystem first.",
                "  Usage note=\"    lantern serve ~/notes\\n\\nOpen `http://localhost:8080` afterwards.\\n\\n"
                    + "[tests-badge]: https://example.org/badges/tests.svg\\n[tests-url]: https://example.org/lantern/actions\\n"
                    + "[license-badge]: https://example.org/badges/mit.svg\"",
            ], warnings: []),
        MarkdownCase(
            fixture: "Changelog.md",
            outline: [
                "Changelog note=\"All notable changes to this project are written down here. The format follows\\n"
                    + "Keep a Changelog, and versions follow Semantic Versioning.\\n\\n<!-- Releases go newest first. -->\"",
                "  [Unreleased]",
                "    Added",
                "      Support for reading archives that were split into parts. Each part is\nchecked before the next one is opened, so a damaged part is reported\nwith its number.",
                "      A `--quiet` flag.",
                "    Fixed note=\"---\"",
                "      Dates before 1970 were shown\nas the current date.",
                "  \\[0.2.0\\] - 2024-03-09",
                "    Changed note=\"---\"",
                "      The default port is now 8081.",
                "      Logs rotate daily.",
                "  [0.1.0] - 2024-01-15 note=\"Initial release.\\n\\n[Unreleased]: https://example.org/compare/v0.2.0...HEAD\\n"
                    + "[0.1.0]: https://example.org/releases/tag/v0.1.0\"",
            ], warnings: []),
        MarkdownCase(
            fixture: "LogseqPage.md",
            outline: [
                "Seeds to buy",
                "  Tomatoes",
                "  Basil\nSCHEDULED: <2024-03-02 Sat>\n:LOGBOOK:\nCLOCK: [2024-03-02 Sat 09:10:00]--[2024-03-02 Sat 09:25:00] =>  00:15:00\n:END: [x]",
                "  Chili peppers [+]",
                "    Ask the neighbour for cuttings",
                "# Layout",
                "  North bed gets the [[Tomatoes]]",
                "  ```text\n|  path  |\n| beds   |\n```",
                "LATER Compost bin",
            ], warnings: []),
        MarkdownCase(
            fixture: "FrontMatter.md",
            outline: [
                "Reading list note=\"A note kept in a *notes app*, with a table[^1].\"",
                "  Fiction",
                "    The first novel [x]",
                "    A second novel [x]",
                "    A third one",
                "    A collection of stories note=\"rating:: 3\"",
                "  Non-fiction note=\"> Read slowly.\\n> -- a friend\\n\\n| Title | Pages |\\n|-------|------:|\\n| Maps  |   320 |\\n\\n"
                    + "[^1]: Tables render on GitHub.\"",
                "    A history of maps",
                "    A field guide",
            ],
            warnings: [
                "FrontMatter.md: line 23: the property rating appears twice in one item; the second is kept in the item's note. "
                    + "Give each property of an item once."
            ]),
        MarkdownCase(
            fixture: "SkippedLevels.md",
            outline: [
                "Book", "  Part one, under the book", "    Chapter one note=\"Text of chapter one.\"", "  Part two", "    Deep note",
                "      Item under the deep heading", "        Its child", "  Part three",
            ], warnings: []),
        MarkdownCase(
            fixture: "ItemParagraphs.md",
            outline: [
                "First step, with a second paragraph. note=\"Keep the receipt.\\n\\n    code indented under the step\"",
                "Second step\ncontinues on an indented line\nand on a lazy one. note=\"Back in the second step after its sublist.\"",
                "  A sublist",
                "    deeper",
                "Third step note=\"```\\n- inside a fence\\n```\\n\\n* * *\\n\\nText after the list.\"",
            ], warnings: []),
        MarkdownCase(
            fixture: "TextOnly.md", outline: [],
            warnings: [
                "TextOnly.md: the file has no headings or list items; its text is kept as the document's preamble, not as items. "
                    + "Start sections with \"# \" or items with \"- \"."
            ]),
    ]

    private func read(_ fixture: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        try MarkdownImporter.read(try InterchangeFixtures.markdown(fixture), file: fixture, options: options)
    }

    @Test func everyFixtureHasACase() {
        #expect(Self.cases.map(\.fixture) == InterchangeFixtures.markdownFixtures)
    }

    @Test(arguments: cases)
    func fixtureReadsAsItsOutline(_ markdownCase: MarkdownCase) throws {
        let imported = try read(markdownCase.fixture)
        #expect(imported.document.summary == markdownCase.outline)
        #expect(imported.warnings.map(\.description) == markdownCase.warnings)
        SampleOutlines.checkInvariants(imported.document)
        #expect(!imported.document.context.canUndo)
    }

    @Test(arguments: cases.filter { !$0.warnings.isEmpty })
    func strictModeRejectsTheFirstWarning(_ markdownCase: MarkdownCase) throws {
        let error = try #require(throws: OutlineError.self) { try read(markdownCase.fixture, options: ImportOptions(strict: true)) }
        #expect(error.code == .nonconforming)
        let first = try #require(markdownCase.warnings.first).replacingOccurrences(of: " (and 1 more place like it)", with: "")
        #expect(error.description == InterchangeTextTests.strictForm(first))
    }

    @Test func writesTwoSpacesPerLevelTaskBoxesPropertiesAndNotesAfterABlankLine() throws {
        let imported = try read("Notes.md")
        var head = OPMLHead()
        head.title = "Minutes"
        let text = MarkdownExporter.write(imported.document, head: head).data.utf8Text
        #expect(
            text == """
                ---
                title: "Minutes"
                ---

                - Meeting notes
                  Agreed on the budget.
                  Next review in May.

                  Second paragraph of the note.
                  \\- not a child item

                  - Action items
                    Owner: Sam
                    - [x] Send minutes
                - \\- starts with a dash
                - \\[ ] not a task box
                - 1\\. not a numbered list
                - \\# not a heading
                - First line\\
                  second line of the same item
                - Ends in a backslash C:\\\\
                - Plain

                """)
        let again = try MarkdownImporter.read(Data(text.utf8), file: "again.md")
        #expect(again.head.title == "Minutes")
        #expect(again.document.summary == imported.document.summary)
    }

    @Test func openTasksKeepTheirBoxAndMarkersTheirSpelling() throws {
        let imported = try MarkdownImporter.read(Data("- [ ] open\n- [x] done\n- plain\n- TODO later\n- DONE finished\n".utf8), file: "t.md")
        #expect(imported.document.summary == ["open", "done [x]", "plain", "later", "finished [x]"])
        let text = MarkdownExporter.write(imported.document).data.utf8Text
        #expect(text == "- [ ] open\n- [x] done\n- plain\n- TODO later\n- DONE finished\n")
        let opml = try OPMLExporter.write(imported.document).data.utf8Text
        #expect(opml.contains("<outline text=\"open\" _status=\"unchecked\"/>"), "\(opml)")
        #expect(opml.contains("<outline text=\"later\" _status=\"unchecked\"/>"), "\(opml)")
        #expect(opml.contains("<outline text=\"finished\" _status=\"checked\"/>"), "\(opml)")
    }

    @Test func checkboxesOnEveryItemWhenAsked() throws {
        let imported = try read("Tabs.md")
        let text = MarkdownExporter.write(imported.document, options: MarkdownExportOptions(checkboxes: .always)).data.utf8Text
        #expect(text == "- [ ] Home\n  - [ ] Kitchen\n    - [ ] Sink\n  - [ ] Garden\n- [ ] Work\n")
    }

    @Test(arguments: [MarkdownStyle.list, .headings])
    func textsAndNotesThatLookLikeMarkupSurviveAsTheyAre(style: MarkdownStyle) throws {
        let texts = [
            "- dash", "* star", "+ plus", "# hash", "> quote", "[ ] box", "[x] checked box", "1. one", "12) twelve", "1\\. escaped",
            "\\", "C:\\", "a\\\\", "line 1\nline 2", "ends in a backslash\\\nnext", "", "**bold** and `code`", "- [ ] both",
            "\\- indented escape", "\\q", "TODO not a task", "\\TODO", "DONE", "ends with #", "#", "\\#", "a \\##",
            "two\n\nparagraphs", "line\n- item\n# heading\n```\n<div>\n---\n===\n1. one\nkey:: value\nkey\\:: escaped\n  \n> quote",
            "```\nfenced\n```", "<div>\nblock\n</div>", "```\nunclosed", "<!-- comment -->", "[[Logseq link]] and #tag", "<b>bold</b>",
        ]
        let notes = [
            "para 1\n\n\npara 2", "- looks like an item\n  [ ] indented box\n1. number\n2. two\n\\backslash", "line\\", "# heading\n> quote",
            "para\n---\nafter", "para\n===", "```\n- in a fence\n# too\n```", "```\nnever closed\n- item", "<!-- never closed\n- item",
            "<div>\n- in html\n</div>\n\n- after html", "    indented code\n    - in code", "para\n    - continuation", "\\```", "key:: value",
            "[ref]: https://example.org\n| a | b |\n|---|---|", "* * *\n- - -\n___", "2) not first\n1) first",
        ]
        let document = try SampleOutlines.emptyDocument()
        for (index, text) in texts.enumerated() {
            let item = try document.insertItem(text, done: index % 3 == 1)
            if index < notes.count { try document.insertItem("child of \(index)", under: item, note: notes[index]) }
        }
        let options = MarkdownExportOptions(style: style, headingLevels: 6)
        let exported = MarkdownExporter.write(document, options: options)
        let again = try MarkdownImporter.read(exported.data, file: "tricky.md", options: ImportOptions(strict: true))
        #expect(again.document.summary == document.summary, "\(exported.data.utf8Text)")
        #expect(MarkdownExporter.write(again.document, options: options).data == exported.data)
    }

    @Test func keptOPMLAttributesAreWrittenAsPropertiesWhenTheyCanBe() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("FeedList.opml"), file: "FeedList.opml")
        let exported = MarkdownExporter.write(imported.document, file: "feeds.md")
        #expect(exported.warnings.isEmpty)
        #expect(exported.data.utf8Text.contains("  xmlUrl:: https://example.com/feed.xml\n"), "\(exported.data.utf8Text)")
        // Everything but the place of `text` among the OPML attributes, which Markdown has no notion of.
        let again = try MarkdownImporter.read(exported.data, file: "feeds.md")
        #expect(again.document.summary == imported.document.summary)
        #expect(
            try again.document.items.map { try again.document.extraAttributes(of: $0)?.kept }
                == imported.document.items.map { try imported.document.extraAttributes(of: $0)?.kept })

        let namespaced = try OPMLImporter.read(try InterchangeFixtures.opml("Namespaces.opml"), file: "Namespaces.opml")
        let warned = MarkdownExporter.write(namespaced.document, file: "ns.md")
        #expect(warned.warnings.map(\.description).first?.hasPrefix("ns.md: ") == true)
        #expect(warned.warnings.map(\.description).first?.contains("that Markdown cannot hold as property lines") == true)
    }

    @Test func invalidUTF8IsReplacedWithAWarning() throws {
        let imported = try MarkdownImporter.read(Data("- ok\n- caf\u{E9}".utf8.dropLast(2) + [0xE9, 0x0A]), file: "latin.md")
        #expect(imported.document.summary == ["ok", "caf\u{FFFD}"])
        #expect(
            imported.warnings.map(\.description) == [
                "latin.md: line 2: the file is not valid UTF-8; the bytes that are not were read as U+FFFD. Save the file as UTF-8."
            ])
    }

    @Test func utf16WithAByteOrderMarkReads() throws {
        let text = "# Titel\n\n- Größe\n"
        for (bom, bigEndian) in [([UInt8](arrayLiteral: 0xFF, 0xFE), false), ([0xFE, 0xFF], true)] {
            let bytes = bom + text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let imported = try MarkdownImporter.read(Data(bytes), file: "utf16.md", options: ImportOptions(strict: true))
            #expect(imported.document.summary == ["Titel", "  Größe"])
        }
    }

    @Test func deepListsNestWithoutRecursion() throws {
        let depth = 1_000
        var text = ""
        for level in 0 ..< depth { text += String(repeating: "  ", count: level) + "- \(level + 1)\n" }
        let imported = try MarkdownImporter.read(Data(text.utf8), file: "deep.md")
        #expect(imported.document.summary.count == depth)
        #expect(imported.document.summary.last == String(repeating: "  ", count: depth - 1) + "1000")
        #expect(MarkdownExporter.write(imported.document).data.utf8Text == text)
        let error = try #require(throws: OutlineError.self) {
            try MarkdownImporter.read(Data(text.utf8), file: "deep.md", options: ImportOptions(maxDepth: 10))
        }
        #expect(
            error.description
                == "deep.md: line 11: the list is nested more than 10 levels deep. Flatten the list, or import it with a higher maxDepth.")
    }
}
