import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineStorage

@Suite struct OPMLReaderTests {
    /// How much the reader hands libxml2 at a time (1 MB).
    static let chunkSize = 1 << 20

    @Test(
        arguments: [
            ("OmniOutliner.opml", "1.0"), ("FeedList.opml", "1.1"), ("Workflowy.opml", "2.0"), ("NoVersion.opml", nil),
        ] as [(String, String?)])
    func readsEveryVersion(fixture: String, version: String?) throws {
        let file = try OPMLReader.read(try OPMLFixtures.data(fixture), file: fixture)
        #expect(file.head.version == version)
        #expect(!file.outlines.isEmpty)
    }

    @Test func missingVersionIsAWarning() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("NoVersion.opml"), file: "NoVersion.opml")
        #expect(
            file.warnings.map(\.description) == [
                "NoVersion.opml: line 2: the <opml> element has no version attribute; read as OPML 2.0."
            ])
        #expect(file.outlines.map(\.summary) == ["text=\"One\"", "text=\"Two\""])
    }

    @Test func declaredEncodingIsHonoured() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("Latin1.opml"), file: "Latin1.opml")
        #expect(file.head.title == "Café à Zürich")
        #expect(file.outlines.map(\.summary) == ["text=\"Crème brûlée\" _note=\"£3.50, ½ portion\"", "text=\"Grüße\""])
        #expect(file.warnings.isEmpty)
    }

    @Test func ampersandsInAttributesArriveDecoded() throws {
        let text = #"<opml version="2.0"><body><outline text="A &amp; B &#38; C &amp;#38; &lt;&amp;&gt;"/></body></opml>"#
        let file = try OPMLReader.read(Data(text.utf8), file: "x.opml")
        #expect(file.outlines[0]["text"] == "A & B & C &#38; <&>")
    }

    @Test func literalNewlinesInAttributesArriveAsSpaces() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("LiteralNewlines.opml"), file: "LiteralNewlines.opml")
        #expect(file.outlines.map { $0["_note"] } == ["first line second line and a tab", "first line\nsecond line\tand a tab"])
    }

    @Test func oneLineFileReportsLineOne() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("OneLine.opml"), file: "OneLine.opml")
        #expect(
            file.outlines.map(\.summary) == [
                "text=\"A\"", "  text=\"A.1\"", "text=\"B\"", "  text=\"B.1\"", "  title=\"B.2 (title only)\"",
            ])
        #expect(file.outlines.allSatisfy { $0.line == 1 })
        #expect(file.head.fields.map(\.line) == [1, 1])
    }

    @Test func feedListAttributesAreKeptInFileOrder() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("FeedList.opml"), file: "FeedList.opml")
        #expect(
            file.outlines.map(\.summary) == [
                "text=\"Tech\" title=\"Tech\"",
                "  type=\"rss\" text=\"Daring Fireball\" title=\"Daring Fireball\" xmlUrl=\"https://daringfireball.net/feeds/main\" htmlUrl=\"https://daringfireball.net/\"",
                "  type=\"rss\" title=\"Hacker News\" xmlUrl=\"https://news.ycombinator.com/rss\" htmlUrl=\"https://news.ycombinator.com/\"",
                "type=\"rss\" xmlUrl=\"https://example.com/feed.xml\"",
            ])
    }

    @Test func headFieldsComeInFileOrderWithUnknownOnes() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("OPMLEditor.opml"), file: "OPMLEditor.opml")
        #expect(
            file.head.fields.map { "\($0.name)=\($0.value)" } == [
                "title=states.opml", "dateCreated=Tue, 15 Mar 2005 16:35:45 GMT", "dateModified=Thu, 14 Jul 2005 23:41:05 GMT",
                "ownerName=Dave Winer", "ownerEmail=dave@example.com", "ownerId=http://example.com/dave",
                "expansionState=1,2,6", "vertScrollState=1", "windowTop=106", "windowLeft=106", "windowBottom=558",
                "windowRight=479", "lastCursor=7",
            ])
        #expect(file.outlines.count == 13)
        #expect(file.outlines[0].summary == "text=\"United States\" created=\"Tue, 15 Mar 2005 16:35:45 GMT\"")
    }

    @Test func headFieldTextIsKeptExactly() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("Workflowy.opml"), file: "Workflowy.opml")
        #expect(file.head.fields.map(\.value) == ["\n      someone@example.com\n    "])
        #expect(file.outlines[1].summary == "  _complete=\"true\" text=\"Empty the inbox\"")
    }

    @Test func namespaceDeclarationsAndPrefixedNamesAreKept() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("Namespaces.opml"), file: "Namespaces.opml")
        #expect(
            file.head.attributes.map(\.description) == [
                "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"", "xmlns:app=\"http://example.com/app\"",
            ])
        #expect(file.head.fields.map(\.name) == ["title", "dc:creator"])
        #expect(file.outlines.map(\.summary) == ["text=\"Tagged\" dc:subject=\"outlines\" app:id=\"42\" app:color=\"blue\""])
    }

    @Test func elementsAndTextThatAreNotOPMLAreSkippedWithWarnings() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("Oddities.opml"), file: "Oddities.opml")
        #expect(file.outlines.map(\.summary) == ["text=\"Kept\"", "  text=\"Child\""])
        #expect(file.head.title == "Odd  readable")
        #expect(
            file.warnings.map(\.description) == [
                "Oddities.opml: line 2: unknown OPML version \"3.0\"; read as OPML 2.0.",
                "Oddities.opml: line 4: an element <b> inside the head field <title> is not read; skipped with its contents.",
                "Oddities.opml: line 8: text inside <body> is not part of OPML; ignored.",
                "Oddities.opml: line 9: an element <note> inside <outline> is not part of OPML; skipped with its contents.",
                "Oddities.opml: line 12: an element <section> inside <body> is not part of OPML; skipped with its contents.",
                "Oddities.opml: line 14: an element <footer> inside <opml> is not part of OPML; skipped with its contents.",
            ])
    }

    @Test func aFileWithoutBodyIsEmptyWithAWarning() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("NoBody.opml"), file: "NoBody.opml")
        #expect(file.outlines.isEmpty)
        #expect(file.warnings.map(\.description) == ["NoBody.opml: the file has no <body>; the outline is empty."])
    }

    @Test func repeatedWarningsAreReportedOnceWithACount() throws {
        let text = "<opml version=\"2.0\"><body><x/><x/><x/><outline text=\"a\"/></body></opml>"
        let file = try OPMLReader.read(Data(text.utf8), file: "x.opml")
        #expect(
            file.warnings.map(\.description) == [
                "x.opml: line 1: an element <x> inside <body> is not part of OPML; skipped with its contents (and 2 more places like it)."
            ])
    }

    @Test(arguments: [
        (
            "NoVersion.opml",
            "NoVersion.opml: line 2: the <opml> element has no version attribute. "
                + "Correct the file, or read it without strict mode to accept this."
        ),
        (
            "Oddities.opml",
            "Oddities.opml: line 2: unknown OPML version \"3.0\". "
                + "Correct the file, or read it without strict mode to accept this."
        ),
        (
            "NoBody.opml",
            "NoBody.opml: the file has no <body>; the outline is empty. "
                + "Correct the file, or read it without strict mode to accept this."
        ),
    ])
    func strictModeTurnsTheFirstWarningIntoAnError(fixture: String, message: String) throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(try OPMLFixtures.data(fixture), file: fixture, options: .init(strict: true))
        }
        #expect(error.code == .nonconforming)
        #expect(error.description == message)
    }

    @Test func strictModeAcceptsACleanFile() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("OmniOutliner.opml"), file: "OmniOutliner.opml", options: .init(strict: true))
        #expect(file.outlines.count == 8)
    }

    @Test func externalDTDIsNeverFetched() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("ExternalDTD.opml"), file: "ExternalDTD.opml")
        #expect(file.outlines.map(\.summary) == ["text=\"Still read\""])
        #expect(file.warnings.isEmpty)
    }

    @Test func aHundredThousandLevelsAreReadWithoutRecursion() throws {
        var deepest = 0
        var count = 0
        try OPMLReader.read(OPMLFixtures.chain(depth: 100_000), file: "deep.opml") { event in
            if case .outline(let outline) = event {
                count += 1
                deepest = max(deepest, outline.depth)
                #expect(outline.depth == count, "outlines arrive in document order, one level deeper each")
            }
        }
        #expect(count == 100_000)
        #expect(deepest == 100_000)
    }

    @Test func nestingBeyondTheLimitIsRefused() throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(OPMLFixtures.chain(depth: 51), file: "deep.opml", options: .init(maxDepth: 50)) { _ in }
        }
        #expect(error.code == .limitExceeded)
        #expect(
            error.description == "deep.opml: line 3: the outline is nested more than 50 levels deep (the reader's limit). "
                + "The file is damaged or made to exhaust memory; if the nesting is real, read it with a higher maxDepth (at most 1000000).")
        #expect(try OPMLReader.read(OPMLFixtures.chain(depth: 50), file: "deep.opml", options: .init(maxDepth: 50)).outlines.count == 50)
    }

    /// At the ceiling (what the tool reads with) the message does not suggest going deeper.
    @Test func nestingBeyondTheCeilingSaysNoReaderGoesDeeper() {
        let error = OPMLReader.tooDeep(file: "deep.opml", line: 3, limit: OPMLReader.Options.depthCeiling)
        #expect(
            error.description == "deep.opml: line 3: the outline is nested more than 1000000 levels deep (the reader's limit). "
                + "The file is damaged or made to exhaust memory; no outline this tool reads or writes is nested deeper.")
    }

    @Test func skippedElementsCountTowardsTheDepthLimit() throws {
        let text =
            "<opml version=\"2.0\"><body><outline text=\"a\">" + String(repeating: "<x>", count: 10)
            + String(repeating: "</x>", count: 10) + "</outline></body></opml>"
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(Data(text.utf8), file: "x.opml", options: .init(maxDepth: 5)) { _ in }
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func streamingFromAFileMatchesReadingFromMemory() throws {
        // Over 1 MB, so that libxml2 gets several chunks and elements straddle their borders.
        let data = OPMLFixtures.flat(count: 20_000)
        #expect(data.count > OPMLReaderTests.chunkSize)
        let folder = try TemporaryFolder.make("OPMLReaderTests")
        defer { TemporaryFolder.remove(folder) }
        let url = folder.appending(path: "flat.opml")
        try data.write(to: url)
        var streamed = OPMLFile()
        streamed.warnings = try OPMLReader.read(contentsOf: url, file: "flat.opml") { streamed.add($0) }
        let inMemory = try OPMLReader.read(data, file: "flat.opml")
        #expect(streamed == inMemory)
        #expect(streamed.outlines.count == 20_000)
        #expect(streamed.outlines.last?.summary == "text=\"Item 20000\" _note=\"Note & line\ntwo\" n=\"20000\"")
    }

    @Test func anErrorFromTheHandlerStopsReadingAndIsRethrown() throws {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try OPMLReader.read(OPMLFixtures.flat(count: 100), file: "flat.opml") { event in
                if case .outline = event {
                    seen += 1
                    if seen == 3 { throw Stop() }
                }
            }
        }
        #expect(seen == 3)
    }

    @Test func aMissingFileIsUnreadable() throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(contentsOf: OPMLFixtures.url("DoesNotExist.opml"), file: "DoesNotExist.opml") { _ in }
        }
        #expect(error.code == .unreadable)
        #expect(error.description.hasPrefix("DoesNotExist.opml: the file cannot be opened ("))
        #expect(error.description.hasSuffix("). Check the path and the file's permissions."))
    }
}
