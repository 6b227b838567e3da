import Dispatch
import Foundation

/// Deflates the chunks of a body on all cores while the body is still being encoded.
///
/// A streaming ``ByteWriter`` hands each full ``BinaryFormat/chunkSize`` chunk to
/// ``submit(_:count:)``; background workers deflate the chunks in the order they came, and
/// the writer's thread deflates one itself whenever it would otherwise wait for a free buffer.
/// Buffers are recycled, so a body of any size needs only a few chunks of memory, never the
/// whole body. The first chunk is held back until ``finish(last:count:)``, because the body's
/// section table at its start is patched once the sections' sizes are known.
///
/// The chunks are the ones ``ChunkCompression/deflate(_:level:)`` makes of the whole body,
/// and each is deflated the same way, so the output is the same bytes.
// @unchecked Sendable: every stored property that changes (`state`) is read and written only
// while holding `condition`'s lock; a buffer is written by one thread at a time (the writer
// until it is submitted, then the one thread that took its job, then nobody until recycled).
final class DeflatePipeline: @unchecked Sendable {
    private struct Job {
        var index: Int
        var buffer: UnsafeMutablePointer<UInt8>
        var count: Int
    }

    private struct State {
        /// Submitted chunks nobody deflates yet, oldest first from `head`.
        var queue: [Job] = []
        var head = 0
        /// Buffers free for the writer.
        var spare: [UnsafeMutablePointer<UInt8>] = []
        /// Every buffer made, freed with the pipeline.
        var all: [UnsafeMutablePointer<UInt8>] = []
        var pieces: [ChunkCompression.Piece?] = []
        /// The first chunk, until ``finish(last:count:)``.
        var held: Job?
        /// The index the next submitted chunk gets.
        var next = 0
        /// Background workers running.
        var workers = 0
    }

    private let level: Int
    private let maximumWorkers: Int
    private let maximumBuffers: Int
    private let condition = NSCondition()
    private var state = State()

    /// A pipeline deflating at zlib `level` with `workers` background threads (by default one
    /// fewer than the cores, since the writer's thread deflates too once it has written all).
    init(level: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount - 1) {
        self.level = level
        maximumWorkers = max(0, workers)
        // One buffer per thread at work, the held first chunk, and one being written.
        maximumBuffers = max(0, workers) + 4
    }

    deinit {
        for buffer in state.all { buffer.deallocate() }
    }

    /// A buffer of ``BinaryFormat/chunkSize`` plus ``ByteWriter/slack`` bytes for the writer to
    /// fill. When every buffer is in use, deflates a waiting chunk on this thread to free one.
    func buffer() -> UnsafeMutablePointer<UInt8> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let buffer = state.spare.popLast() { return buffer }
            if state.all.count < maximumBuffers {
                let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: BinaryFormat.chunkSize + ByteWriter.slack)
                state.all.append(buffer)
                return buffer
            }
            if let job = takeLocked() {
                runLocked(job)
            } else {
                condition.wait()
            }
        }
    }

    /// Takes the full chunk in `buffer` (its first `count` bytes) to deflate; the pipeline owns
    /// the buffer from now on.
    func submit(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) {
        condition.lock()
        defer { condition.unlock() }
        submitLocked(buffer, count: count)
    }

    private func submitLocked(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) {
        let job = Job(index: state.next, buffer: buffer, count: count)
        state.next += 1
        state.pieces.append(nil)
        if job.index == 0 {
            state.held = job
            return
        }
        state.queue.append(job)
        guard state.workers < maximumWorkers else {
            condition.signal()
            return
        }
        state.workers += 1
        DispatchQueue.global(qos: .userInitiated).async {
            self.condition.lock()
            while let job = self.takeLocked() { self.runLocked(job) }
            self.state.workers -= 1
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// Overwrites bytes of the held first chunk with `value`'s bytes at `offset`.
    func patch<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard let held = state.held, offset >= 0, offset + MemoryLayout<T>.size <= held.count else {
            preconditionFailure("DeflatePipeline: a patch outside the first chunk")
        }
        UnsafeMutableRawPointer(held.buffer + offset).storeBytes(of: value, as: T.self)
    }

    /// Submits the last chunk (`count` bytes of `buffer`, which may be empty when the body
    /// ended on a chunk boundary) and the held first chunk, deflates on this thread until none
    /// is left, waits for the workers, and returns every chunk's piece in body order.
    func finish(last buffer: UnsafeMutablePointer<UInt8>, count: Int) -> [ChunkCompression.Piece] {
        condition.lock()
        defer { condition.unlock() }
        if count > 0 || state.next == 0 { submitLocked(buffer, count: count) }
        if let held = state.held {
            state.held = nil
            state.queue.append(held)
        }
        while let job = takeLocked() { runLocked(job) }
        while state.workers > 0 { condition.wait() }
        return state.pieces.map { piece in
            guard let piece else { preconditionFailure("DeflatePipeline: a chunk was not deflated") }
            return piece
        }
    }

    private func takeLocked() -> Job? {
        guard state.head < state.queue.count else { return nil }
        let job = state.queue[state.head]
        state.head += 1
        if state.head == state.queue.count {
            state.queue.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return job
    }

    /// Deflates `job` with the lock released, then records its piece and frees its buffer.
    private func runLocked(_ job: Job) {
        condition.unlock()
        let input = UnsafeRawBufferPointer(start: job.buffer, count: job.count)
        let bytes = Zlib.deflate(input, level: level)
        let crc = bytes.withUnsafeBytes { Zlib.crc32($0) }
        condition.lock()
        state.pieces[job.index] = ChunkCompression.Piece(chunk: .init(storedSize: bytes.count, size: job.count, crc: crc), bytes: bytes)
        state.spare.append(job.buffer)
        condition.broadcast()
    }
}
