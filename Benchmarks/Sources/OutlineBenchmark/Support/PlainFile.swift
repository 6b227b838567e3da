import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the floors are made of, straight on the system calls: one read of a
/// whole file, and a durable atomic replacement (temporary file, write, fsync, rename, fsync
/// of the folder), the same steps as the library's `AtomicFile` without its checks.
enum PlainFile {
    /// The whole file at `path`, in one buffer sized from `fstat`.
    static func readAll(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open \(path)") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("cannot stat \(path)") }
        let size = Int(status.st_size)
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size {
                let n = read(fd, buffer.baseAddress.map { $0 + filled }, size - filled)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                filled += n
            }
            initialized = filled
            if filled != size { throw failure("\(path) changed size while being read") }
        }
    }

    /// Replaces the file at `path` with `bytes` atomically and durably.
    static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/." + (path as NSString).lastPathComponent + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                throw failure("cannot write \(temporary)")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            close(fd)
            throw failure("cannot fsync \(temporary)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to \(path)") }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw failure("cannot open \(folder)") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw failure("cannot fsync \(folder)") }
    }

    /// Replaces the file at `path` with `bytes` atomically and durably.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { try writeAtomically($0, to: path) }
    }

    /// The size of the file at `path` in bytes (0 when it cannot be read).
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func failure(_ what: String) -> BenchmarkError {
        BenchmarkError("\(what): \(String(cString: strerror(errno)))")
    }
}
