import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Small binary documents that claim far more than their size: refused from the header alone,
/// before anything is inflated or allocated (issue 21: a 100 KB file declaring 10^8 objects
/// took 3.3 GB, a 3 MB file of valid zlib chunks filled 3 GB). And the writer keeps every
/// document it writes within those limits, however well it compresses.
@Suite struct BinaryBombTests {
    static let small = (try? [UInt8](Data(contentsOf: Fixtures.folder.appending(path: "Binary/small-outline.outline")))) ?? []

    @Test func objectCountsFarOverTheCompressedSizeAreRefusedBeforeInflating() throws {
        let bomb = try BinaryCrafting.rewritingHeader(Self.small) { header in
            header.objectCounts = header.objectCounts.map { ($0.name, $0.count == 0 ? 0 : 100_000_000) }
        }
        let stored = try Self.small.withUnsafeBytes { try BinaryHeader.read($0, file: "b", limits: .default) }.storedBodySize
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bomb, schema: nil, file: "rows.outline") }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.message
                == "the header declares 100000000 objects in a body of \(stored) compressed bytes, more than 64 per byte (the limit past 1048576 objects)"
        )
        // The offset where the body starts, which nothing has read yet.
        #expect(error?.location == "byte \(try BinaryCrafting.bodyOffset(Self.small) + 3)")
    }

    /// 40 MB of zeros after the body, compressed about 1000:1: valid zlib that the body decoder
    /// would refuse only after inflating all of it.
    @Test func aBodyInflatingFarOverItsCompressedSizeIsRefusedBeforeInflating() throws {
        let bomb = try BinaryCrafting.rewritingBody(Self.small, level: 9) { body in body += [UInt8](repeating: 0, count: 40 << 20) }
        let header = try bomb.withUnsafeBytes { try BinaryHeader.read($0, file: "b", limits: StoreLimits(maximumInflateRatio: .max)) }
        #expect(header.bodySize > 250 * header.storedBodySize)
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bomb, schema: nil, file: "zeros.outline") }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.message
                == "the body declares \(header.bodySize) bytes inflated from \(header.storedBodySize) compressed ones, more than 256 times as many (the limit past 16777216 bytes)"
        )
        #expect(error?.hint == "The file is damaged or was made to exhaust memory; it was not loaded.")
    }

    /// A body of 40 MB that zlib squeezes about 1000:1 (one long run of one letter): the writer
    /// stores chunks uncompressed until the file is at least 1/256 of the body, so it reads back.
    @Test func theWriterKeepsAWellCompressingBodyWithinTheInflateRatio() throws {
        let context = EditingContext(schema: try StoreTestSchemas.nestedList())
        try context.setValue(.string(String(repeating: "a", count: 40 << 20)), forKey: "title", of: try context.insert("Item"))
        let bytes = try BinaryStore.write(context.graph, metadata: StoreMetadata(format: .binary), level: 9)
        let header = try bytes.withUnsafeBytes { try BinaryHeader.read($0, file: "b", limits: .default) }
        #expect(header.bodySize <= 256 * header.storedBodySize)
        #expect(header.storedBodySize < header.bodySize / 8, "stores only the chunks it must")
        #expect(snapshot(try BinaryStore.read(bytes, schema: nil, file: "a.outline").0) == snapshot(context.graph))
    }

    /// Two million objects without values compress to a few bytes each at most: the writer
    /// keeps them within 64 objects per compressed byte, and they read back.
    @Test func theWriterKeepsManyEmptyObjectsWithinTheObjectsPerByte() throws {
        let schema = try StoreTestSchemas.nestedList()
        let count = 2_000_000
        var loader = GraphLoader(schema: schema)
        loader.appendObjects(entity: 0, ids: (0 ..< UInt64(count)).map { 102 + $0 })
        loader.withTable(0) { table in
            for a in table.attributes.indices { table.attributes[a] = .allNil(type: table.attributes[a].type, rows: count) }
            table.relationships[0].many = ListColumn(emptyRows: count)
            table.relationships[1].single = PagedArray(repeating: RelationshipColumn.none, count: count)
        }
        let graph = try loader.finish()
        let bytes = try BinaryStore.write(graph, metadata: StoreMetadata(format: .binary), level: 9)
        let header = try bytes.withUnsafeBytes { try BinaryHeader.read($0, file: "b", limits: .default) }
        #expect(count <= 64 * header.storedBodySize)
        #expect(try BinaryStore.read(bytes, schema: nil, file: "many.outline").0.objectCount == count)
    }
}
