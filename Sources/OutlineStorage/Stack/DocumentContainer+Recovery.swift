import Foundation
import OutlineEngine

extension DocumentContainer {
    /// How many numbered names ``writeRecoveryCopy(isolation:)`` tries after the plain one.
    static let recoveryNameAttempts = 1000

    /// Writes the document as it is now, in its format, to a new file beside its own that
    /// replaces nothing: `NAME.recovered.EXT` (for `notes.outline`, `notes.recovered.outline`),
    /// or the first free `NAME.recovered.N.EXT`. For a program that must end without being
    /// able to save over the file (another program changed it, or the save fails), so that
    /// nothing edited is lost. The document itself stays as it was: unsaved, and still the
    /// file at ``path``.
    ///
    /// - Returns: the path of the copy written.
    /// - Throws: ``StorageError`` `unwritable` when no copy can be written there (the folder
    ///   is gone, read-only or full); `limitExceeded` when the document cannot be encoded.
    public func writeRecoveryCopy(isolation: isolated (any Actor)? = #isolation) throws -> String {
        guard let path else {
            throw StorageError(
                .unwritable, file: nil, "the document has no file to write a copy beside",
                hint: "Save it under a name first.")
        }
        let bytes = try store.encoded()
        let name = path as NSString
        let ext = name.pathExtension
        let stem = ext.isEmpty ? path : name.deletingPathExtension
        let folder = name.deletingLastPathComponent.isEmpty ? "." : name.deletingLastPathComponent
        let action = "cannot write a recovery copy beside the file"
        for attempt in 0 ... Self.recoveryNameAttempts {
            let number = attempt == 0 ? "" : ".\(attempt)"
            let candidate = stem + ".recovered" + number + (ext.isEmpty ? "" : "." + ext)
            guard let fd = try SystemCall.createExclusive(candidate, mode: 0o644, file: path, action) else { continue }
            do {
                try bytes.withUnsafeBytes { try SystemCall.writeAll(fd, $0, file: path, action) }
                try SystemCall.syncFile(fd, file: path, action)
                SystemCall.closeQuietly(fd)
            } catch {
                SystemCall.closeQuietly(fd)
                // A partial copy would only mislead: take it away again.
                try? SystemCall.removeFile(candidate, file: path, action)
                throw error
            }
            try? SystemCall.syncDirectory(folder, file: path)
            return candidate
        }
        throw StorageError(
            .unwritable, file: path, "every name for a recovery copy beside the file is taken",
            hint: "Move the old .recovered files away.")
    }
}
