import Foundation
import OutlineEngine
import OutlineStorage

/// The versions of the outline schema, read from the package's `Schemas/Outline.xcdatamodeld`,
/// which is embedded in the binary at build time (so the tool needs no files beside it).
///
/// - `Outline` (version identifier `1`): the nested-list model, `Item` with `order`, `title`,
///   `children` and `parent`.
/// - `Outline 2` (`2`): `title` renamed to `text`; `note`, `done` and `created` added.
/// - `Outline 3` (`3`, current): `collapsed`, `extraAttributes` and the `Tag` entity added.
public enum OutlineSchemas {
    /// The bundle's path among the embedded files.
    public static let bundlePath = "Outline.xcdatamodeld"

    /// The embedded model files, by path relative to `Schemas/`.
    public static var files: [String: String] { EmbeddedSchemas.files }

    /// All versions and the current one.
    ///
    /// - Throws: `StorageError` if the embedded model cannot be read (a build made from a
    ///   broken `Schemas/` folder; the test suite checks that it reads).
    public static var bundle: ModelBundle {
        get throws { try loaded.get() }
    }

    /// The version new documents use.
    public static var current: Schema {
        get throws { try bundle.current }
    }

    /// Every version, in name order (`Outline`, `Outline 2`, `Outline 3`).
    public static var versions: [Schema] {
        get throws { try bundle.versions }
    }

    /// The version called `name`, such as `"Outline 2"`, if there is one.
    public static func version(named name: String) throws -> Schema? {
        try bundle.version(named: name)
    }

    private static let loaded: Result<ModelBundle, StorageError> = {
        do {
            return .success(try ModelReader.read(path: bundlePath, in: EmbeddedSchemas.files))
        } catch let error as StorageError {
            return .failure(error)
        } catch {
            return .failure(StorageError(.invalidModel, file: bundlePath, "\(error)"))
        }
    }()
}
