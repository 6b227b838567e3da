import Foundation
import Testing

/// `outline convert` of OPML whose encoding breaks part-way: never an empty outline.
@Suite struct InterchangeEncodingTests {
    @Test func convertKeepsWhatCameBeforeTheErrorAndWarnsWithTheLine() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/EncodingErrorPartWay.opml", as: "trip.opml")
        let result = try box.run("convert", "trip.opml", "trip.outline")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.hasPrefix("Warning: trip.opml: line 9: the file cannot be decoded from here on"), "\(result)")
        let shown = try box.run("show", "trip.outline")
        #expect(shown.stdout == "1 Passport\n2 Tickets\n  2.1 Train\n", "\(shown)")
    }

    @Test func strictConversionRefusesAndWritesNothing() throws {
        let box = try CLISandbox()
        try box.copyFixture("OPML/EncodingErrorPartWay.opml", as: "trip.opml")
        let result = try box.run("convert", "trip.opml", "trip.outline", "--strict")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: trip.opml: line 9: not well-formed XML (Input is not proper UTF-8"), "\(result)")
        #expect(!box.exists("trip.outline"))
    }

    @Test func anEncodingErrorBeforeAnyItemIsAnErrorNotAnEmptyOutline() throws {
        let box = try CLISandbox()
        try box.copyFixture("Fuzz/opml/utf7-encoder-error.opml", as: "utf7.opml")
        let result = try box.run("convert", "utf7.opml", "out.outline")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: utf7.opml: line 2: not well-formed XML (bytes that the declared encoding cannot decode)."))
        #expect(!result.stderr.contains("encoding error :"), "libxml2's own messages stay off the terminal")
        #expect(!box.exists("out.outline"))
    }
}
