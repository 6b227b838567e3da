import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Starting a child process and waiting for its end without `Process.waitUntilExit()`.
///
/// `waitUntilExit()` spins the calling thread's run loop until Foundation reports the exit
/// there. Called from the test runner's worker threads while many tests start processes at
/// once, it can miss the exit and wait forever, and the whole suite then stops without a
/// word. These helpers wait on the termination handler instead, which Foundation calls from a
/// thread of its own, and turn a child that outlives its limit into a recorded failure.
extension Process {
    /// Runs the process; wait for its end with ``ChildExit/wait(limit:sourceLocation:)``.
    func start() throws -> ChildExit {
        let exit = ChildExit()
        // Registered before `run()`, so that a child that ends at once is not missed.
        terminationHandler = { _ in exit.signal() }
        try run()
        exit.processIdentifier = processIdentifier
        return exit
    }

    /// Runs the process to its end (see ``start()``).
    func runToEnd(limit: Duration = ChildExit.defaultLimit, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try start().wait(limit: limit, sourceLocation: sourceLocation)
    }
}

/// The end of a child process started with ``Foundation/Process/start()``.
// @unchecked Sendable: `ended` is a semaphore, and `processIdentifier` is written once by
// `start()` before the value is handed out.
final class ChildExit: @unchecked Sendable {
    /// Long enough for the slowest child of the suite on a loaded machine.
    static let defaultLimit: Duration = .seconds(600)

    private let ended = DispatchSemaphore(value: 0)
    fileprivate(set) var processIdentifier: Int32 = 0

    fileprivate func signal() { ended.signal() }

    /// Waits until the child has ended; after `limit`, records an issue, kills the child and
    /// waits for that.
    func wait(limit: Duration = ChildExit.defaultLimit, sourceLocation: SourceLocation = #_sourceLocation) {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        if ended.wait(timeout: .now() + seconds) == .success { return }
        Issue.record("process \(processIdentifier) did not end within \(limit); killed", sourceLocation: sourceLocation)
        kill(processIdentifier, SIGKILL)
        ended.wait()
    }
}
