import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// The binary fixtures under `Fixtures/Binary/` (see `Fixtures/README.md`) and how they are made.
enum BinaryFixtures {
    static let folder = Fixtures.folder.appending(path: "Binary")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appending(path: name)))
    }

    static let uuid = UUID(uuidString: "0E1A2B3C-4D5E-4F60-8172-839405A6B7C8")!

    /// The valid small document every damaged fixture derives from.
    static func makeSmallOutline() throws -> [UInt8] {
        var metadata = StoreMetadata(format: .binary, uuid: uuid)
        metadata[custom: "author"] = .string("fixtures")
        return try BinaryStore.write(try StoreTestSchemas.outline(12).graph, metadata: metadata, level: 6)
    }

    /// The small document after four edits, one of them undone, keeping its undo history (a
    /// history section, minor version 1): renaming an item, deleting one with its children,
    /// adding one, undoing the add.
    static func makeWithHistory() throws -> [UInt8] {
        let context = try StoreTestSchemas.outline(12)
        context.removeAllUndoSteps()
        context.markSaved()
        let items = try context.objects(ofEntity: "Item")
        try context.setValue(.string("Renamed – é"), forKey: "title", of: items[1])
        try context.delete(items[2])
        try context.perform("Add item") {
            let new = try context.insert("Item")
            try context.setValue(.string("New"), forKey: "title", of: new)
            try context.add(new, toKey: "children", of: items[0])
        }
        context.undo()
        var metadata = StoreMetadata(format: .binary, uuid: uuid)
        metadata[custom: "author"] = .string("fixtures")
        let history = HistoryCoding.encode(context.exportUndoHistory(), stepLimit: HistoryLimits.defaultSteps).bytes
        return try StoreCodec.write(
            context.graph.snapshot(), metadata: metadata, format: .binary, level: 6, file: nil,
            history: HistoryPayload(bytes: history, fillsDigest: true))
    }

    /// Every fixture, by file name.
    static func makeAll() throws -> [String: [UInt8]] {
        let small = try makeSmallOutline()
        let body = try BinaryCrafting.bodyOffset(small)
        var flippedBody = small
        flippedBody[body + (small.count - body) / 2] ^= 0x08
        var flippedHeader = small
        flippedHeader[40] ^= 0x01
        var futureVersion = small
        futureVersion[8] = 2

        let danglingReference = try BinaryCrafting.rewritingBody(small) { body in
            // The last byte is the member count of the last row of Item.children (a leaf, 0).
            // Make it one member at row 127 of a 12-row table, and fix the objects section length.
            body.removeLast()
            body += [1, 0x7F]
            body[3] &+= 1
        }
        let bomb = try BinaryCrafting.rewritingHeader(small) { header in
            header.chunks[0].size = 4_000_000_000
        }
        let brokenModel = try BinaryCrafting.rewritingHeader(small) { header in
            header.modelContents = String(header.modelContents.prefix(200))
        }
        var otherMetadata = StoreMetadata(format: .binary, uuid: uuid)
        otherMetadata[custom: "author"] = .string("fixtures")
        let otherContext = EditingContext(
            schema: try Schema(
                name: "OtherList",
                entities: [
                    Entity(name: "Item", attributes: [Attribute(name: "title", type: .string, isOptional: false)])
                ]))
        try otherContext.setValue(.string("only"), forKey: "title", of: try otherContext.insert("Item"))
        let otherModel = try BinaryStore.write(otherContext.graph, metadata: otherMetadata, level: 6)

        return [
            "small-outline.outline": small,
            "truncated-body.outline": Array(small.dropLast(40)),
            "flipped-body-bit.outline": flippedBody,
            "flipped-header-bit.outline": flippedHeader,
            "dangling-reference.outline": danglingReference,
            "decompression-bomb.outline": bomb,
            "future-version.outline": futureVersion,
            "other-model.outline": otherModel,
            "broken-embedded-model.outline": brokenModel,
            "not-an-outline.outline": Array("Shopping list\n- milk\n".utf8),
            "with-history.outline": try makeWithHistory(),
        ]
    }
}

@Suite struct BinaryFixtureGenerator {
    /// Rewrites `Fixtures/Binary/`. Run with `OUTLINE_REGENERATE_FIXTURES=1 swift test --filter BinaryFixtureGenerator`
    /// after a deliberate format change, then update the messages the fixture tests expect.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["OUTLINE_REGENERATE_FIXTURES"] == "1"))
    func regenerateFixtures() throws {
        try FileManager.default.createDirectory(at: BinaryFixtures.folder, withIntermediateDirectories: true)
        for (name, bytes) in try BinaryFixtures.makeAll() {
            try Data(bytes).write(to: BinaryFixtures.folder.appending(path: name))
        }
    }

    /// The committed fixtures are what the generator makes (with this build's zlib).
    @Test func committedFixturesMatchTheGenerator() throws {
        for (name, bytes) in try BinaryFixtures.makeAll() {
            #expect(try BinaryFixtures.bytes(name) == bytes, "\(name) differs from what the generator makes")
        }
    }
}
