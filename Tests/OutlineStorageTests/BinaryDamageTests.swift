import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

/// Damaged and hostile input: every failure is a StorageError naming where, never a crash,
/// hang or unbounded allocation.
@Suite struct BinaryDamageTests {
    let small: [UInt8]
    let expected: [String]

    init() throws {
        small = try BinaryFixtures.bytes("small-outline.outline")
        expected = snapshot(try StoreTestSchemas.outline(12).graph)
    }

    @Test func everyTruncationIsReportedAsTruncated() throws {
        for length in 0 ..< small.count {
            let error = #expect(throws: StorageError.self) {
                try BinaryStore.read(Array(small[..<length]), schema: nil, file: "cut.outline")
            }
            #expect(error?.code == .truncated, "length \(length): \(String(describing: error))")
            #expect(error?.location?.hasPrefix("byte ") == true)
        }
    }

    /// A file cut inside the magic bytes is a truncated document, not an unknown format.
    @Test func aCutInsideTheMagicIsATruncatedDocument() throws {
        for length in 1 ..< 8 {
            let error = #expect(throws: StorageError.self) { try PersistentStore.load(Array(small[..<length]), name: "cut.outline") }
            #expect(error?.code == .truncated, "length \(length): \(String(describing: error))")
            #expect(error?.location == "byte \(length)")
        }
    }

    @Test func everySingleBitFlipIsDetected() throws {
        let bodyStart = try BinaryCrafting.bodyOffset(small)
        var codes: [StorageError.Code: Int] = [:]
        for index in small.indices {
            for bit in 0 ..< 8 {
                var damaged = small
                damaged[index] ^= 1 << bit
                do {
                    let (graph, _) = try BinaryStore.read(damaged, schema: nil, file: "flip.outline")
                    // Loading is acceptable only if nothing changed.
                    #expect(snapshot(graph) == expected, "byte \(index) bit \(bit) loaded differently")
                } catch let error as StorageError {
                    codes[error.code, default: 0] += 1
                    #expect(error.location?.hasPrefix("byte ") == true, "byte \(index) bit \(bit): \(error)")
                    if index >= bodyStart {
                        #expect(error.code == .checksumMismatch, "byte \(index) bit \(bit): \(error)")
                    }
                }
            }
        }
        // Flips of the magic say "not an Outline document", of the major version "newer version".
        #expect(Set(codes.keys).isSubset(of: [.checksumMismatch, .unknownFormat, .unsupportedVersion, .limitExceeded, .truncated]))
        #expect(codes.values.reduce(0, +) == small.count * 8)
    }

    @Test func hostileBodiesWithValidChecksumsNeverCrash() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var failures = 0
        for _ in 0 ..< 600 {
            let damaged = try BinaryCrafting.rewritingBody(small, level: 1) { body in
                for _ in 0 ..< Int.random(in: 1 ... 3, using: &generator) {
                    let index = Int.random(in: 0 ..< body.count, using: &generator)
                    switch Int.random(in: 0 ..< 3, using: &generator) {
                    case 0: body[index] = UInt8.random(in: 0 ... 255, using: &generator)
                    case 1: body.remove(at: index)
                    default: body.insert(UInt8.random(in: 0 ... 255, using: &generator), at: index)
                    }
                }
            }
            do {
                _ = try BinaryStore.read(damaged, schema: nil, file: "hostile.outline")
            } catch let error as StorageError {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures > 500)
    }

    @Test func aDecompressionBombIsRefusedBeforeAllocating() throws {
        // Three chunks declaring 4 GB each from ~4 MB each pass the ratio check but not the body limit;
        // the file holds none of those bytes, so only the header can have been looked at.
        let bomb = try BinaryCrafting.rewritingHeader(small) { header in
            header.chunks = (0 ..< 3).map { _ in .init(storedSize: 4_000_000, size: 4_000_000_000, crc: 0) }
        }
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bomb, schema: nil, file: "bomb.outline") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == "the body declares 12000000000 bytes inflated, over the limit of 8589934592")

        let limits = BinaryStore.Limits(maximumBodySize: 100)
        let small = #expect(throws: StorageError.self) { try BinaryStore.read(self.small, schema: nil, file: "s.outline", limits: limits) }
        #expect(small?.code == .limitExceeded)
    }

    @Test func anOversizedHeaderIsRefused() throws {
        var huge = small
        huge.replaceSubrange(12 ..< 16, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(huge, schema: nil, file: "h.outline") }
        #expect(
            error?.description
                == "h.outline: byte 12: the header declares 2147483647 bytes, over the limit of 268435456. The file is damaged or was made to exhaust memory; it was not loaded."
        )
    }

    @Test func unknownOptionalHeaderSectionsAreSkipped() throws {
        let extended = try BinaryCrafting.addingHeaderSection(small, id: 100, required: false, payload: [1, 2, 3])
        let (graph, _) = try BinaryStore.read(extended, schema: nil, file: "new.outline")
        #expect(snapshot(graph) == expected)
    }

    @Test func unknownRequiredHeaderSectionsAreRefused() throws {
        let extended = try BinaryCrafting.addingHeaderSection(small, id: 100, required: true, payload: [1, 2, 3])
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(extended, schema: nil, file: "new.outline") }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message == "the header has a required section 100 that this version does not know")
    }

    @Test func unknownBodySectionsAreSkippedOrRefused() throws {
        for required in [false, true] {
            let extended = try BinaryCrafting.rewritingBody(small) { body in
                // One more section: bump the count, add an entry after the objects entry, append the payload.
                body[0] = 2
                body.insert(contentsOf: [9, required ? 1 : 0, 2, 0, 0, 0, 0, 0, 0, 0], at: 11)
                body += [0xAB, 0xCD]
            }
            if required {
                let error = #expect(throws: StorageError.self) { try BinaryStore.read(extended, schema: nil, file: "b.outline") }
                #expect(
                    error?.description
                        == "b.outline: body byte 11: the body has a required section 9 that this version does not know. It was written by a newer version of Outline; open it with that version."
                )
            } else {
                #expect(snapshot(try BinaryStore.read(extended, schema: nil, file: "b.outline").0) == expected)
            }
        }
    }

    /// The header alone tells a truncated file, or bytes after the body, from the sizes it
    /// declares (`outline info`), as a full read does; reading the metadata still works.
    @Test func theHeaderAloneFindsATruncatedOrExtendedFile() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/t.outline"
        try Data(small.dropLast(3)).write(to: URL(fileURLWithPath: path))
        let truncated = #expect(throws: StorageError.self) { try PersistentStore.checkLength(try DocumentFile.open(path)) }
        #expect(truncated?.code == .truncated)
        #expect(truncated?.message == "the compressed body ends early (expected 3 more bytes)", "\(String(describing: truncated))")
        #expect(try PersistentStore.readMetadata(path).objectCounts != nil, "the metadata reads all the same")
        try Data(small + [0]).write(to: URL(fileURLWithPath: path))
        let extended = #expect(throws: StorageError.self) { try PersistentStore.checkLength(try DocumentFile.open(path)) }
        #expect(extended?.code == .corrupt)
        try Data(small).write(to: URL(fileURLWithPath: path))
        try PersistentStore.checkLength(try DocumentFile.open(path))
    }

    @Test func trailingBytesAfterTheBodyAreReported() throws {
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(small + [0], schema: nil, file: "t.outline") }
        #expect(
            error?.description
                == "t.outline: byte \(small.count): the body is followed by 1 byte of unexpected data. The file is damaged; restore it from a backup if there is one."
        )
    }
}

