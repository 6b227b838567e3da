import Foundation
import OutlineStorage
import OutlineKit

/// The data model a command reads documents with: the outline schemas embedded in the
/// binary, or any Xcode model the user names (`--model`).
public enum ModelSelection {
    /// The model at `path` (a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents`
    /// file), or the embedded outline model when `path` is nil.
    ///
    /// - Throws: ``OutlineStorage/StorageError`` from the model reader, naming the file and line.
    public static func bundle(at path: String?) throws -> ModelBundle {
        guard let path else { return try OutlineSchemas.bundle }
        return try ModelReader.read(at: URL(fileURLWithPath: path))
    }
}
