import Foundation
import OutlineStorage
import Testing

/// A fixture that is not readable OPML and the full error it must produce.
struct OPMLErrorCase: Sendable, CustomTestStringConvertible {
    let fixture: String
    let code: StorageError.Code
    /// The error's description after `FIXTURE: `.
    let message: String

    var testDescription: String { fixture }
}

@Suite struct OPMLReaderErrorTests {
    static let notOPML = "This is not an OPML file; export the outline as OPML from the app that made it and read that file."
    static let htmlPage = "this is an HTML web page, not an OPML file. Save the OPML file itself (the page's export or download link) and read that."

    static let cases: [OPMLErrorCase] = [
        OPMLErrorCase(
            fixture: "Empty.opml", code: .unknownFormat,
            message: "the file is empty. An OPML file starts with <?xml or <opml; check that this is the file you meant."),
        OPMLErrorCase(fixture: "HTMLPage.opml", code: .unknownFormat, message: "line 1: \(htmlPage)"),
        OPMLErrorCase(fixture: "XHTMLPage.opml", code: .unknownFormat, message: "line 2: \(htmlPage)"),
        OPMLErrorCase(fixture: "HTMLLowercaseDoctype.opml", code: .unknownFormat, message: "line 2: \(htmlPage)"),
        OPMLErrorCase(
            fixture: "RSSFeed.opml", code: .unknownFormat,
            message: "line 2: the root element is <rss>, not <opml>. \(notOPML)"),
        OPMLErrorCase(
            fixture: "StylesheetFirst.opml", code: .malformedXML,
            message: "line 2: not well-formed XML (XML declaration allowed only at the start of the document). "
                + "Delete what comes before <?xml ...?>: the XML declaration must be the very first thing in the file."),
        OPMLErrorCase(
            fixture: "NotWellFormed.opml", code: .malformedXML,
            message: "line 8: not well-formed XML (Opening and ending tag mismatch: outline line 5 and body). "
                + "The file is damaged or is not OPML; export it again from the app that made it."),
        OPMLErrorCase(
            fixture: "HTMLEntity.opml", code: .malformedXML,
            message: "line 5: not well-formed XML (Entity 'eacute' not defined). XML knows only &amp; &lt; &gt; &quot; "
                + "and &apos;; write other characters as themselves or as character references such as &#160;."),
        OPMLErrorCase(
            fixture: "EntityExpansion.opml", code: .malformedXML,
            message: "line 17: the file uses the entity &lol9; declared in its DOCTYPE, and entities are not expanded, "
                + "for safety. Replace each &lol9; with the text it stands for."),
        OPMLErrorCase(
            fixture: "ExternalEntity.opml", code: .malformedXML,
            message: "line 8: the file uses the entity &secret; declared in its DOCTYPE, and entities are not expanded, "
                + "for safety. Replace each &secret; with the text it stands for."),
        OPMLErrorCase(
            fixture: "Latin1Undeclared.opml", code: .malformedXML,
            message: "line 2: not well-formed XML (Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0x22 0x2F 0x3E). "
                + "Declare the file's encoding in its first line, such as <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>, "
                + "or save the file as UTF-8."),
    ]

    @Test(arguments: cases)
    func fileThatIsNotOPMLIsRejectedWithAClearMessage(_ errorCase: OPMLErrorCase) throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(try OPMLFixtures.data(errorCase.fixture), file: errorCase.fixture) { _ in }
        }
        #expect(error.code == errorCase.code)
        #expect(error.description == "\(errorCase.fixture): \(errorCase.message)")
    }

    @Test(arguments: cases)
    func streamingFromDiskGivesTheSameError(_ errorCase: OPMLErrorCase) throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(contentsOf: OPMLFixtures.url(errorCase.fixture), file: errorCase.fixture) { _ in }
        }
        #expect(error.description == "\(errorCase.fixture): \(errorCase.message)")
    }

    @Test func nothingIsReportedBeforeTheRootIsChecked() throws {
        var events: [OPMLEvent] = []
        #expect(throws: StorageError.self) {
            try OPMLReader.read(try OPMLFixtures.data("RSSFeed.opml"), file: "RSSFeed.opml") { events.append($0) }
        }
        #expect(events.isEmpty)
    }

    @Test func entityDeclarationsAreNeverExpanded() throws {
        // The billion-laughs file fails at once, without building gigabytes of text.
        let start = Date()
        #expect(throws: StorageError.self) {
            try OPMLReader.read(try OPMLFixtures.data("EntityExpansion.opml"), file: "EntityExpansion.opml") { _ in }
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }
}