/// A small deterministic generator for reproducible fuzzing.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension BinaryDamageTests {
    /// A body for the small outline's 12 items (ids 102...113, no attributes) whose
    /// `Item.children` lists are `lists` (rows; missing rows are empty).
    func body(children lists: [Int: [Int]]) -> [UInt8] {
        var objects = ByteWriter()
        objects.writeVarint(1)
        objects.writeString("Item")
        objects.writeVarint(12)
        objects.writeVarint(UInt64(102))
        for _ in 1 ..< 12 { objects.writeVarint(0) }
        objects.writeVarint(0)  // attribute columns
        objects.writeVarint(1)  // relationship columns
        objects.writeString("children")
        objects.writeByte(1)
        objects.writeVarint(1)
        objects.writeVarint(0)
        for row in 0 ..< 12 {
            let members = lists[row] ?? []
            objects.writeVarint(members.count)
            for (i, member) in members.enumerated() {
                if i == 0 { objects.writeVarint(member) } else { objects.writeSignedVarint(Int64(member - members[i - 1])) }
            }
        }
        var body = ByteWriter()
        body.writeVarint(1)
        body.writeVarint(1)
        body.writeVarint(1)
        body.writeUInt64(UInt64(objects.count))
        body.writeBytes(objects.bytes)
        return body.bytes
    }

    @Test func aCraftedBodyWithValidListsLoads() throws {
        let file = try BinaryCrafting.rewritingBody(small) { $0 = body(children: [0: [1, 2], 1: [3]]) }
        let (graph, _) = try BinaryStore.read(file, schema: nil, file: "ok.outline")
        #expect(graph.relatedObject(of: ManagedObject(entity: 0, row: 3), 1) == ManagedObject(entity: 0, row: 1))
        #expect(graph.relatedObject(of: ManagedObject(entity: 0, row: 0), 1) == nil)
    }

    @Test(arguments: [
        ([0: [1, 1]], "body byte 46: Item.children of object z102 lists an object that already has a parent"),
        ([0: [1, 2], 4: [2]], "body byte 51: Item.children of object z106 lists an object that already has a parent"),
    ])
    func anObjectInTwoChildListsIsCorrupt(lists: [Int: [Int]], message: String) throws {
        let file = try BinaryCrafting.rewritingBody(small) { $0 = body(children: lists) }
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(file, schema: nil, file: "twice.outline") }
        #expect(error?.code == .corrupt)
        #expect(error.map { "\($0.location ?? ""): \($0.message)" } == message)
    }
}
