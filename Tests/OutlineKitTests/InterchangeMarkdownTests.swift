import Foundation
import Testing
import OutlineEngine
import OutlineTestSupport
import OutlineStorage
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
        MarkdownCase(fixture: "Tasks.md", outline: ["Fruit", "  Apples [x]", "  Pears", "Bakery", "  Bread [x]", "Dairy"], warnings: []),
        MarkdownCase(fixture: "FourSpaces.md",
                     outline: ["Chapter one", "  Scene one", "    Beat", "  Scene two", "Chapter two", "Numbered", "Also numbered"],
                     warnings: []),
        MarkdownCase(fixture: "Tabs.md", outline: ["Home", "  Kitchen", "    Sink", "  Garden", "Work"], warnings: []),
        MarkdownCase(fixture: "Notes.md", outline: [
            "Meeting notes note=\"Agreed on the budget.\\nNext review in May.\\n\\nSecond paragraph of the note.\\n- not a child item\"",
            "  Action items note=\"Owner: Sam\"",
            "    Send minutes [x]",
            "- starts with a dash",
            "[ ] not a task box",
            "1. not a numbered list",
            "# not a heading",
            "First line\nsecond line of the same item",
            "Ends in a backslash C:\\",
            "Plain",
        ], warnings: []),
        MarkdownCase(fixture: "JumpTwoLevels.md", outline: ["Top", "  Child", "    Jumped two levels", "  Back to child level"], warnings: [
            "JumpTwoLevels.md: line 3: the item is indented 4 columns deeper than its parent, two levels or more; read as one level deeper. "
                + "Indent each level by 2 spaces.",
        ]),
        MarkdownCase(fixture: "MixedIndentation.md", outline: ["One", "  Spaces", "    Tab", "Two"], warnings: [
            "MixedIndentation.md: line 3: the indentation uses tabs where the lines before use spaces. Indent with one or the other.",
        ]),
        MarkdownCase(fixture: "NotAList.md", outline: ["Some introduction text.", "Item", "Lazy line without indentation", "Another item"], warnings: [
            "NotAList.md: line 1: this line is not a list item or under one; read as a top-level item (and 1 more place like it). "
                + "Start items with \"- \" and indent notes under their item.",
        ]),
        MarkdownCase(fixture: "UnevenIndentation.md", outline: ["A", "  B", "  C lines up with nothing"], warnings: [
            "UnevenIndentation.md: line 3: the item is indented 2 columns, which lines up with no item above; read as a child of the "
                + "item on the level above (indented 0). Indent each level by the same amount.",
        ]),
    ]

    private func read(_ fixture: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        try MarkdownImporter.read(try InterchangeFixtures.markdown(fixture), file: fixture, options: options)
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
        #expect(error.description == first)
    }

    @Test(arguments: InterchangeFixtures.markdownFixtures)
    func roundTripKeepsTextsNotesAndDone(fixture: String) throws {
        let imported = try read(fixture)
        let exported = MarkdownExporter.write(imported.document, title: imported.head.title)
        #expect(exported.warnings.isEmpty)
        let again = try MarkdownImporter.read(exported.data, file: "again.md", options: ImportOptions(strict: true))
        #expect(again.document.summary.map { $0.replacingOccurrences(of: " [+]", with: "") } == imported.document.summary)
        #expect(again.head.title == imported.head.title)
        #expect(MarkdownExporter.write(again.document, title: again.head.title).data == exported.data)
    }

    @Test func writesTwoSpacesPerLevelTaskBoxesNotesAndTitle() throws {
        let imported = try read("Notes.md")
        let text = MarkdownExporter.write(imported.document, title: "Minutes").data.utf8Text
        #expect(text == """
            # Minutes

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
        #expect(try read("Tasks.md").head.title == "Groceries")
    }

    @Test func checkboxesOnEveryItemWhenAsked() throws {
        let imported = try read("Tasks.md")
        let text = MarkdownExporter.write(imported.document, options: MarkdownExportOptions(checkboxes: .always)).data.utf8Text
        #expect(text == "- [ ] Fruit\n  - [x] Apples\n  - [ ] Pears\n- [ ] Bakery\n  - [x] Bread\n- [ ] Dairy\n")
    }

    @Test func textsThatLookLikeMarkupSurviveAsTheyAre() throws {
        let texts = [
            "- dash", "* star", "+ plus", "# hash", "> quote", "[ ] box", "[x] checked box", "1. one", "12) twelve", "1\\. escaped",
            "\\", "C:\\", "a\\\\", "line 1\nline 2", "ends in a backslash\\\nnext", "", "**bold** and `code`", "- [ ] both",
            "  \\- indented escape", "\\q",
        ]
        let notes = ["para 1\n\n\npara 2", "- looks like an item\n  [ ] indented box\n1. number\n\\backslash", "line\\", "# heading\n> quote"]
        let document = try SampleOutlines.emptyDocument()
        for (index, text) in texts.enumerated() {
            let item = try document.insertItem(text, done: index % 3 == 1)
            if index < notes.count { try document.insertItem("child of \(index)", under: item, note: notes[index]) }
        }
        let exported = MarkdownExporter.write(document)
        let again = try MarkdownImporter.read(exported.data, file: "tricky.md", options: ImportOptions(strict: true))
        // Leading spaces of an item's text are the one thing Markdown cannot keep.
        #expect(again.document.summary == document.summary.map { $0.replacingOccurrences(of: "  \\- indented", with: "\\- indented") })
    }

    @Test func keptOPMLAttributesAreReportedAsNotWritten() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("FeedList.opml"), file: "FeedList.opml")
        let exported = MarkdownExporter.write(imported.document, file: "feeds.md")
        #expect(exported.warnings.map(\.description) == [
            "feeds.md: 4 items have OPML attributes (title, type, xmlUrl, htmlUrl) that Markdown cannot hold; they are not written. "
                + "Export OPML to keep them.",
        ])
    }

    @Test func invalidUTF8IsReplacedWithAWarning() throws {
        let imported = try MarkdownImporter.read(Data("- ok\n- caf\u{E9}".utf8.dropLast(2) + [0xE9, 0x0A]), file: "latin.md")
        #expect(imported.document.summary == ["ok", "caf\u{FFFD}"])
        #expect(imported.warnings.map(\.description) == [
            "latin.md: line 2: the file is not valid UTF-8; the bytes that are not were read as U+FFFD. Save the file as UTF-8.",
        ])
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
        #expect(error.description == "deep.md: line 11: the list is nested more than 10 levels deep. Flatten the list, or import it with a higher maxDepth.")
    }
}
