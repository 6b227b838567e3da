import Dispatch
import Foundation

/// The body as independently compressed chunks, deflated and inflated on all cores.
enum ChunkCompression {
    /// One compressed chunk and its header entry.
    struct Piece {
        var chunk: BinaryHeader.Chunk
        var bytes: [UInt8]
    }

    /// Cuts `body` into ``BinaryFormat/chunkSize`` pieces and deflates them in parallel, then
    /// keeps the document within the default inflate ratio and objects per compressed byte
    /// (``StoreLimits``), which readers check: while the compressed body is smaller than
    /// those need, the chunk that compressed best is stored instead (zlib level 0). A body
    /// that compresses over 256:1 thus grows to 1/256 of its size, never more.
    ///
    /// - Parameter objects: how many objects the body holds.
    static func deflate(_ body: UnsafeRawBufferPointer, level: Int, objects: Int) -> [Piece] {
        var pieces = deflate(body, level: level)
        let needed = StoreLimits.default.minimumStoredSize(bodySize: body.count, objects: objects)
        var stored = pieces.reduce(0) { $0 + $1.chunk.storedSize }
        guard stored < needed else { return pieces }
        // Best compressed first; ties in chunk order, so the output depends on the body alone.
        let order = pieces.indices.sorted {
            let a = pieces[$0].chunk
            let b = pieces[$1].chunk
            let lhs = a.size * b.storedSize
            let rhs = b.size * a.storedSize
            return lhs != rhs ? lhs > rhs : $0 < $1
        }
        for index in order where stored < needed {
            let size = BinaryFormat.chunkSize
            let lower = index * size
            let input = UnsafeRawBufferPointer(rebasing: body[lower ..< min(body.count, lower + size)])
            let bytes = Zlib.deflate(input, level: 0)
            stored += bytes.count - pieces[index].chunk.storedSize
            let crc = bytes.withUnsafeBytes { Zlib.crc32($0) }
            pieces[index] = Piece(chunk: .init(storedSize: bytes.count, size: input.count, crc: crc), bytes: bytes)
        }
        return pieces
    }

