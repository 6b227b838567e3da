import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct InterchangeExtraAttributesTests {
    static let hint =
        "The stored OPML attributes of this item are damaged; clear them (they are only used to write OPML back) "
        + "or restore the document from a backup."

    @Test func encodingIsCompactAndFixed() {
        let extra = ExtraAttributes([
            .mapped(name: "text", spelling: nil), .kept(name: "id", value: "7"),
            .mapped(name: "created", spelling: "x"),
        ])
        #expect(
            [UInt8](extra.encoded()) == [0x01, 0x01, 0x04] + Array("text".utf8) + [0x00, 0x02] + Array("id".utf8) + [0x01]
                + Array("7".utf8) + [0x02, 0x07] + Array("created".utf8) + [0x01] + Array("x".utf8))
        #expect([UInt8](ExtraAttributes().encoded()) == [0x01])
    }

    @Test func decodingGivesBackWhatWasEncoded() throws {
        let long = String(repeating: "é", count: 200)  // 400 bytes: a two-byte count
        let extra = ExtraAttributes([
            .kept(name: "dc:subject", value: long), .mapped(name: "_status", spelling: nil),
            .kept(name: "empty", value: ""), .mapped(name: "collapsed", spelling: "1"),
            .kept(name: "名前", value: "値\n改行"),
        ])
        #expect(try ExtraAttributes(decoding: extra.encoded()) == extra)
        #expect(extra.kept.map(\.name) == ["dc:subject", "empty", "名前"])
    }

    @Test(arguments: [
        ([] as [UInt8], "byte 0: the data ends before the version byte"),
        ([0x02], "byte 0: unknown encoding version 2 (this build reads version 1)"),
        ([0x01, 0x07], "byte 1: unknown entry tag 7"),
        ([0x01, 0x01, 0x05, 0x61], "byte 2: an attribute name needs 5 bytes but only 1 remain"),
        ([0x01, 0x01, 0x81, 0x00, 0x61], "byte 2: the byte count of an attribute name is not in shortest form"),
        ([0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "byte 2: the byte count of an attribute name is too large"),
        ([0x01, 0x01, 0x01, 0xFF], "byte 3: an attribute name is not valid UTF-8"),
        ([0x01, 0x01, 0x03, 0x31, 0x61, 0x62], "byte 2: \"1ab\" is not an XML attribute name"),
        ([0x01, 0x01, 0x02, 0x61, 0x20], "byte 2: \"a \" is not an XML attribute name"),
        ([0x01, 0x01, 0x01, 0x61, 0x00, 0x01, 0x61, 0x00], "byte 5: the attribute name \"a\" appears twice"),
        ([0x01, 0x00, 0x01, 0x61], "byte 4: the data ends before the byte count of the value of a"),
    ])
    func damagedBytesAreReportedWithTheirOffset(bytes: [UInt8], message: String) throws {
        let error = try #require(throws: OutlineError.self) { try ExtraAttributes(decoding: Data(bytes)) }
        #expect(error.code == .corruptValue)
        #expect(error.description == "extraAttributes \(message). \(Self.hint)")
    }

    @Test func errorsNameTheItem() throws {
        let error = try #require(throws: OutlineError.self) { try ExtraAttributes(decoding: Data([0x09]), item: "item 2.3") }
        #expect(error.description == "item 2.3: extraAttributes byte 0: unknown encoding version 9 (this build reads version 1). \(Self.hint)")
    }

    @Test func itemsWithOnlyCanonicalAttributesStoreNothing() throws {
        let imported = try OPMLImporter.read(try InterchangeFixtures.opml("OmniOutliner.opml"), file: "OmniOutliner.opml")
        let document = imported.document
        // text + _status="checked": exactly what the exporter writes on its own.
        #expect(try document.extraAttributes(of: try document.item(at: .path([2, 1]))) == nil)
        #expect(try document.extraAttributes(of: try document.item(at: .path([3, 1]))) == nil)
        // _status="unchecked" has to be remembered, or it would not be written back.
        #expect(try document.extraAttributes(of: try document.item(at: .path([1, 2])))?.entries.count == 3)
    }

    @Test func attributesCanBeEditedThroughTheDocument() throws {
        let document = try SampleOutlines.emptyDocument()
        let item = try document.insertItem("Feed")
        try document.setExtraAttributes(ExtraAttributes([.kept(name: "xmlUrl", value: "https://example.com/feed")]), of: item)
        #expect(try document.extraAttributes(of: item)?.kept == [.init("xmlUrl", "https://example.com/feed")])
        document.context.undo()
        #expect(try document.extraAttributes(of: item) == nil)
    }
}

@Suite struct InterchangeRFC822Tests {
    @Test(arguments: [
        ("Sat, 09 Apr 2005 14:57:36 GMT", "Sat, 09 Apr 2005 14:57:36 GMT"),
        ("Tue, 12 Mar 2024 14:03:00 +0100", "Tue, 12 Mar 2024 13:03:00 GMT"),
        ("Tue, 12 Mar 2024 14:03:00 -05:30", "Tue, 12 Mar 2024 19:33:00 GMT"),
        ("5 Jan 24 09:30 PST", "Fri, 05 Jan 2024 17:30:00 GMT"),
        ("Monday, 1 January 1990 00:00:00 UT", "Mon, 01 Jan 1990 00:00:00 GMT"),
        ("29 Feb 2024 23:59:59 EDT", "Fri, 01 Mar 2024 03:59:59 GMT"),
        ("1 December 1969 12:00", "Mon, 01 Dec 1969 12:00:00 GMT"),
        ("2024-03-12T14:03:00Z", "Tue, 12 Mar 2024 14:03:00 GMT"),
    ])
    func readsLenientlyAndWritesInGMT(text: String, written: String) throws {
        let date = try #require(RFC822Date.parse(text))
        #expect(RFC822Date.format(date) == written)
    }

    @Test(arguments: [
        "yesterday", "", "31 Feb 2024 10:00 GMT", "12 Foo 2024 10:00 GMT", "12 Mar 2024 25:00 GMT",
        "12 Mar 2024 10:00 XYZ", "12 Mar 2024 10:00 GMT extra",
    ])
    func rejectsWhatIsNotADate(text: String) {
        #expect(RFC822Date.parse(text) == nil)
    }

    @Test func writingDropsFractionsOfASecond() {
        #expect(RFC822Date.format(Date(timeIntervalSince1970: 59.9)) == "Thu, 01 Jan 1970 00:00:59 GMT")
        #expect(RFC822Date.format(Date(timeIntervalSince1970: -0.5)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }
}
