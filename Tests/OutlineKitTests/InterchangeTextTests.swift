import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// A plain-text fixture, the outline it reads as, and its warnings in full.
struct TextCase: Sendable, CustomTestStringConvertible {
    let fixture: String
    let outline: [String]
    let warnings: [String]
    var testDescription: String { fixture }
}

@Suite struct InterchangeTextTests {
    static let cases: [TextCase] = [
        TextCase(fixture: "Tabs.txt", outline: ["Project", "  Task one", "  Task two", "    Subtask", "Someday", "  Idea"], warnings: []),
        TextCase(
            fixture: "Spaces.txt", outline: ["Project", "  Task one", "    Subtask", "  Task two"],
            warnings: [
                "Spaces.txt: line 2: the line is indented with spaces instead of tabs; read with 4 spaces per level (and 2 more places like it). "
                    + "Indent with tabs only."
            ]),
        TextCase(
            fixture: "JumpTwoLevels.txt", outline: ["Top", "  Too deep", "  Child"],
            warnings: [
                "JumpTwoLevels.txt: line 2: the line is indented 2 levels deeper than a child of the line before; read as its child. "
                    + "Indent each level by one tab more than its parent."
            ]),
        TextCase(
            fixture: "MixedIndentation.txt", outline: ["Top", "  Tab child", "  Mixed child"],
            warnings: [
                "MixedIndentation.txt: line 3: the indentation mixes tabs and spaces. Indent with tabs only."
            ]),
        TextCase(fixture: "CRLF.txt", outline: ["Windows", "  line endings"], warnings: []),
    ]

    private func read(_ fixture: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        try PlainTextImporter.read(try InterchangeFixtures.text(fixture), file: fixture, options: options)
    }

    @Test(arguments: cases)
    func fixtureReadsAsItsOutline(_ textCase: TextCase) throws {
        let imported = try read(textCase.fixture)
        #expect(imported.document.summary == textCase.outline)
        #expect(imported.warnings.map(\.description) == textCase.warnings)
        SampleOutlines.checkInvariants(imported.document)
    }

    @Test(arguments: cases.filter { !$0.warnings.isEmpty })
    func strictModeRejectsTheFirstWarning(_ textCase: TextCase) throws {
        let error = try #require(throws: OutlineError.self) { try read(textCase.fixture, options: ImportOptions(strict: true)) }
        #expect(error.code == .nonconforming)
        let first = try #require(textCase.warnings.first).replacingOccurrences(of: " (and 2 more places like it)", with: "")
        #expect(error.description == Self.strictForm(first))
    }

