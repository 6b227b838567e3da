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
            throw StorageError(.limitExceeded, file: file, "the file is \(status.size) bytes, over the limit of \(limit)",
                               hint: "Raise the read limits to open it.")
        }
        // One spare byte lets the read that finds the end of the file land in the buffer.
        let capacity = max(status.size, 0) + 1
        var filled = 0
        // While a document is opened with progress, read in blocks to report after each.
        let monitor = LoadMonitor.current
        let block = monitor == nil ? capacity : 8 << 20
        var bytes = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            while filled < capacity {
                let piece = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[filled ..< min(capacity, filled + block)])
                let n = try SystemCall.readSome(fd, into: piece, file: file)
                if n == 0 { break }
                filled += n
                try monitor?.progress(.reading, filled, of: capacity - 1)
            }
            initialized = filled
        }
        // The file grew while being read: read the rest in pieces.
        guard filled == capacity else { return bytes }
        guard filled <= limit else {
            throw StorageError(.limitExceeded, file: file, "the file grew past the limit of \(limit) bytes while being read",
                               hint: "Raise the read limits to open it.")
        }
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try piece.withUnsafeMutableBytes { try SystemCall.readSome(fd, into: $0, file: file) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: piece[0 ..< n])
            if bytes.count > limit {
                throw StorageError(.limitExceeded, file: file, "the file grew past the limit of \(limit) bytes while being read",
                                   hint: "Raise the read limits to open it.")
            }
        }
    }

    /// At most the first `count` bytes of the file at `path`.
    static func readPrefix(_ path: String, count: Int, file: String) throws -> [UInt8] {
        let fd = try SystemCall.openFile(path, O_RDONLY, .reading, file: file, "cannot open")
        defer { SystemCall.closeQuietly(fd) }
        let status = try SystemCall.fileStatus(fd, file: file)
        if status.isDirectory { throw FileError.make(EISDIR, .reading, file: file, "cannot open") }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = 0
            while filled < count {
                let n = try SystemCall.readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[filled...]), file: file)
                if n == 0 { break }
                filled += n
            }
            initialized = filled
        }
    }
}
