import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive, advisory lock on a document file, held by a process from opening the
/// document to saving it so that two editors never work on the same version at once and
/// neither update is lost.
///
/// The lock is `flock(2)` on the document file itself (links followed). A save replaces the
/// file by renaming a new one over it, so the lock stays with the old file: after acquiring it,
/// ``acquire(_:timeout:file:)`` checks that the path still names the file it locked and starts
/// again on the new file when it does not. The kernel releases the lock when the process ends,
/// however it ends, so a killed editor never leaves a document locked.
///
/// It is advisory: programs that do not take it are not stopped, and a document's save still
/// refuses to overwrite changes made since it was opened (``StorageError/Code/conflict``).
/// Readers take no lock. On file systems without `flock` the lock is not held (``isHeld`` is
/// false) and that check is the only protection.
///
/// Release it with ``release()``, or let it go: the lock is released when it is deinitialized.
public final class DocumentLock {
    /// The document, as given to ``acquire(_:timeout:file:)``.
    public let path: String
    /// The descriptor the lock is held on; -1 once released.
    private var descriptor: Int32

    /// Whether the lock is held (false after ``release()``, or on a file system without locks).
    public var isHeld: Bool { descriptor >= 0 && locked }
    private let locked: Bool

    private init(path: String, descriptor: Int32, locked: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.locked = locked
    }

    deinit { release() }

    /// Waits until no other process holds the lock on the document at `path`, then takes it.
    ///
    /// - Parameters:
    ///   - timeout: how many seconds to wait for another process to release it; 0 tries once.
    ///   - file: how messages name the document; `path` when nil.
    ///   - path: the document to lock (it must exist).
    /// - Throws: ``StorageError`` `conflict` when another process still holds the lock after
    ///   `timeout` seconds; `unreadable` when the file cannot be opened (missing, a folder,
    ///   permission denied, ...); `unwritable` when it is not a regular file (a pipe, ...).
    public static func acquire(_ path: String, timeout: Double = 30, file: String? = nil) throws -> DocumentLock {
        precondition(timeout >= 0, "a lock timeout cannot be negative (\(timeout))")
        let file = file ?? path
        let deadline = Date().timeIntervalSince1970 + timeout
        var pause = 0.005
        while true {
            let fd = try SystemCall.openFile(path, O_RDONLY | O_NONBLOCK, .reading, file: file, "cannot open")
            var keep = false
            defer { if !keep { SystemCall.closeQuietly(fd) } }
            let status = try SystemCall.fileStatus(fd, file: file)
            if status.isDirectory { throw FileError.make(EISDIR, .reading, file: file, "cannot open") }
            guard status.isRegularFile else {
                // A save renames a new file over the name: a pipe or a device would be replaced.
                throw StorageError(
                    .unwritable, file: file, "the document is not a regular file (it is a pipe, a device or a socket), so it cannot be changed",
                    hint: "Copy it to a regular file and change that; reading it works as it is.")
            }
            switch try SystemCall.lockExclusively(fd, file: file) {
            case .unsupported:
                keep = true
                return DocumentLock(path: path, descriptor: fd, locked: false)
            case .locked:
                // A save renamed a new file into place while we waited: lock that one instead.
                guard let now = try SystemCall.status(path, .reading, file: file),
                    now.device == status.device, now.inode == status.inode
                else { continue }
                keep = true
                return DocumentLock(path: path, descriptor: fd, locked: true)
            case .busy:
                let remaining = deadline - Date().timeIntervalSince1970
                guard remaining > 0 else {
                    throw StorageError(
                        .conflict, file: file,
                        "another process is editing the document (waited \(Self.seconds(timeout)) for it to finish)",
                        hint: "Try again once the other command is done; nothing was written.")
                }
                Thread.sleep(forTimeInterval: min(pause, remaining))
                pause = min(pause * 2, 0.1)
            }
        }
    }

    /// Releases the lock; nothing happens when it is already released.
    public func release() {
        guard descriptor >= 0 else { return }
        SystemCall.closeQuietly(descriptor)  // closing the last descriptor releases the flock
        descriptor = -1
    }

    private static func seconds(_ value: Double) -> String {
        // Checked: the timeout may come from the environment (OUTLINE_LOCK_TIMEOUT=1e300).
        let text = Int(exactly: value).map(String.init) ?? String(value)
        return value == 1 ? "1 second" : "\(text) seconds"
    }
}
