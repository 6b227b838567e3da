#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads files into memory: one `open`, one buffer sized from `fstat`, one read loop.
enum FileReader {
    /// The whole file at `path`.
    ///
    /// - Throws: ``StorageError`` `unreadable` (no such file, permission denied, is a folder, ...).
    /// - Parameter limit: the largest size accepted; a bigger file is `limitExceeded` before
    ///   anything is allocated.
    static func read(_ path: String, file: String, limit: Int = .max) throws -> [UInt8] {
        let fd = try SystemCall.openFile(path, O_RDONLY, .reading, file: file, "cannot open")
        defer { SystemCall.closeQuietly(fd) }
        let status = try SystemCall.fileStatus(fd, file: file)
        if status.isDirectory { throw FileError.make(EISDIR, .reading, file: file, "cannot open") }
        guard status.size <= limit else {
            throw StorageError(
                .limitExceeded, file: file, "the file is \(status.size) bytes, over the limit of \(limit)",
                hint: "Raise the read limits to open it.")
        }
        // One spare byte lets the read that finds the end of the file land in the buffer.
        let capacity = max(status.size, 0) + 1
        var filled = 0
        var bytes = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            while filled < capacity {
                let n = try SystemCall.readSome(
                    fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[filled...]), file: file)
                if n == 0 { break }
                filled += n
            }
            initialized = filled
        }
        // The file grew while being read: read the rest in pieces.
        guard filled == capacity else { return bytes }
        guard filled <= limit else {
            throw StorageError(
                .limitExceeded, file: file, "the file grew past the limit of \(limit) bytes while being read",
                hint: "Raise the read limits to open it.")
        }
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try piece.withUnsafeMutableBytes { try SystemCall.readSome(fd, into: $0, file: file) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: piece[0 ..< n])
            if bytes.count > limit {
                throw StorageError(
                    .limitExceeded, file: file, "the file grew past the limit of \(limit) bytes while being read",
                    hint: "Raise the read limits to open it.")
            }
        }
    }
}
