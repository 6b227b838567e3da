import Foundation

/// Temporary folders for tests: each is new, empty, and named after what made it.
public enum TemporaryFolder {
    /// Creates a new empty folder in the system's temporary folder, named `PREFIX-UUID`. The
    /// caller removes it (usually by `defer { TemporaryFolder.remove(folder) }`).
    ///
    /// - Throws: the file system's error when the folder cannot be created.
    public static func make(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes `folder` and everything in it; a folder already gone is not an error.
    public static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
