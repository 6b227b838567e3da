/// What identifies one version of a file on disk: which file it is and when and how it was
/// last written. A document remembers it to notice when another program replaced or changed
/// its file since it was opened or saved.
struct FileFingerprint: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Double

    /// The fingerprint of the file at `path` (links followed), or nil when there is none.
    static func of(_ path: String, file: String) throws -> FileFingerprint? {
        guard let status = try SystemCall.status(path, .reading, file: file) else { return nil }
        return FileFingerprint(device: status.device, inode: status.inode, size: status.size, modified: status.modified)
    }
}
