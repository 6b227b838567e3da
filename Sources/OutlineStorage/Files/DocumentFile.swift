#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A document file opened once for reading: every read of it (the metadata from its first
/// bytes, then the whole content) comes from that one descriptor, so pipes work (`cat f |
/// outline show /dev/stdin`, `<(...)`, a FIFO) and the bytes read are the bytes decoded.
///
/// Open with ``open(_:limits:)``, read the metadata with ``PersistentStore/readMetadata(_:limits:)-(DocumentFile,_)`` (binary documents:
/// only their header) and the objects with ``PersistentStore/open(_:schema:options:)-(DocumentFile,_,_)``.
/// The descriptor is closed once everything has been read, or when the object is released.
public final class DocumentFile {
    /// The file, as the user named it.
    public let path: String
    /// Whether it is a regular file (not a pipe, a device or a socket): only a regular file
    /// can be saved to, and only its size is known before reading.
    public let isRegularFile: Bool
    /// The file as opened, for noticing later changes (regular files only).
    let fingerprint: FileFingerprint?
    /// The largest content accepted, in bytes.
    let limit: Int

    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false
    private let statusSize: Int

    /// Opens the file at `path` for reading.
    ///
    /// - Throws: ``StorageError`` `unreadable` (no such file, permission denied, a folder),
    ///   `limitExceeded` for a regular file bigger than `limits.maximumFileSize`.
    public static func open(_ path: String, limits: StoreLimits = .default) throws -> DocumentFile {
        let fd = try SystemCall.openFile(path, O_RDONLY, .reading, file: path, "cannot open")
        return try adopt(fd, name: path, verb: "cannot open", limits: limits)
    }

    /// A document file over the open descriptor `fd`, once its status passes the checks every
    /// document file gets (not a folder, a regular file within the size limit); `fd` is closed
    /// when they fail.
    private static func adopt(_ fd: Int32, name: String, verb: String, limits: StoreLimits) throws -> DocumentFile {
        do {
            let status = try SystemCall.fileStatus(fd, file: name)
            if status.isDirectory { throw FileError.make(EISDIR, .reading, file: name, verb) }
            if status.isRegularFile && status.size > limits.maximumFileSize {
                throw tooBig(name, "the file is \(status.size) bytes, over the limit of \(limits.maximumFileSize)")
            }
            return DocumentFile(path: name, descriptor: fd, status: status, limit: limits.maximumFileSize)
        } catch {
            SystemCall.closeQuietly(fd)
            throw error
        }
    }

    private init(path: String, descriptor: Int32, status: SystemCall.Status, limit: Int) {
        self.path = path
        self.descriptor = descriptor
        self.isRegularFile = status.isRegularFile
        self.statusSize = max(status.size, 0)
        self.limit = limit
        fingerprint =
            status.isRegularFile
            ? FileFingerprint(device: status.device, inode: status.inode, size: status.size, modified: status.modified) : nil
    }

    deinit { close() }

    /// The size: the file's for a regular file, else the bytes read so far.
    public var size: Int { isRegularFile ? statusSize : buffer.count }

