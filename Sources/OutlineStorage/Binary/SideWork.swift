import Dispatch
import Foundation

/// The end of work another thread does beside the decoder (``BodyDigest``, ``ArenaCheck``):
/// the decoder can ask it to stop early, and waits for it before the body it reads goes away.
// @unchecked Sendable: `stopped` is read and written only while holding `lock`; `done` is a
// semaphore.
final class SideWork: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false

    /// Whether ``stop()`` was called; the work checks it between its steps.
    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Asks the work to end early (the decoder failed); ``wait()`` still waits for it.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Called by the work once, when it has ended (its results written).
    func finish() { done.signal() }

    /// Waits until the work has ended; a second call returns at once.
    func wait() {
        done.wait()
        done.signal()
    }
}
