#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each libc call the storage module makes, wrapped once: retries on `EINTR`, turns `errno`
/// into ``StorageError`` through ``FileError``. `file` is the document as the user named it.
enum SystemCall {
    /// The parts of `stat` the module uses.
    struct Status {
        var mode: UInt32
        var size: Int
        var owner: UInt32
        var group: UInt32
        var modified: Double
        var device: UInt64
        var inode: UInt64

        var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
        var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
        var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
        var permissions: UInt32 { mode & 0o7777 }

        init(_ s: stat) {
            mode = UInt32(s.st_mode)
            size = Int(s.st_size)
            owner = UInt32(s.st_uid)
            group = UInt32(s.st_gid)
            device = UInt64(s.st_dev)
            inode = UInt64(s.st_ino)
            #if canImport(Darwin)
                modified = Double(s.st_mtimespec.tv_sec) + Double(s.st_mtimespec.tv_nsec) / 1e9
            #else
                modified = Double(s.st_mtim.tv_sec) + Double(s.st_mtim.tv_nsec) / 1e9
            #endif
        }
    }

    static func openFile(
        _ path: String, _ flags: Int32, mode: UInt32 = 0, _ direction: FileError.Direction,
        file: String, _ action: @autoclosure () -> String
    ) throws -> Int32 {
        while true {
            let fd = open(path, flags | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return fd }
            if errno != EINTR { throw FileError.make(errno, direction, file: file, action()) }
        }
    }

    /// Opens with `O_CREAT | O_EXCL`; returns nil when the name is taken.
    static func createExclusive(_ path: String, mode: UInt32, file: String, _ action: @autoclosure () -> String) throws -> Int32? {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return fd }
            if errno == EEXIST { return nil }
            if errno != EINTR { throw FileError.make(errno, .writing, file: file, action()) }
        }
    }

    /// Closes `fd`. Writers sync before closing, so an error here has nothing left to report.
    static func closeQuietly(_ fd: Int32) { _ = close(fd) }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, file: String) throws -> Int {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw FileError.make(errno, .reading, file: file, "cannot read") }
        }
    }

    /// Reads up to `buffer.count` bytes at `offset` of the file; 0 at its end.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, file: String) throws -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw FileError.make(errno, .reading, file: file, "cannot read") }
        }
    }

    /// Writes all of `bytes`, however many calls it takes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, file: String, _ action: @autoclosure () -> String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress.map { $0 + offset }, min(bytes.count - offset, 1 << 30))
            if n > 0 {
                offset += n
            } else if n < 0 && errno != EINTR {
                throw FileError.make(errno, .writing, file: file, action())
            } else if n == 0 {
                throw FileError.make(ENOSPC, .writing, file: file, action())
            }
        }
    }

    static func syncFile(_ fd: Int32, file: String, _ action: @autoclosure () -> String) throws {
        while fsync(fd) != 0 {
            if errno != EINTR { throw FileError.make(errno, .writing, file: file, action()) }
        }
    }

    /// What ``lockExclusively(_:file:)`` found.
    enum LockOutcome {
        /// The lock is now held through the descriptor.
        case locked
        /// Another open file description holds it.
        case busy
        /// The file system does not support `flock`.
        case unsupported
    }

    /// `flock(fd, LOCK_EX | LOCK_NB)`: takes the exclusive lock without waiting.
    static func lockExclusively(_ fd: Int32, file: String) throws -> LockOutcome {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return .busy
            case ENOLCK, EOPNOTSUPP, ENOSYS, EINVAL: return .unsupported
            default: throw FileError.make(errno, .reading, file: file, "cannot lock the file")
            }
        }
        return .locked
    }

    /// Opens `folder` and waits for a shared `flock` on it; nil when it cannot be opened or
    /// locked (the caller then goes on without the lock).
    static func lockFolderShared(_ folder: String) -> Int32? {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_SH) != 0 {
            if errno != EINTR {
                closeQuietly(fd)
                return nil
            }
        }
        return fd
    }

    /// Opens `folder` and takes an exclusive `flock` on it if nobody holds one; nil otherwise.
    static func tryLockFolderExclusively(_ folder: String) -> Int32? {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard (try? lockExclusively(fd, file: folder)) == .locked else {
            closeQuietly(fd)
            return nil
        }
        return fd
    }

    static func changeMode(_ fd: Int32, _ mode: UInt32, file: String, _ action: @autoclosure () -> String) throws {
        if fchmod(fd, mode_t(mode)) != 0 { throw FileError.make(errno, .writing, file: file, action()) }
    }

    /// Gives `fd` an owner and group; returns false when not permitted (only root may give files away).
    @discardableResult
    static func changeOwner(_ fd: Int32, owner: UInt32, group: UInt32) -> Bool {
        fchown(fd, uid_t(owner), gid_t(group)) == 0
    }

    static func fileStatus(_ fd: Int32, file: String) throws -> Status {
        var s = stat()
        if fstat(fd, &s) != 0 { throw FileError.make(errno, .reading, file: file, "cannot inspect the file") }
        return Status(s)
    }

    /// `stat` (following links) or `lstat`; nil when nothing is there.
    static func status(
        _ path: String, followingLinks: Bool = true, _ direction: FileError.Direction,
        file: String
    ) throws -> Status? {
        var s = stat()
        let result = followingLinks ? stat(path, &s) : lstat(path, &s)
        if result == 0 { return Status(s) }
        if errno == ENOENT { return nil }
        throw FileError.make(errno, direction, file: file, "cannot inspect \(path)")
    }

    /// Why the caller may not write the existing file at `path` (`EACCES`, `EROFS`, ...), or nil
    /// when it may (by the effective user). Root may write any file on a writable file system.
    static func writeAccessError(_ path: String) -> Int32? {
        faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 ? nil : (errno == ENOENT ? nil : errno)
    }

    static func readLink(_ path: String, file: String) throws -> String {
        var buffer = [Int8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw FileError.make(errno, .reading, file: file, "cannot read the symbolic link \(path)") }
        return String(decoding: buffer[0 ..< n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func renameFile(_ from: String, _ to: String, file: String, _ action: @autoclosure () -> String) throws {
        if rename(from, to) != 0 { throw FileError.make(errno, .writing, file: file, action()) }
    }

    /// Makes a hard link; returns the errno on failure so the caller can fall back to copying.
    static func hardLink(_ from: String, _ to: String) -> Int32? {
        link(from, to) == 0 ? nil : errno
    }

    /// Removes `path`; a missing file is not an error.
    static func removeFile(_ path: String, file: String, _ action: @autoclosure () -> String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw FileError.make(errno, .writing, file: file, action()) }
    }

    /// Flushes a folder's entries (a rename is durable only once its folder is synced).
    /// File systems that cannot sync folders (`EINVAL`) are accepted as they are.
    static func syncDirectory(_ path: String, file: String) throws {
        let fd = try openFile(path, O_RDONLY | O_DIRECTORY, .writing, file: file, "cannot open the folder \(path) to sync it")
        defer { closeQuietly(fd) }
        while fsync(fd) != 0 {
            if errno == EINVAL || errno == ENOTSUP { return }
            if errno != EINTR { throw FileError.make(errno, .writing, file: file, "cannot sync the folder \(path)") }
        }
    }

    /// The names in folder `path`, without `.` and `..`.
    static func listDirectory(_ path: String, file: String) throws -> [String] {
        guard let dir = opendir(path) else {
            throw FileError.make(errno, .reading, file: file, "cannot list the folder \(path)")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static var isRoot: Bool { geteuid() == 0 }
}
