import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Dates and numbers at their edges in OPML (issue 21): values that trapped the reader or the
/// exporter, and years before 1000 that were written without four digits (year 5 read back as 2005).
@Suite struct InterchangeDateEdgeTests {
    static func opml(outline: String, head: String = "") -> Data {
        Data("<?xml version=\"1.0\"?><opml version=\"2.0\"><head>\(head)</head><body>\(outline)</body></opml>".utf8)
    }

    @Test(arguments: [
        "01 Jan 999999999999", "01 Jan 10000 00:00 GMT", "31 Dec 9999 23:59:59 -2359", "01 Jan 99999999999999999999",
        "99999999999999999999-01-01T00:00:00Z", "9999-12-31T23:59:60-23:59",
    ])
    func aCreatedDateOutsideTheYears0To9999IsKeptAsTextWithAWarning(_ value: String) throws {
        let imported = try OPMLImporter.read(Self.opml(outline: "<outline text=\"a\" created=\"\(value)\"/>"), file: "d.opml")
        let item = try #require(imported.document.items.first)
        #expect(imported.document.created(of: item) == nil)
        #expect(imported.warnings.map(\.message) == ["created=\"\(value)\" is not an RFC 822 date; kept as it is"])
        // And it goes back out as it came.
        let exported = try OPMLExporter.write(imported.document)
        #expect(exported.data.utf8Text.contains("created=\"\(value)\""))
    }

    @Test func hugeAndZeroBasedExpansionStateEntriesAreNotRows() throws {
        let imported = try OPMLImporter.read(
            Self.opml(
                outline: "<outline text=\"a\"><outline text=\"b\"/></outline>",
                head: "<expansionState>0,9223372036854775807,-9223372036854775808,2147483647</expansionState>"),
            file: "e.opml")
        #expect(imported.document.summary == ["a", "  b"])
        #expect(imported.warnings.count == 1)
        #expect(imported.warnings.first?.message.contains("9223372036854775807") == true, "\(imported.warnings)")
    }

    /// Year 5 is written `0005` and reads back as year 5, not 2005; the same for every year
    /// below 1000, and ISO 8601 input counts in the same (proleptic Gregorian) calendar.
    @Test(arguments: [0, 5, 99, 999, 1000, 1582, 2024, 9999] as [Int64])
    func yearsBefore1000AreWrittenWithFourDigitsAndReadBack(_ year: Int64) throws {
        let text = "01 Jan \(String(repeating: "0", count: 4 - String(year).count))\(year) 00:00:00 GMT"
        let date = try #require(RFC822Date.parse(text))
        let written = try #require(RFC822Date.format(date))
        #expect(written.hasSuffix("Jan \(text.dropFirst(7))"))
        #expect(RFC822Date.parse(written) == date)
        let iso = "\(text.dropFirst(7).prefix(4))-01-01T00:00:00Z"
        #expect(RFC822Date.parse(iso) == date)
    }

    @Test func theYear5GoesThroughOPMLExportAndImportUnchanged() throws {
        let document = try SampleOutlines.emptyDocument()
        let item = try document.insertItem("ancient")
        let year5 = try #require(RFC822Date.parse("Sat, 01 Jan 0005 00:00:00 GMT"))
        try document.context.setValue(.date(year5), forKey: "created", of: item)
        let exported = try OPMLExporter.write(document)
        #expect(exported.data.utf8Text.contains("created=\"Sat, 01 Jan 0005 00:00:00 GMT\""))
        let again = try OPMLImporter.read(exported.data, file: "again.opml")
        #expect(again.document.created(of: try #require(again.document.items.first)) == year5)
    }

    /// A date no RFC 822 date spells (set through the API: files with such dates do not load)
    /// is left out of the export with a warning, never trapping.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308, -1e300, StoreLimits.endOfDates])
    func anItemWhoseDateCannotBeWrittenIsExportedWithoutItAndAWarning(_ seconds: Double) throws {
        let document = try SampleOutlines.emptyDocument()
        let first = try document.insertItem("first")
        try document.insertItem("second")
        try document.context.setValue(.date(Date(timeIntervalSinceReferenceDate: seconds)), forKey: "created", of: first)
        let exported = try OPMLExporter.write(document)
        // Only the second item, made now, keeps its date.
        #expect(exported.data.utf8Text.components(separatedBy: "created=").count == 2)
        #expect(exported.data.utf8Text.contains("<outline text=\"first\"/>"))
        #expect(
            exported.warnings.map(\.message).contains(
                "1 item's created date is not in the years 0 to 9999 and cannot be written as RFC 822; left out (first: item 1)"),
            "\(exported.warnings)")
    }
}