    /// Cuts `body` into ``BinaryFormat/chunkSize`` pieces and deflates them in parallel.
    static func deflate(_ body: UnsafeRawBufferPointer, level: Int) -> [Piece] {
        let size = BinaryFormat.chunkSize
        let count = max(1, (body.count + size - 1) / size)
        var pieces = [Piece](repeating: Piece(chunk: .init(storedSize: 0, size: 0, crc: 0), bytes: []), count: count)
        pieces.withUnsafeMutableBufferPointer { output in
            let shared = SharedBuffers(input: body, pieces: output)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let lower = index * size
                let input = UnsafeRawBufferPointer(rebasing: shared.input[lower ..< min(shared.input.count, lower + size)])
                let bytes = Zlib.deflate(input, level: level)
                let crc = bytes.withUnsafeBytes { Zlib.crc32($0) }
                shared.pieces[index] = Piece(chunk: .init(storedSize: bytes.count, size: input.count, crc: crc), bytes: bytes)
            }
        }
        return pieces
    }

    /// What became of one chunk while reading.
    private enum Outcome {
        case ok
        case checksum(computed: UInt32)
        case inflate(Zlib.InflateResult)
    }

    /// Checks the stored body of the document `bytes` against `header`, inflates it into one
    /// buffer of exactly the declared size and calls `body` with it.
    ///
    /// The buffer is allocated only after the file size, the limits and every chunk's CRC-32
    /// have been checked; it is unmapped when `body` returns. `body` may give back the pages it
    /// has read through ``InflatedBuffer/release(below:)``.
    static func withInflatedBody<R>(
        _ bytes: UnsafeRawBufferPointer, header: BinaryHeader, file: String,
        _ body: (UnsafeRawBufferPointer, InflatedBuffer) throws -> R
    ) throws -> R {
        try withInflatingBody(bytes, header: header, file: file) { buffer, inflated, feed in
            _ = try feed.wait(until: buffer.count)
            return try body(buffer, inflated)
        }
    }

    /// ``withInflatedBody(_:header:file:_:)``, but `body` is called while the chunks still
    /// inflate on all cores, in body order as far as they can: it must read the buffer only up
    /// to where `feed` says (a ``ByteCursor`` made with the feed does that), so decoding runs
    /// beside inflating.
    ///
    /// A chunk that fails its checksum or does not inflate to its declared size is reported
    /// (the first in file order, checksums first) before any error `body` throws, as when the
    /// whole body was inflated first; no thread touches `bytes` or the buffer once this returns.
    static func withInflatingBody<R>(
        _ bytes: UnsafeRawBufferPointer, header: BinaryHeader, file: String,
        _ body: (UnsafeRawBufferPointer, InflatedBuffer, InflateFeed) throws -> R
    ) throws -> R {
        try header.checkFileSize(bytes.count, file: file)
        let start = header.size
        var input = start
        var output = 0
        let offsets = header.chunks.map { chunk -> (input: Int, output: Int) in
            defer {
                input += chunk.storedSize
                output += chunk.size
            }
            return (input, output)
        }
        let chunks = header.chunks
        var outcomes = [Outcome](repeating: .ok, count: header.chunks.count)
        // Checksums first, on all cores, before the output buffer exists.
        outcomes.withUnsafeMutableBufferPointer { results in
            let shared = SharedOutcomes(input: bytes, outcomes: results)
            DispatchQueue.concurrentPerform(iterations: chunks.count) { i in
                let chunk = chunks[i]
                let crc = Zlib.crc32(UnsafeRawBufferPointer(rebasing: shared.input[offsets[i].input ..< offsets[i].input + chunk.storedSize]))
                if crc != chunk.crc { shared.outcomes[i] = .checksum(computed: crc) }
            }
        }
        try report(outcomes, header: header, offsets: offsets, file: file)

        guard let inflated = InflatedBuffer(count: output) else {
            throw StorageError(
                .limitExceeded, file: file, "there is no memory for the \(BinaryError.byteCount(output)) the body inflates to",
                hint: output >= bytes.count * 8 && output > StoreLimits.inflateAllowance
                    ? "The file claims far more than its size; it may be damaged or made to exhaust memory."
                    : "Close other programs, or open the document on a machine with more memory.")
        }
        let buffer = inflated.bytes
        return try outcomes.withUnsafeMutableBufferPointer { results in
            let shared = SharedOutcomes(input: bytes, outcomes: results, output: buffer)
            let feed = InflateFeed(sizes: chunks.map(\.size)) { i in
                let chunk = chunks[i]
                let source = UnsafeRawBufferPointer(rebasing: shared.input[offsets[i].input ..< offsets[i].input + chunk.storedSize])
                let target = UnsafeMutableRawBufferPointer(rebasing: shared.output[offsets[i].output ..< offsets[i].output + chunk.size])
                // The CRC-32 of the stored bytes was checked above: no Adler-32 over the output.
                let result = Zlib.inflate(source, into: target, checkingSum: false)
                if result != .ok { shared.outcomes[i] = .inflate(result) }
                return result == .ok
            }
            // One core decodes (inflating too whenever it would wait); the others inflate.
            feed.startWorkers(ProcessInfo.processInfo.activeProcessorCount - 1)
            let value: R
            do {
                value = try withExtendedLifetime(inflated) { try body(UnsafeRawBufferPointer(buffer), inflated, feed) }
            } catch {
                // A cancelled load stops at once; any other error waits for every chunk, so that a
                // damaged chunk is reported rather than what decoding made of it.
                let cancelled = (error as? StorageError)?.code == .cancelled
                feed.waitForWorkers(cancelling: cancelled)
                if !cancelled { try report(Array(results), header: header, offsets: offsets, file: file) }
                throw error
            }
            feed.waitForWorkers(cancelling: false)
            try report(Array(results), header: header, offsets: offsets, file: file)
            return value
        }
    }

    /// Throws for the first chunk, in file order, that failed.
    private static func report(_ outcomes: [Outcome], header: BinaryHeader, offsets: [(input: Int, output: Int)], file: String) throws {
        for (i, outcome) in outcomes.enumerated() {
            let chunk = header.chunks[i]
            let begin = offsets[i].input
            let name = header.chunks.count == 1 ? "the body" : "chunk \(i + 1) of \(header.chunks.count) of the body"
            switch outcome {
            case .ok:
                continue
            case .checksum(let computed):
                throw BinaryError.checksum(
                    file, at: "byte \(begin)",
                    "\(name) (bytes \(begin) to \(begin + chunk.storedSize - 1)) fails its checksum (stored \(hex(chunk.crc)), computed \(hex(computed)))"
                )
            case .inflate(let result):
                switch result {
                case .ok:
                    continue
                case .inputEnded(let consumed):
                    throw BinaryError.corrupt(file, at: "byte \(begin + consumed)", "the compressed data of \(name) ends before its zlib stream does")
                case .streamLonger(let consumed):
                    throw BinaryError.corrupt(
                        file, at: "byte \(begin + consumed)", "\(name) inflates to more than its declared \(BinaryError.byteCount(chunk.size))")
                case .streamShorter(let produced):
                    throw BinaryError.corrupt(
                        file, at: "byte \(begin)", "\(name) inflates to \(BinaryError.byteCount(produced)), not the declared \(chunk.size)")
                case .trailingInput(let consumed):
                    throw BinaryError.corrupt(
                        file, at: "byte \(begin + consumed)",
                        "\(name) has \(BinaryError.byteCount(chunk.storedSize - consumed)) after its zlib stream")
                case .invalid(let consumed, let reason):
                    throw BinaryError.corrupt(file, at: "byte \(begin + consumed)", "\(name) is not valid zlib data (\(reason))")
                }
            }
        }
    }
}

/// Buffers shared by the iterations of `concurrentPerform`; each iteration writes its own index only.
// @unchecked Sendable: the pointers stay valid while `concurrentPerform` runs, the input is
// only read, and no two iterations write the same piece.
private struct SharedBuffers: @unchecked Sendable {
    let input: UnsafeRawBufferPointer
    let pieces: UnsafeMutableBufferPointer<ChunkCompression.Piece>
}

/// The same for inflating: each iteration reads the input and writes its own outcome index
/// only; `output` is set before the iterations start and not changed while they run.
// @unchecked Sendable: as for `SharedBuffers`; `output` is written by no iteration.
private struct SharedOutcomes<Outcome>: @unchecked Sendable {
    let input: UnsafeRawBufferPointer
    let outcomes: UnsafeMutableBufferPointer<Outcome>
    var output = UnsafeMutableRawBufferPointer(start: nil, count: 0)
}
