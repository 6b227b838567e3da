import OutlineStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `-` in place of a file name: standard input where a file is read, standard output where
/// one is written. Standard input is read once, whole, from its descriptor (a pipe works; it
/// is never reopened), and only once per process.
public enum StandardStreams {
    /// The name that stands for standard input or output.
    public static let dash = "-"
    /// How messages name standard input.
    public static let inputName = "standard input"
    /// How messages name standard output.
    public static let outputName = "standard output"

    /// The document `path` names, opened to read: standard input for `-` (named `standard
    /// input` in messages), else the file.
    ///
    /// - Throws: ``OutlineStorage/StorageError`` as ``OutlineStorage/DocumentFile/open(_:limits:)``;
    ///   `unreadable` when standard input was read already.
    public static func openDocument(_ path: String) throws -> DocumentFile {
        guard isStandard(path) else { return try DocumentFile.open(path) }
        try claimInput(as: "the document")
        return try DocumentFile.standardInput(name: inputName)
    }

    /// Whether `path` stands for a standard stream.
    public static func isStandard(_ path: String) -> Bool { path == dash }

    /// How messages name what `path` stands for: `standard input` for `-`, else the path.
    public static func inputDisplayName(_ path: String) -> String { isStandard(path) ? inputName : path }

    nonisolated(unsafe) private static var inputWasRead = false

    /// Notes that standard input is read as `purpose`; an error when it was read before.
    private static func claimInput(as purpose: String) throws {
        guard !inputWasRead else {
            throw StorageError(
                .unreadable, file: inputName, "standard input was already read for something else, so it cannot also be \(purpose)",
                hint: "Give \(purpose) as a file instead of -.")
        }
        inputWasRead = true
    }

    /// All of standard input, at most `limit` bytes.
    ///
    /// - Parameter purpose: what the input is read as (`the document`, `the text`), for the
    ///   message when it was read before.
    /// - Throws: ``OutlineStorage/StorageError`` `unreadable` when standard input cannot be read
    ///   or was read before, `limitExceeded` when it holds more than `limit` bytes.
    public static func readInput(as purpose: String, limit: Int = StoreLimits.default.maximumFileSize) throws -> [UInt8] {
        try claimInput(as: purpose)
        var bytes: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = piece.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw StorageError(
                    .unreadable, file: inputName, "cannot read standard input (\(reason))",
                    hint: "Check what standard input is connected to.")
            }
            guard bytes.count + count <= limit else {
                throw StorageError(
                    .limitExceeded, file: inputName, "standard input holds more than \(limit) bytes, the most a document may have",
                    hint: "Give a smaller document.")
            }
            bytes.append(contentsOf: piece[..<count])
        }
    }
}
