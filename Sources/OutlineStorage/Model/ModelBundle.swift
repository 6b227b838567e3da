import Foundation
import OutlineEngine

/// All versions of a data model (an Xcode `.xcdatamodeld` bundle) and which one is current.
///
/// A single `.xcdatamodel` folder or a bare `contents` file reads as a bundle of one version.
/// A bundle of several versions may name no current version (its `.xccurrentversion` is
/// missing or empty): every version is still there by name, and only what needs the current
/// version (``current``) reports that none is named.
public struct ModelBundle: Sendable, Equatable {
    /// The bundle's name: `"Outline"` for `Outline.xcdatamodeld` (for a single version, its name).
    public var name: String
    /// Every version, ordered by name with numbers compared numerically (`Model 2` before
    /// `Model 10`). The order says nothing about age: use version identifiers or hashes for that.
    public var versions: [Schema]
    /// The name of the current version (the one new documents use), such as `"Outline 3"`; nil
    /// when the bundle has several versions and names none.
    public var currentVersionName: String?
    /// What the model files hold in odd forms that were read anyway (a default written as
    /// `1.5` for an integer attribute, ...), one warning each, naming the file and line.
    public var warnings: [InterchangeWarning] = []

    /// Makes a bundle.
    ///
    /// - Precondition: `versions` is not empty, and holds a version called `currentVersionName`
    ///   when that is given.
    public init(name: String, versions: [Schema], currentVersionName: String?) {
        precondition(!versions.isEmpty, "a model bundle needs a version")
        precondition(
            currentVersionName.map { name in versions.contains { $0.name == name } } ?? true,
            "no version called \"\(currentVersionName ?? "")\" in the bundle")
        self.name = name
        self.versions = versions.sorted { ModelBundle.precedes($0.name, $1.name) }
        self.currentVersionName = currentVersionName
    }

    /// The current version.
    ///
    /// - Throws: ``StorageError`` `noCurrentVersion`, listing the versions, when the bundle
    ///   names no current version.
    public var current: Schema {
        get throws {
            guard let currentVersionName, let schema = version(named: currentVersionName) else {
                throw noCurrentVersionError()
            }
            return schema
        }
    }

    /// This bundle with the version called `name` as its current version.
    ///
    /// - Throws: ``StorageError`` `noCurrentVersion`, listing the versions, when there is no
    ///   version called `name`.
    public func choosingCurrentVersion(_ name: String) throws -> ModelBundle {
        guard version(named: name) != nil else {
            throw StorageError(
                .noCurrentVersion, "the model \"\(self.name)\" has no version called \"\(name)\" (versions: \(versionList))",
                hint: "Choose one of the versions listed, by its name without .xcdatamodel.")
        }
        var copy = self
        copy.currentVersionName = name
        return copy
    }

    /// The error for a bundle that names no current version, listing the versions.
    public func noCurrentVersionError() -> StorageError {
        StorageError(
            .noCurrentVersion,
            "the model \"\(name)\" has \(versions.count) versions (\(versionList)) and names no current version",
            hint: "Choose the version to use by name, or name the current one in the bundle's .xccurrentversion "
                + "(key _XCCurrentVersionName; Xcode: File inspector > Model Version).")
    }

    /// The version names, comma-separated, in order.
    public var versionList: String { versions.map(\.name).joined(separator: ", ") }

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
