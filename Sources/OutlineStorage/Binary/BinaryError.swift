import OutlineEngine

/// The ``StorageError``s of binary documents, with their standard hints.
///
/// Locations are `byte N` (an offset in the file) or `body byte N` (an offset in the inflated
/// body). Hints name the backup a save with `keepBackup` leaves beside the document when it
/// exists (``BackupAdvice``).
enum BinaryError {
    static func truncated(_ file: String, at location: String, _ message: String) -> StorageError {
        StorageError(.truncated, file: file, at: location, message, hint: "The file is truncated; \(BackupAdvice.restore(file)).")
    }

    static func checksum(_ file: String, at location: String, _ message: String) -> StorageError {
        StorageError(
            .checksumMismatch, file: file, at: location, message,
            hint: "The file was damaged after it was written; \(BackupAdvice.restore(file)).")
    }

    static func corrupt(_ file: String, at location: String?, _ message: String) -> StorageError {
        StorageError(.corrupt, file: file, at: location, message, hint: "The file is damaged; \(BackupAdvice.restore(file)).")
    }

    static func limit(_ file: String, at location: String, _ message: String) -> StorageError {
        StorageError(
            .limitExceeded, file: file, at: location, message,
            hint: "The file is damaged or was made to exhaust memory; it was not loaded.")
    }

    static func unsupported(_ file: String, at location: String, _ message: String) -> StorageError {
        StorageError(
            .unsupportedVersion, file: file, at: location, message,
            hint: "It was written by a newer version of Outline; open it with that version.")
    }

    static func notBinary(_ file: String) -> StorageError {
        StorageError(
            .unknownFormat, file: file, at: "byte 0", "not an Outline binary document (the file does not start with the binary magic)",
            hint: "Open it as the kind of file it is, or check that the right file was chosen.")
    }

    /// "1 more byte", "5 more bytes".
    static func bytes(_ n: Int) -> String { n == 1 ? "1 more byte" : "\(n) more bytes" }
    /// "1 byte", "5 bytes".
    static func byteCount(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes" }
}