    /// A warning's text as strict reading words it as an error: without the clause that says
    /// what lenient reading made of the oddity (`; read as its child`).
    static func strictForm(_ warning: String) -> String {
        guard let clause = warning.range(of: #"; (read as|kept as|ignored|left out|dropped)"#, options: .regularExpression),
            let end = warning.range(of: ". ", range: clause.upperBound ..< warning.endIndex)
        else { return warning }
        return String(warning[..<clause.lowerBound] + warning[end.lowerBound...])
    }

    @Test(arguments: InterchangeFixtures.textFixtures)
    func roundTripKeepsTreeAndTexts(fixture: String) throws {
        let imported = try read(fixture)
        let exported = try PlainTextExporter.write(imported.document)
        #expect(exported.warnings.isEmpty)
        let again = try PlainTextImporter.read(exported.data, file: "again.txt", options: ImportOptions(strict: true))
        #expect(again.document.summary == imported.document.summary)
        #expect(try PlainTextExporter.write(again.document).data == exported.data)
    }

    @Test func writesOneTabPerLevel() throws {
        #expect(try PlainTextExporter.write(try read("Spaces.txt").document).data.utf8Text == "Project\n\tTask one\n\t\tSubtask\n\tTask two\n")
    }

    @Test func whatPlainTextCannotHoldIsDroppedWithWarnings() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("OmniOutliner.opml"), file: "OmniOutliner.opml")
        let document = imported.document
        try document.insertItem("two\nlines\tand a tab")
        try document.insertItem("  leading spaces")
        try document.insertItem("")
        let exported = try PlainTextExporter.write(document, file: "trip.txt")
        #expect(
            exported.data.utf8Text == """
                Packing
                \tPassport
                \tAdapters
                Bookings
                \tFlights
                \tHotel
                Ideas
                \tTram 28
                two lines and a tab
                leading spaces


                """)
        #expect(
            exported.warnings.map(\.description) == [
                "trip.txt: 2 notes were dropped (first: item 1.1): plain text has no notes. Export Markdown or OPML to keep them.",
                "trip.txt: 2 done states were dropped (first: item 1.1): plain text has no done state. Export Markdown or OPML to keep them.",
                "trip.txt: 1 text held line breaks or tabs (first: item 4): line breaks and tabs are written as spaces.",
                "trip.txt: 1 text started with spaces (first: item 5): leading spaces are dropped, as they would read as indentation.",
                "trip.txt: 1 text was empty (first: item 6): an empty text is written as an empty line, which reads back as nothing.",
                "trip.txt: 3 items have OPML attributes (Priority, _status) that plain text cannot hold; they are not written. Export OPML to keep them.",
            ])
    }

    @Test func deepOutlinesNestWithoutRecursion() throws {
        let depth = 2_000
        var text = ""
        for level in 0 ..< depth { text += String(repeating: "\t", count: level) + "\(level + 1)\n" }
        let imported = try PlainTextImporter.read(Data(text.utf8), file: "deep.txt")
        #expect(imported.document.itemCount == depth + 1)
        #expect(try PlainTextExporter.write(imported.document).data.utf8Text == text)
    }
}

@Suite struct InterchangeFormatTests {
    @Test(arguments: [
        ("opml", InterchangeFormat.opml), ("OPML", .opml), ("md", .markdown), ("markdown", .markdown),
        ("txt", .text), ("text", .text),
    ])
    func formatFollowsTheFileExtension(pathExtension: String, format: InterchangeFormat) {
        #expect(InterchangeFormat(pathExtension: pathExtension) == format)
    }

    @Test func unknownExtensionsNameNoFormat() {
        #expect(InterchangeFormat(pathExtension: "docx") == nil)
    }

    @Test func opmlToMarkdownToOPMLKeepsTextsNotesDoneAndTitle() throws {
        let opml = try Interchange.read(try InterchangeFixtures.opml("OmniOutliner.opml"), format: .opml, file: "OmniOutliner.opml")
        let markdown = try Interchange.write(opml.document, format: .markdown, head: opml.head, file: "trip.md")
        #expect(
            markdown.data.utf8Text.hasPrefix(
                "---\ntitle: \"Trip to Lisbon\"\n---\n\n- [ ] Packing\n  Priority:: High\n  - [x] Passport\n\n    In the desk drawer.\n"))
        let fromMarkdown = try Interchange.read(markdown.data, format: .markdown, file: "trip.md")
        #expect(fromMarkdown.head.title == "Trip to Lisbon")
        // Folded items come back too (`collapsed:: true`).
        #expect(fromMarkdown.document.summary == opml.document.summary)
        let backToOPML = try Interchange.write(fromMarkdown.document, format: .opml, head: fromMarkdown.head)
        let reread = try Interchange.read(backToOPML.data, format: .opml, file: "trip.opml", options: ImportOptions(strict: true))
        #expect(reread.document.summary == fromMarkdown.document.summary)
        #expect(reread.head.title == "Trip to Lisbon")
    }

    @Test func textRoundTripsThroughTheFacade() throws {
        let text = try Interchange.read(try InterchangeFixtures.text("Tabs.txt"), format: .text, file: "Tabs.txt")
        #expect(
            try Interchange.write(text.document, format: .text).data
                == (try InterchangeFixtures.text("Tabs.txt")).filter { $0 != 0 }
                .split(separator: 0x0A, omittingEmptySubsequences: true).map { Data($0) + Data([0x0A]) }.reduce(Data(), +))
    }
}
