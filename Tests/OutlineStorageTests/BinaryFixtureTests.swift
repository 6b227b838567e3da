import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// One damaged fixture per error code of binary reading, each with its full message.
@Suite struct BinaryFixtureTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var fixture: String
        var code: StorageError.Code
        var message: String
        /// Open with the nested-list model instead of the embedded one.
        var withModel = false
        var testDescription: String { fixture }
    }

    static let cases: [Case] = [
        Case(
            fixture: "truncated-body.outline", code: .truncated,
            message:
                "truncated-body.outline: byte 1132: the compressed body ends early (expected 40 more bytes). The file is truncated; restore it from a backup if there is one."
        ),
        Case(
            fixture: "flipped-body-bit.outline", code: .checksumMismatch,
            message:
                "flipped-body-bit.outline: byte 1030: the body (bytes 1030 to 1171) fails its checksum (stored 0xb4dcceda, computed 0xd3a726df). The file was damaged after it was written; restore it from a backup if there is one."
        ),
        Case(
            fixture: "flipped-header-bit.outline", code: .checksumMismatch,
            message:
                "flipped-header-bit.outline: byte 16: the header checksum does not match (stored 0x9730585f, computed 0x599624d0). The file was damaged after it was written; restore it from a backup if there is one."
        ),
        Case(
            fixture: "dangling-reference.outline", code: .corrupt,
            message:
                "dangling-reference.outline: body byte 272: Item.children of object z113 refers to row 127 of entity Item, which has 12 objects. The file is damaged; restore it from a backup if there is one."
        ),
        Case(
            fixture: "decompression-bomb.outline", code: .limitExceeded,
            message:
                "decompression-bomb.outline: byte 91: chunk 1 declares 4000000000 bytes inflated from 142 compressed bytes, more than zlib can expand (1032:1). The file is damaged or was made to exhaust memory; it was not loaded."
        ),
        Case(
            fixture: "future-version.outline", code: .unsupportedVersion,
            message:
                "future-version.outline: byte 8: the file has format version 2.0; this version reads 1.x. It was written by a newer version of Outline; open it with that version."
        ),
        Case(
            fixture: "other-model.outline", code: .incompatibleModel,
            message:
                "other-model.outline: the document was saved with a different model (entities Item). Open it with the model it was saved with, or migrate it to this model.\n  - Item: the entity changed",
            withModel: true),
        Case(
            fixture: "broken-embedded-model.outline", code: .malformedXML,
            message:
                "broken-embedded-model.outline (embedded model): line 2: not well-formed XML (Specification mandates value for attribute minimumToolsVersi). The model the document embeds is damaged; open it with its model given, or restore it from a backup if there is one."
        ),
        Case(
            fixture: "not-an-outline.outline", code: .unknownFormat,
            message:
                "not-an-outline.outline: byte 0: not an Outline binary document (the file does not start with the binary magic). Open it as the kind of file it is, or check that the right file was chosen."
        ),
    ]

    @Test(arguments: cases)
    func damagedFixtureFailsWithItsMessage(_ c: Case) throws {
        let bytes = try BinaryFixtures.bytes(c.fixture)
        let schema = c.withModel ? try StoreTestSchemas.nestedList() : nil
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bytes, schema: schema, file: c.fixture) }
        #expect(error?.code == c.code)
        #expect(error?.description == c.message)
    }

    @Test func theSmallOutlineFixtureLoads() throws {
        let (graph, metadata) = try BinaryStore.read(try BinaryFixtures.bytes("small-outline.outline"), schema: nil, file: "small-outline.outline")
        #expect(snapshot(graph) == snapshot(try StoreTestSchemas.outline(12).graph))
        #expect(metadata[custom: "author"] == .string("fixtures"))
        #expect(metadata.uuid == BinaryFixtures.uuid)
    }
}
