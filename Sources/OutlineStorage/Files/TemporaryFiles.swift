import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files this process's saves are writing right now (see ``AtomicFile``), so
/// that ``AtomicFile/removeTemporariesInProgress()`` can remove them when the process is told
/// to end. Guarded by a lock: saves and the thread handling a signal may run at once.
enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    /// Notes that a save created `path`.
    static func remember(_ path: String) {
        lock.withLock { _ = paths.insert(path) }
    }

    /// Notes that `path` was renamed into place or removed.
    static func forget(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// Removes every temporary file in progress; returns how many there were. The lock stays
    /// taken for the removals, so that no save renames one of them meanwhile.
    static func removeAll() -> Int {
        lock.withLock {
            for path in paths { _ = unlink(path) }
            defer { paths.removeAll() }
            return paths.count
        }
    }
}
