import Foundation
import OutlineEngine

/// Reads Xcode data models into schemas: a `.xcdatamodeld` bundle with all its versions, a
/// single `.xcdatamodel` folder, or a bare `contents` file, from disk or from memory.
///
/// Everything that matters for storage and validation is read (entities, hierarchy,
/// attributes with types, defaults and bounds, relationships with counts, inverses and delete
/// rules, renaming identifiers, version hash modifiers, uniqueness constraints, user info);
/// elements and attributes this reader does not know are ignored. Every error is a
/// ``StorageError`` naming the file, the line and the element.
public enum ModelReader {
    /// Reads the model at `url`: a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file.
    ///
    /// - Throws: ``StorageError`` `unreadable` when the path does not exist or cannot be read,
    ///   `malformedXML` when a `contents` file is not XML, `invalidModel` when the model cannot
    ///   be used (inconsistent, Xcode 3 format, a current version that is not there, ...). A
    ///   bundle of several versions that names no current version reads (see ``ModelBundle``).
    public static func read(at url: URL) throws -> ModelBundle {
        let url = url.standardizedFileURL
        let name = url.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw StorageError(
                .unreadable, file: url.path, "no such file or folder",
                hint: "Check the path; a model is a .xcdatamodeld or .xcdatamodel folder or a contents file.")
        }
        var files: [String: Data] = [:]
        if isDirectory.boolValue {
            for child in try listing(url) {
                let childURL = url.appending(path: child)
                if modelFileNames.contains(child) || child == currentVersionFile {
                    files["\(name)/\(child)"] = try contents(of: childURL)
                } else if child.hasSuffix(".xcdatamodel") {
                    for file in try listing(childURL) where modelFileNames.contains(file) {
                        files["\(name)/\(child)/\(file)"] = try contents(of: childURL.appending(path: file))
                    }
                }
            }
        } else {
            // Keep the folder in the key: a bare contents file takes its version name from it.
            let folder = url.deletingLastPathComponent()
            let key = "\(folder.lastPathComponent)/\(name)"
            let data = try contents(of: url)
            return try read(path: key, in: [key: data], displayRoot: folder.deletingLastPathComponent().path)
        }
        guard !files.isEmpty else {
            throw StorageError(
                .invalidModel, file: url.path, "the folder holds no model (no contents file and no .xcdatamodel folder)",
                hint: "Check the path; a model is a .xcdatamodeld or .xcdatamodel folder or a contents file.")
        }
        return try read(path: name, in: files, displayRoot: url.deletingLastPathComponent().path)
    }

    /// Reads the model at `path` among in-memory `files` keyed by relative path, such as
    /// `"Outline.xcdatamodeld/Outline 2.xcdatamodel/contents"`.
    ///
    /// `path` names a bundle (`"Outline.xcdatamodeld"`), a version folder or a contents file,
    /// as ``read(at:)`` would on disk; error messages name files by their keys.
    /// - Throws: ``StorageError``, as ``read(at:)``.
    public static func read(path: String, in files: [String: Data]) throws -> ModelBundle {
        try read(path: path, in: files, displayRoot: nil)
    }

    /// Reads the model at `path` among in-memory text `files` keyed by relative path.
    /// - Throws: ``StorageError``, as ``read(at:)``.
    public static func read(path: String, in files: [String: String]) throws -> ModelBundle {
        try read(path: path, in: files.mapValues { Data($0.utf8) }, displayRoot: nil)
    }

    /// Reads one model `contents` document as the schema version called `name`.
    ///
    /// - Parameter file: how error messages name the document.
    /// - Parameter contents: the bytes of a `contents` file of an `.xcdatamodel`.
    /// - Parameter name: the version's name, which the schema takes.
    /// - Throws: ``StorageError`` `malformedXML` or `invalidModel`.
    public static func readSchema(contents: Data, name: String, file: String = "contents") throws -> Schema {
        try readSchemaWithWarnings(contents: contents, name: name, file: file).schema
    }

    /// Reads one model `contents` document, and the warnings about odd forms in it.
    static func readSchemaWithWarnings(contents: Data, name: String, file: String) throws
        -> (schema: Schema, warnings: [InterchangeWarning])
    {
        var reader = ModelContentsReader(file: file)
        let schema = try reader.read(contents, name: name)
        return (schema, reader.warnings)
    }

    // MARK: Layout

    /// The files of a version folder: XML `contents` (Xcode 4 and later), or Xcode 3's binary pair.
    static let modelFileNames: Set<String> = ["contents", "elements", "layout"]
    static let currentVersionFile = ".xccurrentversion"

    static func read(path: String, in files: [String: Data], displayRoot: String?) throws -> ModelBundle {
        let path = path.hasSuffix("/") ? String(path.dropLast()) : path
        let shown = { (relative: String) in displayRoot.map { "\($0)/\(relative)" } ?? relative }
        if let data = files[path] {
            let (schema, warnings) = try readSchemaWithWarnings(contents: data, name: bareFileName(path), file: shown(path))
            var bundle = ModelBundle(name: schema.name, versions: [schema], currentVersionName: schema.name)
            bundle.warnings = warnings
            return bundle
        }
        let prefix = path.isEmpty ? "" : path + "/"
        let below = files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        guard !below.isEmpty else {
            throw StorageError(
                .unreadable, file: shown(path), "no such file or folder",
                hint: "Check the path; a model is a .xcdatamodeld or .xcdatamodel folder or a contents file.")
        }
        let folderName = path.split(separator: "/").last.map(String.init) ?? ""
        var warnings: [InterchangeWarning] = []
        if folderName.hasSuffix(".xcdatamodel") || below.contains(where: modelFileNames.contains) {
            let schema = try readVersion(folder: path, name: versionName(folderName), files: files, shown: shown, warnings: &warnings)
            var bundle = ModelBundle(name: schema.name, versions: [schema], currentVersionName: schema.name)
            bundle.warnings = warnings
            return bundle
        }
        let versionFolders = Set(
            below.compactMap { relative -> String? in
                let first = relative.split(separator: "/").first.map(String.init) ?? ""
                return first.hasSuffix(".xcdatamodel") ? first : nil
            }
        ).sorted { ModelBundle.precedes(versionName($0), versionName($1)) }
        guard !versionFolders.isEmpty else {
            throw StorageError(
                .invalidModel, file: shown(path), "the bundle holds no model versions (no *.xcdatamodel folder)",
                hint: "Add a version in Xcode (Editor > Add Model Version), or check the path.")
        }
        var versions: [Schema] = []
        for folder in versionFolders {
            versions.append(
                try readVersion(
                    folder: prefix + folder, name: versionName(folder), files: files, shown: shown,
                    warnings: &warnings))
        }
        let current = try currentVersion(of: versionFolders, bundle: path, files: files, shown: shown)
        let bundleName = folderName.hasSuffix(".xcdatamodeld") ? String(folderName.dropLast(".xcdatamodeld".count)) : folderName
        var bundle = ModelBundle(name: bundleName, versions: versions, currentVersionName: current.map(versionName))
        bundle.warnings = warnings
        return bundle
    }

    private static func readVersion(
        folder: String, name: String, files: [String: Data],
        shown: (String) -> String, warnings: inout [InterchangeWarning]
    ) throws -> Schema {
        let prefix = folder.isEmpty ? "" : folder + "/"
        if let data = files[prefix + "contents"] {
            let (schema, found) = try readSchemaWithWarnings(contents: data, name: name, file: shown(prefix + "contents"))
            warnings += found
            return schema
        }
        if files[prefix + "elements"] != nil || files[prefix + "layout"] != nil {
            throw xcode3Error(file: shown(folder))
        }
        throw StorageError(
            .invalidModel, file: shown(folder), "the model folder has no contents file",
            hint: "Restore the folder's contents file, or re-save the model in Xcode.")
    }

    /// The current version's folder name, from `.xccurrentversion` or the only version; nil
    /// when several versions and no current one are there (Xcode then uses none either).
    private static func currentVersion(
        of folders: [String], bundle: String, files: [String: Data],
        shown: (String) -> String
    ) throws -> String? {
        let plistPath = (bundle.isEmpty ? "" : bundle + "/") + currentVersionFile
        var named: String?
        if let data = files[plistPath], !data.isEmpty {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let dictionary = plist as? [String: Any] else {
                throw StorageError(
                    .invalidModel, file: shown(plistPath), "not a property list dictionary",
                    hint: "Choose the current version again in Xcode's File inspector, or delete the file.")
            }
            named = (dictionary["_XCCurrentVersionName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let named {
            let folder = named.hasSuffix(".xcdatamodel") ? named : named + ".xcdatamodel"
            guard folders.contains(folder) else {
                throw StorageError(
                    .invalidModel, file: shown(plistPath),
                    "the current version \"\(named)\" is not in the bundle (versions: \(folders.joined(separator: ", ")))",
                    hint: "Choose an existing version as current in Xcode's File inspector.")
            }
            return folder
        }
        return folders.count == 1 ? folders[0] : nil
    }

    static func xcode3Error(file: String) -> StorageError {
        StorageError(
            .invalidModel, file: file,
            "Xcode 3 model (binary \"elements\" and \"layout\" files instead of an XML \"contents\" file)",
            hint: "Re-save it in Xcode 4 or later, which converts it.")
    }

    private static func versionName(_ folder: String) -> String {
        folder.hasSuffix(".xcdatamodel") ? String(folder.dropLast(".xcdatamodel".count)) : folder
    }

    /// A bare file's version name: its folder's name if that is a `.xcdatamodel`, else the file name.
    private static func bareFileName(_ path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".xcdatamodel") {
            return versionName(parts[parts.count - 2])
        }
        let file = parts.last ?? path
        return file.split(separator: ".").first.map(String.init) ?? file
    }

    // MARK: Disk

    private static func listing(_ url: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw StorageError(
                .unreadable, file: url.path, "the folder cannot be listed (\(error.localizedDescription))",
                hint: "Check that the folder exists and that you may read it.")
        }
    }

    private static func contents(of url: URL) throws -> Data {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StorageError(
                .unreadable, file: url.path, "a folder where a file was expected",
                hint: "Check the model's layout; contents and .xccurrentversion are files.")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw StorageError(
                .unreadable, file: url.path, "the file cannot be read (\(error.localizedDescription))",
                hint: "Check that the file exists and that you may read it.")
        }
    }
}
