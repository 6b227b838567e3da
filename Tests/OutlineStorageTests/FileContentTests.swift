import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Content detection (``FileContent``): XML by its root element, everything else that is text
/// is text, whatever it starts with.
@Suite struct FileContentTests {
    static let cases: [(text: String, content: FileContent)] = [
        ("", .empty),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>", .xmlStore(.utf8)),
        ("\u{FEFF}  <database>\n", .xmlStore(.utf8)),
        ("<?xml version=\"1.0\"?>\n<!-- a comment -->\n<opml version=\"2.0\">", .opml(.utf8)),
        ("<opml>", .opml(.utf8)),
        ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\">", .otherXML(root: "rss", .utf8)),
        ("<?xml version=\"1.0\"?>\n<!-- the root comes later", .otherXML(root: nil, .utf8)),
        ("<p align=\"center\">\n  <img src=\"logo.png\">\n</p>\n\n# Project\n", .text(.utf8)),
        ("<!DOCTYPE html>\n<html>", .text(.utf8)),
        ("<!-- a comment -->\n# Heading\n", .text(.utf8)),
        ("# Heading\n\n- item\n", .text(.utf8)),
        ("{\"json\": true}", .text(.utf8)),
        ("caf\u{E9}", .text(.utf8)),
    ]

    @Test(arguments: cases)
    func contentIsFoundFromTheRootElementOrIsText(text: String, content: FileContent) {
        #expect(FileContent.detect(Array(text.utf8)) == content)
    }

    @Test func utf16IsRecognisedWithAndWithoutAByteOrderMark() {
        let store = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<database>"
        #expect(FileContent.detect([0xFF, 0xFE] + Self.utf16(store, bigEndian: false)) == .xmlStore(.utf16LittleEndian))
        #expect(FileContent.detect([0xFE, 0xFF] + Self.utf16(store, bigEndian: true)) == .xmlStore(.utf16BigEndian))
        #expect(FileContent.detect(Self.utf16(store, bigEndian: false)) == .xmlStore(.utf16LittleEndian))
        #expect(FileContent.detect([0xFF, 0xFE] + Self.utf16("# Notes\n", bigEndian: false)) == .text(.utf16LittleEndian))
    }

    @Test func bytesThatAreNotTextAreUnknown() throws {
        #expect(FileContent.detect([0x00, 0x01, 0x02, 0xFF]) == .unknown)
        #expect(FileContent.detect(Array("caf".utf8) + [0xE9, 0x20]) == .unknown)
        #expect(FileContent.detect(try BinaryFixtures.bytes("small-outline.outline")) == .binary)
    }

    @Test func markupBeforeBytesThatAreNotUTF8TextStillNamesTheRoot() {
        // OPML in another encoding, or damaged part-way: the reader reports the bytes with their line.
        let opml = Array("<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body>".utf8) + [0xE9, 0x01, 0x00] + Array("</body></opml>".utf8)
        #expect(FileContent.detect(opml) == .opml(.utf8))
        let store = Array("<?xml version=\"1.0\"?>\n<database>".utf8) + [0xFF, 0xFE]
        #expect(FileContent.detect(store) == .xmlStore(.utf8))
        // Text that is not markup and not UTF-8 is no text file.
        #expect(FileContent.detect(Array("Groceries\n".utf8) + [0xFF, 0x01]) == .unknown)
    }

    @Test func aCharacterCutOffByThePrefixIsStillText() {
        let long = Array(String(repeating: "é", count: FileContent.prefixSize).utf8)
        #expect(FileContent.detect(Array(long.prefix(FileContent.prefixSize + 1))) == .text(.utf8))
    }

    /// A Core Data XML store saved as UTF-16 with a byte-order mark reads like its UTF-8 original,
    /// with or without the encoding declared (libxml2 needs the first bytes before the
    /// declaration to read `encoding="UTF-16" standalone="yes"`).
    @Test(arguments: [false, true], [false, true])
    func aUTF16XMLStoreReads(bigEndian: Bool, declared encodingDeclared: Bool) throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let original = String(decoding: try XMLFixture.data("NestedList.xml"), as: UTF8.self)
        #expect(original.hasPrefix("<?xml version=\"1.0\" standalone=\"yes\"?>"))
        let declared =
            encodingDeclared
            ? original.replacingOccurrences(of: "<?xml version=\"1.0\"", with: "<?xml version=\"1.0\" encoding=\"UTF-16\"") : original
        let path = folder + "/utf16.xml"
        try Data((bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + Self.utf16(declared, bigEndian: bigEndian)).write(to: URL(fileURLWithPath: path))
        let store = try PersistentStore.open(path, schema: try XMLFixture.nestedListSchema())
        #expect(store.format == .xml)
        let expected = try XMLFixture.read("NestedList.xml", schema: try XMLFixture.nestedListSchema())
        #expect(snapshot(store.context.graph) == snapshot(expected.graph))
    }

    @Test(arguments: [
        (
            "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body/></opml>\n",
            "byte 0: not an Outline document: it is an OPML file (UTF-8). Import it into a new document first; it reads as OPML."
        ),
        (
            "<p align=\"center\">\n# Project\n",
            "byte 0: not an Outline document: it is UTF-8 text, neither binary nor XML (it starts with \"<p align=\"center\">\"). "
                + "If it is Markdown or plain text, import it into a new document first; otherwise check that the right file was chosen."
        ),
    ])
    func openingAnInterchangeFileSaysWhatItIs(content: String, message: String) throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/doc.outline"
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StorageError.self) { try PersistentStore.open(path) }
        #expect(error.code == .unknownFormat)
        #expect(error.description == "\(path): \(message)")
    }

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }
}
