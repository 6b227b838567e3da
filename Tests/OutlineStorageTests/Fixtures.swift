import Foundation

/// Paths of the package's test fixtures, found from this file.
enum Fixtures {
    /// The package's `Fixtures/` folder.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures").standardizedFileURL

    /// A model fixture under `Fixtures/Models/`.
    static func model(_ relative: String) -> URL {
        folder.appending(path: "Models").appending(path: relative)
    }
}
