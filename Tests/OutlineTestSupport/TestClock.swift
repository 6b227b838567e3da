import Foundation

// @unchecked Sendable: `now` and `sleepers` are only read and written while `lock` is held.
/// A clock that moves only when a test advances it, so that autosave and polling tests wait
/// for nothing real.
///
/// Sleepers are resumed by ``advance(by:)`` once their deadline has passed; a cancelled
/// sleeper is resumed at once with `CancellationError`.
public final class TestClock: Clock, @unchecked Sendable {
    /// A moment of the clock: how far it was advanced since it was made.
    public struct Instant: InstantProtocol {
        /// The time advanced since the clock was made.
        public var offset: Duration
        /// The moment `offset` after the clock was made.
        public init(offset: Duration) { self.offset = offset }
        /// The moment `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this moment to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Int: Sleeper] = [:]
    private var nextSleeper = 0

    /// A clock at its first moment, with nobody sleeping on it.
    public init() {}

    /// The current moment (moved only by ``advance(by:)``).
    public var now: Instant { lock.withLock { current } }
    /// Zero: the clock moves in whatever steps a test gives.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Waits until the clock is advanced to `deadline` or the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { () -> Int in
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }
            for key in due.keys { sleepers.removeValue(forKey: key) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (really, briefly) until `count` tasks sleep on the clock, or `timeout` passes;
    /// returns whether they do.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while sleeperCount < count {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
