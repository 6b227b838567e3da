import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct InterchangeOPMLImportTests {
    private func read(_ fixture: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        try OPMLImporter.read(try InterchangeFixtures.opml(fixture), file: fixture, options: options)
    }

    @Test func omniOutlinerStatusNotesAndColumns() throws {
        let imported = try read("OmniOutliner.opml")
        #expect(
            imported.document.summary == [
                "Packing",
                "  Passport [x] note=\"In the desk drawer.\\nCheck the expiry date.\"",
                "  Adapters",
                "Bookings",
                "  Flights [x]",
                "  Hotel note=\"Near the river\"",
                "Ideas [+]",
                "  Tram 28",
            ])
        let packing = try imported.document.item(at: .path([1]))
        #expect(try imported.document.extraAttributes(of: packing)?.kept == [OPMLAttribute("Priority", "High")])
        let bookings = try imported.document.item(at: .path([2]))
        #expect(try imported.document.extraAttributes(of: bookings)?.kept == [OPMLAttribute("_status", "indeterminate")])
        #expect(imported.head.title == "Trip to Lisbon")
        #expect(imported.warnings.isEmpty)
    }

    @Test func workflowyCompleteMayComeBeforeText() throws {
        let imported = try read("Workflowy.opml")
        #expect(
            imported.document.summary == [
                "Weekly review note=\"Every Friday\"",
                "  Empty the inbox [x]",
                "  Plan next week",
                "    Calendar [x]",
                "    <b>Top three</b> goals",
                "Someday",
            ])
        let first = try imported.document.item(at: .path([1, 1]))
        #expect(
            try imported.document.extraAttributes(of: first)?.entries == [
                .mapped(name: "_complete", spelling: nil), .mapped(name: "text", spelling: nil),
            ])
    }

    @Test func dynalistCompleteCheckboxesAndCollapsed() throws {
        let imported = try read("Dynalist.opml")
        #expect(
            imported.document.summary == [
                "Books [+]",
                "  The Mythical Man-Month [x]",
                "  A Pattern Language note=\"Christopher Alexander, 1977\"",
                "Papers",
                "  Out of the Tar Pit",
            ])
        let book = try imported.document.item(at: .path([1, 1]))
        #expect(try imported.document.extraAttributes(of: book)?.kept == [OPMLAttribute("checkbox", "true"), OPMLAttribute("colorLabel", "2")])
    }

    @Test func opmlEditorHeadFieldsCreatedDatesAndOneBasedExpansionState() throws {
        let imported = try read("OPMLEditor.opml")
        #expect(
            imported.head.fields.map(\.name) == [
                "title", "dateCreated", "dateModified", "ownerName", "ownerEmail", "ownerId", "expansionState",
                "vertScrollState", "windowTop", "windowLeft", "windowBottom", "windowRight", "lastCursor",
            ])
        #expect(
            imported.document.summary == [
                "United States", "  Far West", "    Alaska", "    California", "    Hawaii", "  Great Plains", "    Kansas",
                "    Nebraska", "  Mid-Atlantic [+]", "    Delaware", "    New Jersey", "  A comment", "  Scripting News",
            ])
        let document = imported.document
        #expect(document.created(of: try document.item(at: .path([1]))) == Date(timeIntervalSince1970: 1_110_904_545))
        #expect(document.created(of: try document.item(at: .path([1, 1]))).map(RFC822Date.format) == "Tue, 15 Mar 2005 16:36:02 GMT")
        #expect(document.created(of: try document.item(at: .path([1, 1, 1]))) == nil)
        #expect(imported.warnings.isEmpty)
    }

    @Test func missingTextFallsBackToTitleThenToEmpty() throws {
        let imported = try read("FeedList.opml")
        #expect(imported.document.summary == ["Tech", "  Daring Fireball", "  Hacker News", ""])
        #expect(
            imported.warnings.map(\.description) == [
                "FeedList.opml: line 10: the outline has no text attribute; its title \"Hacker News\" is used.",
                "FeedList.opml: line 12: the outline has neither text nor title; its text is empty.",
            ])
        let feed = try imported.document.item(at: .path([1, 2]))
        #expect(
            try imported.document.extraAttributes(of: feed)?.kept.map(\.description) == [
                "type=\"rss\"", "title=\"Hacker News\"", "xmlUrl=\"https://news.ycombinator.com/rss\"", "htmlUrl=\"https://news.ycombinator.com/\"",
            ])
    }

    @Test func zeroBasedExpansionStateWithSpaces() throws {
        let imported = try read("ExpansionStateZeroBased.opml")
        #expect(
            imported.document.summary == [
                "First", "  First child", "  Second child", "Second", "  Hidden parent [+]", "    Grandchild", "Third [+]", "  Collapsed child",
            ])
        #expect(imported.warnings.isEmpty)
    }

    @Test func expansionStateEntriesThatAreNotRowsAreReported() throws {
        let imported = try read("ExpansionStateInvalid.opml")
        #expect(imported.document.summary == ["Parent", "  Leaf"])
        #expect(
            imported.warnings.map(\.description) == [
                "ExpansionStateInvalid.opml: line 4: expansionState has entries that are not row numbers (x); they are ignored.",
                "ExpansionStateInvalid.opml: line 4: expansionState names rows that are not visible items with children (2, 9); they are ignored.",
            ])
    }

    @Test func oneLineFileWithExpansionStateAndTitleOnlyOutline() throws {
        let imported = try read("OneLine.opml")
        #expect(imported.document.summary == ["A [+]", "  A.1", "B", "  B.1", "  B.2 (title only)"])
        #expect(
            imported.warnings.map(\.description) == [
                "OneLine.opml: line 1: the outline has no text attribute; its title \"B.2 (title only)\" is used."
            ])
    }

    @Test func literalNewlinesArriveAsSpacesAndEncodedOnesAsNewlines() throws {
        let imported = try read("LiteralNewlines.opml")
        #expect(
            imported.document.summary == [
                "Literal note=\"first line second line and a tab\"",
                "Encoded note=\"first line\\nsecond line\\tand a tab\"",
            ])
    }

    @Test func declaredLatin1IsRead() throws {
        let imported = try read("Latin1.opml")
        #expect(imported.document.summary == ["Crème brûlée note=\"£3.50, ½ portion\"", "Grüße"])
        #expect(imported.head.title == "Café à Zürich")
    }

    @Test func mappedValuesInManySpellings() throws {
        let imported = try read("Values.opml")
        let document = imported.document
        #expect(
            document.summary == [
                "Local time [+]", "  Child", "No seconds, no weekday [x]", "Unreadable", "Two done attributes [x]",
                "Expanded on purpose", "  Child",
            ])
        #expect(document.created(of: document.items[0]).map(RFC822Date.format) == "Tue, 12 Mar 2024 13:03:00 GMT")
        #expect(document.created(of: document.items[2]).map(RFC822Date.format) == "Fri, 05 Jan 2024 17:30:00 GMT")
        #expect(
            try document.extraAttributes(of: document.items[0])?.entries == [
                .mapped(name: "text", spelling: nil), .mapped(name: "created", spelling: "Tue, 12 Mar 2024 14:03:00 +0100"),
                .mapped(name: "collapsed", spelling: "1"),
            ])
        #expect(
            imported.warnings.map(\.description) == [
                "Values.opml: line 9: created=\"yesterday\" is not an RFC 822 date; kept as it is. Dates look like \"Sat, 09 Apr 2007 14:57:36 GMT\".",
                "Values.opml: line 9: collapsed=\"perhaps\" is neither true nor false; kept as it is.",
                "Values.opml: line 9: _status=\"maybe\" is not a done state; kept as it is.",
                "Values.opml: line 10: complete=\"false\" disagrees with the done state read before it; the first one counts.",
            ])
    }

    @Test func importBuildsAConsistentDocumentWithNothingToUndo() throws {
        let imported = try read("OPMLEditor.opml")
        let document = imported.document
        SampleOutlines.checkInvariants(document)
        #expect(!document.context.canUndo)
        #expect(!document.context.hasChanges)
        #expect(document.itemCount == 14)
        // The document is editable and undoable afterwards.
        try document.insertItem("New", under: try document.item(at: .path([1])), at: 0)
        SampleOutlines.checkInvariants(document)
        #expect(document.context.canUndo)
    }

    @Test func readingAFileStreamsTheSameDocument() throws {
        let url = InterchangeFixtures.folder.appending(path: "OPML/OPMLEditor.opml")
        let streamed = try OPMLImporter.read(contentsOf: url, file: "OPMLEditor.opml")
        let inMemory = try read("OPMLEditor.opml")
        #expect(streamed.document.fullSummary == inMemory.document.fullSummary)
        #expect(streamed.head == inMemory.head)
    }

    @Test(arguments: [
        (
            "FeedList.opml",
            "FeedList.opml: line 10: the outline has no text attribute; its title \"Hacker News\" is used. "
                + "Correct the file, or read it without strict mode to accept this."
        ),
        (
            "Values.opml",
            "Values.opml: line 9: created=\"yesterday\" is not an RFC 822 date. "
                + "Dates look like \"Sat, 09 Apr 2007 14:57:36 GMT\"."
        ),
        (
            "ExpansionStateInvalid.opml",
            "ExpansionStateInvalid.opml: line 4: expansionState has entries that are not row numbers (x); "
                + "they are ignored. Correct the file, or read it without strict mode to accept this."
        ),
    ])
    func strictModeRejectsMappingWarnings(fixture: String, message: String) throws {
        let error = try #require(throws: OutlineError.self) { try read(fixture, options: ImportOptions(strict: true)) }
        #expect(error.code == .nonconforming)
        #expect(error.description == message)
    }

    @Test func strictModeRejectsFileLevelWarnings() throws {
        let error = try #require(throws: StorageError.self) { try read("NoVersion.opml", options: ImportOptions(strict: true)) }
        #expect(error.code == .nonconforming)
        #expect(
            error.description == "NoVersion.opml: line 2: the <opml> element has no version attribute. "
                + "Correct the file, or read it without strict mode to accept this.")
    }

    @Test func strictModeAcceptsCleanFiles() throws {
        for fixture in ["OmniOutliner.opml", "Workflowy.opml", "Dynalist.opml", "OPMLEditor.opml", "ExpansionStateZeroBased.opml"] {
            #expect(throws: Never.self) { try read(fixture, options: ImportOptions(strict: true)) }
        }
    }

    @Test func olderSchemasDropWhatTheyCannotHoldWithWarnings() throws {
        let v2 = try #require(try OutlineSchemas.version(named: "Outline 2"))
        let intoV2 = try read("OmniOutliner.opml", options: ImportOptions(schema: v2))
        #expect(intoV2.document.summary.first == "Packing")
        #expect(
            intoV2.warnings.map(\.description) == [
                "OmniOutliner.opml: 3 OPML attributes were not kept: the schema Outline 2 has no extraAttributes. Import into the current schema to keep them."
            ])
        let v1 = try #require(try OutlineSchemas.version(named: "Outline"))
        let intoV1 = try read("OmniOutliner.opml", options: ImportOptions(schema: v1))
        #expect(intoV1.document.summary == ["Packing", "  Passport", "  Adapters", "Bookings", "  Flights", "  Hotel", "Ideas", "  Tram 28"])
        #expect(
            intoV1.warnings.map(\.description) == [
                "OmniOutliner.opml: 2 notes were not imported: the schema Outline has no notes. Import into the current schema to keep them.",
                "OmniOutliner.opml: 5 done states were not imported: the schema Outline has no done state. Import into the current schema to keep them.",
                "OmniOutliner.opml: 3 OPML attributes were not kept: the schema Outline has no extraAttributes. Import into the current schema to keep them.",
            ])
    }

    @Test func aHundredThousandLevelsImportWithoutStackOverflow() throws {
        var text = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head/><body>\n"
        for level in 1 ... 100_000 { text += "<outline text=\"\(level)\">" }
        text += String(repeating: "</outline>", count: 100_000) + "\n</body></opml>\n"
        let imported = try OPMLImporter.read(Data(text.utf8), file: "deep.opml")
        let document = imported.document
        #expect(document.itemCount == 100_001)
        var deepest = (depth: 0, item: document.root)
        document.walk { item, depth in
            if depth > deepest.depth { deepest = (depth, item) }
            return true
        }
        #expect(deepest.depth == 100_000)
        #expect(document.text(of: deepest.item) == "100000")
        #expect(document.path(of: deepest.item).count == 100_000)

        let exported = try OPMLExporter.write(document)
        let again = try OPMLImporter.read(exported.data, file: "deep-again.opml")
        #expect(again.document.itemCount == 100_001)
    }
}
