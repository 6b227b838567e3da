import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

/// Saving deflates a body's chunks while the body is still being encoded (`DeflatePipeline`):
/// the file must be the very bytes that encoding the whole body and then deflating it gives.
@Suite struct DeflatePipelineTests {
    static let chunk = BinaryFormat.chunkSize

    /// Writes the same values to `w`: small values that straddle chunk boundaries, runs of
    /// bytes longer than a chunk, a placeholder at byte 4 patched at the end, and a digest
    /// taken over everything from byte 12; `total` bytes in all (about). Returns the digest.
    static func writeSample(into w: inout ByteWriter, total: Int) -> [UInt8] {
        w.writeVarint(UInt64(300))
        w.writeUInt16(7)
        let placeholder = w.count
        w.writeUInt64(0)
        w.startDigest()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let run = [UInt8]((0 ..< chunk + 1000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        while w.count < total {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch seed >> 61 {
            case 0: w.writeBytes(run[..<min(run.count, Int(seed >> 40) % run.count + 1)])
            case 1: w.writeDouble(Double(bitPattern: seed))
            case 2: w.writeString("item \(seed % 1000)")
            case 3: w.writeSignedVarint(Int64(bitPattern: seed))
            default: w.writeVarint(seed >> (seed % 64))
            }
        }
        w.patchUInt64(UInt64(w.count), at: placeholder)
        return w.finishDigest()
    }

    /// The pieces of a streaming writer given `sample`, and the same bytes written whole.
    static func bothWays(total: Int, level: Int = 1) -> (streamed: [ChunkCompression.Piece], whole: [UInt8], digests: ([UInt8], [UInt8])) {
        var streaming = ByteWriter(streamingTo: DeflatePipeline(level: level))
        let streamedDigest = writeSample(into: &streaming, total: total)
        var plain = ByteWriter()
        let plainDigest = writeSample(into: &plain, total: total)
        return (streaming.finish(), plain.bytes, (streamedDigest, plainDigest))
    }

    @Test(arguments: [100, chunk - 3, chunk, chunk + 1, 3 * chunk + 17])
    func streamedChunksAreTheChunksOfTheWholeBody(_ total: Int) throws {
        let (streamed, whole, _) = Self.bothWays(total: total)
        let expected = whole.withUnsafeBytes { ChunkCompression.deflate($0, level: 1) }
        #expect(streamed.count == expected.count)
        #expect(streamed.count == (whole.count + Self.chunk - 1) / Self.chunk)
        for (mine, theirs) in zip(streamed, expected) {
            #expect(mine.chunk.size == theirs.chunk.size)
            #expect(mine.chunk.crc == theirs.chunk.crc)
            #expect(mine.bytes == theirs.bytes)
        }
    }

    @Test func aPatchInTheFirstChunkReachesTheFileAfterLaterChunksLeft() throws {
        let (streamed, whole, _) = Self.bothWays(total: 2 * Self.chunk + 5)
        var inflated = [UInt8](repeating: 0, count: streamed[0].chunk.size)
        let result = inflated.withUnsafeMutableBytes { out in streamed[0].bytes.withUnsafeBytes { Zlib.inflate($0, into: out) } }
        #expect(result == .ok)
        #expect(Array(inflated[4 ..< 12]) == Array(whole[4 ..< 12]))
        let patched = whole.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self) }
        #expect(Int(UInt64(littleEndian: patched)) == whole.count)
    }

    @Test(arguments: [1000, 2 * chunk + 99])
    func theDigestCoversTheBytesWrittenSinceItStarted(_ total: Int) throws {
        let (_, whole, (streamed, plain)) = Self.bothWays(total: total)
        let expected = whole.withUnsafeBytes { StateDigest.of(objectsSection: UnsafeRawBufferPointer(rebasing: $0[12...])) }
        #expect(streamed == expected)
        #expect(plain == expected)
    }

    @Test func aSavedBodyWithAHistoryIsTheBodyEncodedWhole() throws {
        let (graph, _) = try BinaryStreamingOpenTests.bigDocument()
        let snapshot = graph.snapshot()
        let encoder = BodyEncoder(graph: snapshot)
        let payload = [UInt8](repeating: 0xA5, count: 200)
        let history = HistoryPayload(bytes: payload, fillsDigest: true)
        let pieces = encoder.encodeDeflated(history: history, level: 1)
        #expect(pieces.count >= 3)
        let whole = encoder.encode(history: history)
        var inflated = [UInt8](repeating: 0, count: pieces.reduce(0) { $0 + $1.chunk.size })
        var offset = 0
        for piece in pieces {
            let result = inflated.withUnsafeMutableBytes { out in
                piece.bytes.withUnsafeBytes {
                    Zlib.inflate($0, into: UnsafeMutableRawBufferPointer(rebasing: out[offset ..< offset + piece.chunk.size]))
                }
            }
            #expect(result == .ok)
            offset += piece.chunk.size
        }
        #expect(inflated == whole)
        // The history section ends the body, its digest that of the objects alone.
        let filled = HistoryCoding.filling(payload, digest: StateDigest.of(snapshot))
        #expect(Array(whole.suffix(filled.count)) == filled)
    }

    @Test func aDocumentSavedToAFileIsTheDocumentEncodedWhole() throws {
        let (graph, _) = try BinaryStreamingOpenTests.bigDocument()
        let folder = try TemporaryFolder.make("deflate-pipeline")
        defer { TemporaryFolder.remove(folder) }
        let path = folder.appending(path: "big.outline").path
        let metadata = StoreMetadata(format: .binary)
        _ = try StoreCodec.save(graph.snapshot(), metadata: metadata, format: .binary, level: 1, to: path, keepBackup: false, limits: .default)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes == (try BinaryStore.write(graph, metadata: metadata)))
        let (read, _) = try BinaryStore.read(bytes, schema: nil, file: path)
        #expect(snapshot(read) == snapshot(graph))
    }
}
