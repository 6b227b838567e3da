import Foundation
import OutlineStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ending on Ctrl-C (SIGINT), `kill` (SIGTERM) or a closed terminal (SIGHUP) without leaving
/// anything behind: the signals are blocked in every thread and taken by one thread of their
/// own, which removes the temporary file of any save under way (the document stays as it
/// was; see ``OutlineStorage/AtomicFile/removeTemporariesInProgress()``) and ends the process
/// with 128 + the signal's number (130, 143, 129), as shells expect.
///
/// A signal that comes once the command's save has put the document in place no longer
/// ends it: the change is made, so the command finishes (its output, exit status 0) rather
/// than report an interruption; a second signal ends it at once.
enum SignalHandling {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Who takes the signals instead of ending the process, when someone does.
    private static let receiver = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// Hands the signals to `receive` instead of ending the process, until called with nil:
    /// the full-screen editor saves what was typed before it exits.
    static func forward(to receive: (@Sendable (Int32) -> Void)?) {
        receiver.withLock { $0 = receive }
    }

    /// Blocks the signals and starts the thread that waits for them. Call first thing in
    /// `main`, before any other thread exists, so that every thread inherits the mask.
    static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waiting = set
        Thread.detachNewThread {
            var set = waiting
            var deferred = false
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                if let receive = receiver.withLock({ $0 }) {
                    receive(received)
                    continue
                }
                let (_, replacedAFile) = AtomicFile.removeTemporariesInProgress()
                if replacedAFile && !deferred {
                    deferred = true
                    continue
                }
                // Leave the terminal on a fresh line when a progress bar was drawn.
                if Console.standardErrorIsTerminal { Console.writeError("\r\u{1B}[K") }
                _exit(128 + received)
            }
        }
    }
}
