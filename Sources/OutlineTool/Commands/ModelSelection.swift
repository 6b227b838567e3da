import Foundation
import OutlineKit
import OutlineStorage

/// The data model a command reads documents with: the outline schemas embedded in the
/// binary, or any Xcode model the user names (`--model`).
public enum ModelSelection {
    /// The model at `path` (a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents`
    /// file), or the embedded outline model when `path` is nil; with `currentVersion` as its
    /// current version when given.
    ///
    /// - Throws: ``OutlineStorage/StorageError`` from the model reader, naming the file and
    ///   line, or `noCurrentVersion` when the model has no version called `currentVersion`.
    public static func bundle(at path: String?, currentVersion: String? = nil) throws -> ModelBundle {
        let bundle = try path.map { try ModelReader.read(at: URL(fileURLWithPath: $0)) } ?? OutlineSchemas.bundle
        return try currentVersion.map { try bundle.choosingCurrentVersion($0) } ?? bundle
    }
}
