import Foundation

/// Folders of the package, found from this file, so that tests read fixtures, schemas and
/// documentation wherever the package is checked out.
public enum PackagePaths {
    /// The package's root folder (the one holding `Package.swift`).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .standardizedFileURL

    /// The package's `Fixtures/` folder.
    public static let fixtures = root.appending(path: "Fixtures")

    /// A file or folder under `Fixtures/`, such as `fixture("XML/Real/Vehicles.xml")`.
    public static func fixture(_ relative: String) -> URL {
        fixtures.appending(path: relative)
    }

    /// A file or folder relative to the package root, such as `file("Schemas")`.
    public static func file(_ relative: String) -> URL {
        root.appending(path: relative)
    }
}
