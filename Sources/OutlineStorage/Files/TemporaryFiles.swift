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
    /// Whether a save of this process has renamed its temporary file into place.
    nonisolated(unsafe) private static var replaced = false

    /// Runs `create`, which creates the file `path` (returning its descriptor, or nil when the
    /// name is taken), and registers the file when it was created, all under the lock: the
    /// thread that removes the files on a signal never misses one that exists.
    static func creating(_ path: String, _ create: () throws -> Int32?) rethrows -> Int32? {
        try lock.withLock {
            let fd = try create()
            if fd != nil { paths.insert(path) }
            return fd
        }
    }

    /// Notes that `path` was removed.
    static func forget(_ path: String) {
        lock.withLock { _ = paths.remove(path) }
    }

    /// Runs `rename`, which puts the temporary file `path` in place, under the lock: a signal
    /// is handled either before (the file is removed and the rename fails: nothing changed)
    /// or after (the document was replaced, which ``removeAll()`` then says).
    static func renaming(_ path: String, _ rename: () throws -> Void) throws {
        try lock.withLock {
            try rename()
            paths.remove(path)
            replaced = true
        }
    }

    /// Whether a save of this process has put its file in place.
    static var hasReplacedAFile: Bool { lock.withLock { replaced } }

    /// Removes every temporary file in progress. The lock stays taken for the removals, so
    /// that no save renames one of them meanwhile.
    ///
    /// - Returns: how many there were, and whether a save of this process had already put its
    ///   file in place.
    static func removeAll() -> (removed: Int, replacedAFile: Bool) {
        lock.withLock {
            for path in paths { _ = unlink(path) }
            defer { paths.removeAll() }
            return (paths.count, replaced)
        }
    }
}
