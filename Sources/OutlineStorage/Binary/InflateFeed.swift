import Foundation

/// How far the chunks of a body have been inflated, shared between the threads that inflate
/// them and the decoder that reads the body meanwhile.
///
/// Chunks finish in any order; the decoder may read the body up to the end of the longest run
/// of chunks, from the first, that all inflated well (the *frontier*). A ``ByteCursor`` made
/// with a feed waits in ``wait(until:)`` when it would read past the frontier.
final class InflateFeed: Sendable {
    /// Thrown to the decoder when a chunk it needs failed, or inflating stopped before it:
    /// the caller then reports the chunks' own outcomes instead.
    struct ChunkFailed: Error {}

    /// The mutable state; every access holds `condition`'s lock.
    private struct State {
        var finished: [Bool]
        var failed: [Bool]
        /// The first chunk not yet part of the frontier.
        var next = 0
        /// Body bytes readable from the start.
        var frontier = 0
        var cancelled = false
        var workersDone = false
    }

    private let condition = NSCondition()
    /// Per chunk, the body offset one past its last byte.
    private let ends: [Int]
    // Guarded by `condition`: see `State`.
    nonisolated(unsafe) private var state: State

    /// A feed for chunks that inflate to `sizes` bytes each, in body order.
    init(sizes: [Int]) {
        var end = 0
        ends = sizes.map { size in
            end += size
            return end
        }
        state = State(finished: sizes.map { _ in false }, failed: sizes.map { _ in false })
    }

    /// Called by an inflating thread when chunk `index` is done, well (`ok`) or not.
    func finish(chunk index: Int, ok: Bool) {
        condition.lock()
        state.finished[index] = true
        state.failed[index] = !ok
        while state.next < ends.count && state.finished[state.next] && !state.failed[state.next] {
            state.frontier = ends[state.next]
            state.next += 1
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Called once every chunk has been inflated or skipped.
    func finishWorkers() {
        condition.lock()
        state.workersDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether inflating should stop before the next chunk.
    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.cancelled
    }

    /// Waits until the body is readable up to `offset` and returns the frontier (at least
    /// `offset`).
    ///
    /// - Throws: ``ChunkFailed`` when a chunk before `offset` failed, or inflating ended first.
    func wait(until offset: Int) throws -> Int {
        condition.lock()
        defer { condition.unlock() }
        while state.frontier < offset {
            if state.next < ends.count && state.failed[state.next] || state.workersDone {
                throw ChunkFailed()
            }
            condition.wait()
        }
        return state.frontier
    }

    /// Waits until no thread inflates any more; with `cancelling`, the chunks not started yet
    /// are skipped.
    func waitForWorkers(cancelling: Bool) {
        condition.lock()
        if cancelling { state.cancelled = true }
        while !state.workersDone { condition.wait() }
        condition.unlock()
    }
}
