import Foundation
import OutlineStorage
import Testing

/// OPML whose text stops decoding part-way never reads as an empty outline: leniently, what came
/// before the error is kept with a warning naming the line; strictly, and when nothing came
/// before, it is an error.
@Suite struct OPMLEncodingErrorTests {
    static let hint =
        "Declare the file's encoding in its first line, such as <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>, "
        + "or save the file as UTF-8"

    @Test func leniently_whatCameBeforeTheErrorIsKeptWithAWarning() throws {
        let file = try OPMLReader.read(try OPMLFixtures.data("EncodingErrorPartWay.opml"), file: "trip.opml")
        #expect(file.outlines.map { "\($0.depth) \($0.attributes[named: "text"] ?? "")" } == ["1 Passport", "1 Tickets", "2 Train"])
        #expect(file.head.fields.map(\.value) == ["Trip"])
        #expect(
            file.warnings.map(\.description) == [
                "trip.opml: line 9: the file cannot be decoded from here on (Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 "
                    + "0x20 0x6E 0x65); the outline is read up to this line and the rest of the file is left out. \(Self.hint), then read "
                    + "it again to get the rest."
            ])
    }

    @Test func strictly_itIsAnError() throws {
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(try OPMLFixtures.data("EncodingErrorPartWay.opml"), file: "trip.opml", options: OPMLReader.Options(strict: true))
        }
        #expect(error.code == .malformedXML)
        #expect(
            error.description == "trip.opml: line 9: not well-formed XML (Input is not proper UTF-8, indicate encoding ! Bytes: "
                + "0xE9 0x20 0x6E 0x65). \(Self.hint).")
    }

    @Test func streamingFromDiskKeepsTheSameOutlinesAndWarning() throws {
        var outlines = 0
        let warnings = try OPMLReader.read(contentsOf: OPMLFixtures.url("EncodingErrorPartWay.opml"), file: "trip.opml") { event in
            if case .outline = event { outlines += 1 }
        }
        #expect(outlines == 3)
        #expect(warnings.count == 1 && warnings.first?.line == 9)
    }

    /// Bytes the declared UTF-7 cannot decode, before any outline: libxml2 stops with only a
    /// return code. Both modes report it; the lenient reader once returned an empty outline.
    @Test(arguments: [false, true])
    func anEncodingErrorBeforeAnyOutlineIsAnErrorInBothModes(strict: Bool) throws {
        let data = try Data(contentsOf: Fixtures.folder.appending(path: "Fuzz/opml/utf7-encoder-error.opml"))
        let error = try #require(throws: StorageError.self) {
            try OPMLReader.read(data, file: "utf7.opml", options: OPMLReader.Options(strict: strict))
        }
        #expect(error.description == "utf7.opml: line 2: not well-formed XML (bytes that the declared encoding cannot decode). \(Self.hint).")
    }
}
