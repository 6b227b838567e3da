import Foundation
import OutlineTestSupport

/// Paths of the package's test fixtures.
enum Fixtures {
    /// The package's `Fixtures/` folder.
    static let folder = PackagePaths.fixtures

    /// A model fixture under `Fixtures/Models/`.
    static func model(_ relative: String) -> URL {
        folder.appending(path: "Models").appending(path: relative)
    }
}
