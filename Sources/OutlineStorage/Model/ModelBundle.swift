import Foundation
import OutlineEngine

/// All versions of a data model (an Xcode `.xcdatamodeld` bundle) and which one is current.
///
/// A single `.xcdatamodel` folder or a bare `contents` file reads as a bundle of one version.
public struct ModelBundle: Sendable, Equatable {
    /// The bundle's name: `"Outline"` for `Outline.xcdatamodeld` (for a single version, its name).
    public var name: String
    /// Every version, ordered by name with numbers compared numerically (`Model 2` before
    /// `Model 10`). The order says nothing about age: use version identifiers or hashes for that.
    public var versions: [Schema]
    /// The name of the current version (the one new documents use), such as `"Outline 3"`.
    public var currentVersionName: String

    /// Makes a bundle.
    ///
    /// - Precondition: `versions` holds a version called `currentVersionName`.
    public init(name: String, versions: [Schema], currentVersionName: String) {
        precondition(versions.contains { $0.name == currentVersionName },
                     "no version called \"\(currentVersionName)\" in the bundle")
        self.name = name
        self.versions = versions.sorted { ModelBundle.precedes($0.name, $1.name) }
        self.currentVersionName = currentVersionName
    }

    /// The current version.
    public var current: Schema {
        // The initializer guarantees the version exists.
        versions.first { $0.name == currentVersionName } ?? versions[0]
    }

    /// The version called `name` (the folder name without `.xcdatamodel`), if there is one.
    public func version(named name: String) -> Schema? {
        versions.first { $0.name == name }
    }

    /// The versions whose entity version hashes equal `hashes`, as a store records them:
    /// the versions that can open that store without migration.
    public func versions(matchingEntityHashes hashes: [String: Data]) -> [Schema] {
        versions.filter { $0.isStorageCompatible(withEntityHashes: hashes) }
    }

    /// Version name order: numbers inside names compare by value, then by Unicode scalars.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        switch lhs.compare(rhs, options: [.numeric]) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
        }
    }
}
