import Dispatch
import Foundation

/// The chunks of a body being inflated, shared between the threads that inflate them and the
/// decoder that reads the body meanwhile.
///
/// Chunks are handed out in body order, to background workers and to the decoder itself
/// whenever it would otherwise wait; they finish in any order. The decoder may read the body up
/// to the end of the longest run of chunks, from the first, that all inflated well (the
/// *frontier*). A ``ByteCursor`` made with a feed waits in ``wait(until:)`` when it would read
/// past the frontier.
final class InflateFeed: Sendable {
    /// Thrown to the decoder when a chunk it needs failed, or inflating stopped before it:
    /// the caller then reports the chunks' own outcomes instead.
    struct ChunkFailed: Error {}

    /// The mutable state; every access holds `condition`'s lock.
    private struct State {
        var finished: [Bool]
        var failed: [Bool]
        /// The next chunk to hand out.
        var started = 0
        /// The first chunk not yet part of the frontier.
        var next = 0
        /// Body bytes readable from the start.
        var frontier = 0
        var cancelled = false
        /// Background workers still running.
        var workers = 0
    }

    private let condition = NSCondition()
    /// Per chunk, the body offset one past its last byte.
    private let ends: [Int]
    /// Inflates chunk `i` into its slice; false when it failed (the caller keeps the reason).
    private let inflate: @Sendable (Int) -> Bool
    // nonisolated(unsafe): every access holds `condition`'s lock.
    nonisolated(unsafe) private var state: State

    /// A feed for chunks that inflate to `sizes` bytes each, in body order, by `inflate`.
    init(sizes: [Int], inflate: @escaping @Sendable (Int) -> Bool) {
        var end = 0
        ends = sizes.map { size in
            end += size
            return end
        }
        self.inflate = inflate
        state = State(finished: sizes.map { _ in false }, failed: sizes.map { _ in false })
    }

    /// Starts `count` background threads inflating chunks until none is left.
    func startWorkers(_ count: Int) {
        guard count > 0 else { return }
        condition.lock()
        state.workers += count
        condition.unlock()
        for _ in 0 ..< count {
            DispatchQueue.global(qos: .userInitiated).async {
                while let i = self.take() { self.finish(chunk: i, ok: self.inflate(i)) }
                self.condition.lock()
                self.state.workers -= 1
                self.condition.broadcast()
                self.condition.unlock()
            }
        }
    }

    /// The next chunk nobody inflates yet, marked started; nil when none is left or cancelled.
    private func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        return takeLocked()
    }

    private func takeLocked() -> Int? {
        guard !state.cancelled, state.started < ends.count else { return nil }
        state.started += 1
        return state.started - 1
    }

    /// Records that chunk `index` is done, well (`ok`) or not.
    private func finish(chunk index: Int, ok: Bool) {
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

    /// Waits until the body is readable up to `offset` and returns the frontier (at least
    /// `offset`); while waiting, inflates chunks nobody has started.
    ///
    /// - Throws: ``ChunkFailed`` when a chunk before `offset` failed, or inflating ended first.
    func wait(until offset: Int) throws -> Int {
        condition.lock()
        defer { condition.unlock() }
        while state.frontier < offset {
            if state.next < ends.count && state.failed[state.next] { throw ChunkFailed() }
            if let i = takeLocked() {
                condition.unlock()
                let ok = inflate(i)
                condition.lock()
                finishLocked(chunk: i, ok: ok)
                continue
            }
            if state.started == ends.count && state.workers == 0 && allFinishedLocked() || state.cancelled {
                throw ChunkFailed()
            }
            condition.wait()
        }
        return state.frontier
    }

    private func finishLocked(chunk index: Int, ok: Bool) {
        condition.unlock()
        finish(chunk: index, ok: ok)
        condition.lock()
    }

    private func allFinishedLocked() -> Bool { !state.finished.contains(false) }

    /// Waits until no thread inflates any more: with `cancelling`, the chunks not started yet
    /// are skipped; otherwise this thread inflates them too.
    func waitForWorkers(cancelling: Bool) {
        if cancelling {
            condition.lock()
            state.cancelled = true
            condition.unlock()
        } else {
            while let i = take() { finish(chunk: i, ok: inflate(i)) }
        }
        condition.lock()
        while state.workers > 0 { condition.wait() }
        condition.unlock()
    }
}