    /// The first `count` bytes (fewer when the file is shorter), read on demand; what is read
    /// stays for ``readAll()``.
    public func prefix(_ count: Int) throws -> ArraySlice<UInt8> {
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.count < count && !atEnd {
            let wanted = min(piece.count, count - buffer.count)
            let n = try piece.withUnsafeMutableBytes {
                try SystemCall.readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted]), file: path)
            }
            if n == 0 { finish() } else { try append(piece[..<n]) }
        }
        return buffer.prefix(count)
    }

    /// The whole content; the descriptor is closed afterwards.
    ///
    /// A regular file is read into one buffer sized from `fstat` (one spare byte lets the read
    /// that finds its end land there); a pipe, or a file that grew, in pieces up to the limit.
    /// While a container opens the document, reading reports progress (the whole file read
    /// counts as done, also when reading the metadata already reached its end).
    public func readAll() throws -> [UInt8] {
        let bytes = try readRest()
        try LoadMonitor.current?.progress(.reading, bytes.count, of: bytes.count)
        return bytes
    }

    private func readRest() throws -> [UInt8] {
        guard !atEnd else { return buffer }
        if isRegularFile {
            let start = buffer
            let capacity = max(statusSize, start.count) + 1
            var filled = start.count
            // While a document is opened with progress, read in blocks to report after each.
            let monitor = LoadMonitor.current
            let block = monitor == nil ? capacity : 8 << 20
            buffer = try [UInt8](unsafeUninitializedCapacity: capacity) { storage, initialized in
                defer { initialized = filled }
                _ = UnsafeMutableBufferPointer(rebasing: storage[..<start.count]).initialize(from: start)
                while filled < capacity {
                    let piece = UnsafeMutableRawBufferPointer(
                        rebasing: UnsafeMutableRawBufferPointer(storage)[filled ..< min(capacity, filled + block)])
                    let n = try SystemCall.readSome(descriptor, into: piece, file: path)
                    if n == 0 { break }
                    filled += n
                    try monitor?.progress(.reading, filled, of: capacity - 1)
                }
            }
            if filled < capacity {
                finish()
                return buffer
            }
        }
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while !atEnd {
            let n = try piece.withUnsafeMutableBytes { try SystemCall.readSome(descriptor, into: $0, file: path) }
            if n == 0 { finish() } else { try append(piece[..<n]) }
        }
        return buffer
    }

    /// Hands the whole content to `body` in pieces of `pieceSize` bytes (the last one shorter),
    /// from the start, without keeping it: each call reads the file again. `body` returns false
    /// to stop early. A regular file is read with `pread` from its still open descriptor;
    /// anything else (or a file read whole already) is read whole first and handed over from memory.
    ///
    /// - Throws: ``StorageError`` `unreadable`, `limitExceeded` when the file grew over the
    ///   limit; whatever `body` throws.
    package func readPieces(_ pieceSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        guard isRegularFile && descriptor >= 0 else {
            let all = try readAll()
            try all.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + pieceSize)
                    guard try body(UnsafeRawBufferPointer(rebasing: bytes[offset ..< end])) else { return }
                    offset = end
                }
            }
            return
        }
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 16)
        defer { piece.deallocate() }
        var offset = 0
        var ended = false
        while !ended {
            var filled = 0
            while filled < pieceSize {
                let n = try SystemCall.readSome(
                    descriptor, into: UnsafeMutableRawBufferPointer(rebasing: piece[filled...]),
                    at: offset + filled, file: path)
                if n == 0 {
                    ended = true
                    break
                }
                filled += n
            }
            offset += filled
            guard offset <= limit else {
                throw Self.tooBig(path, "the file is over the limit of \(limit) bytes (it grew while being read)")
            }
            guard filled > 0 else { return }
            guard try body(UnsafeRawBufferPointer(rebasing: piece[..<filled])) else { return }
        }
    }

    /// Closes the descriptor: everything has been read.
    private func close() {
        guard descriptor >= 0 else { return }
        SystemCall.closeQuietly(descriptor)
        descriptor = -1
        atEnd = true
    }

    private func finish() { close() }

    private func append(_ bytes: ArraySlice<UInt8>) throws {
        guard buffer.count + bytes.count <= limit else {
            throw Self.tooBig(path, "the file is over the limit of \(limit) bytes (it grew while being read, or is a pipe that long)")
        }
        buffer.append(contentsOf: bytes)
    }

    private static func tooBig(_ path: String, _ message: String) -> StorageError {
        StorageError(.limitExceeded, file: path, message, hint: "Raise the read limits to open it.")
    }
}

extension DocumentFile {
    /// Standard input, read as a document (`outline show -`): a duplicate of descriptor 0, so
    /// nothing is reopened by name and a pipe is read as it comes.
    ///
    /// - Parameters:
    ///   - name: how messages name it.
    ///   - limits: the read limits (the size of a regular file is checked against them).
    /// - Throws: ``StorageError`` `unreadable` when standard input is closed or a folder,
    ///   `limitExceeded` for a regular file bigger than `limits.maximumFileSize`.
    public static func standardInput(name: String = "standard input", limits: StoreLimits = .default) throws -> DocumentFile {
        let fd = dup(0)
        guard fd >= 0 else { throw FileError.make(errno, .reading, file: name, "cannot read") }
        return try adopt(fd, name: name, verb: "cannot read", limits: limits)
    }
}
