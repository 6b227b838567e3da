import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// What `outline info` reports about a document: format, schema version, object counts,
/// sizes, compression, UUID, embedded schema and whether it needs migrating.
///
/// Gathered from the metadata alone where the format records it (binary documents: only the
/// header is read); other documents are loaded to count their objects.
public struct DocumentInfo: Sendable {
    /// The document, as the user named it.
    public var file: String
    /// The store format its content is in.
    public var format: DocumentFormat
    /// The model version the document was written with (a registered version whose hashes
    /// match, else the name of the schema it embeds); nil when unknown.
    public var schemaVersion: String?
    /// Whether ``schemaVersion`` is one of the model's registered versions.
    public var isRegisteredVersion: Bool
    /// The model's current version; nil when the model names none.
    public var currentVersion: String?
    /// Whether the document must be migrated to reach the current version; nil when that
    /// cannot be told (see ``migrationNote``).
    public var isMigrationNeeded: Bool?
    /// The versions a migration passes through, source first (empty when none is needed or possible).
    public var migrationPath: [String]
    /// Why migration is impossible or cannot be judged, when it is.
    public var migrationNote: String?
    /// Whether the document belongs to no version of the model and is read with its own model
    /// (the one it embeds, or one derived from its data).
    public var hasOwnModel = false
    /// Whether the document's model was derived from its data (now, or when it was converted).
    public var isSchemaDerived = false
    /// Live objects per entity, in the schema's entity order.
    public var objectCounts: [(entity: String, count: Int)]
    /// Whether the counts come from the metadata (true) or from loading the objects.
    public var countsFromMetadata: Bool
    /// The file's size in bytes.
    public var fileSize: Int
    /// Binary documents: the body's size once inflated.
    public var uncompressedSize: Int?
    /// Binary documents: the zlib level the body was written with.
    public var compressionLevel: Int?
    /// The store's UUID from its metadata.
    public var uuid: UUID
    /// Whether the document carries its own model (so it opens without the app's model).
    public var isSchemaEmbedded: Bool
    /// The model's version identifiers as the metadata records them (often empty).
    public var versionIdentifiers: [String]
    /// What the user should know about how the document was read (a model derived from the
    /// file), one `FILE: ...` line each.
    public var notes: [String] = []

    /// Gathers the information about the document at `path` (`-`: standard input), read with `model`.
    ///
    /// With the outline model (no model named), a document of another model is described with
    /// its own model: the one it embeds, or one derived from its data.
    /// - Throws: ``OutlineStorage/StorageError`` when the file cannot be read or is damaged.
    public static func gather(path: String, model: ModelBundle) throws -> DocumentInfo {
        // One open: the metadata, the objects if they must be counted, and the size all come
        // from the same descriptor (a pipe is read to its end for its size).
        let document = try StandardStreams.openDocument(path)
        let path = document.path
        let metadata = try PersistentStore.readMetadata(document)
        try PersistentStore.checkLength(document)
        if !document.isRegularFile { _ = try document.readAll() }
        let matches = model.versions(matchingEntityHashes: metadata.versionHashes)
        let registered = matches.first { $0.name == model.currentVersionName } ?? matches.first
        var info = DocumentInfo(
            file: path, format: metadata.format,
            schemaVersion: registered?.name ?? metadata.embeddedSchema.flatMap { $0.name.isEmpty ? nil : $0.name },
            isRegisteredVersion: registered != nil, currentVersion: model.currentVersionName,
            isMigrationNeeded: nil, migrationPath: [], migrationNote: nil, objectCounts: [], countsFromMetadata: true,
            fileSize: document.size, uncompressedSize: metadata.uncompressedSize,
            compressionLevel: metadata.compressionLevel, uuid: metadata.uuid,
            isSchemaEmbedded: metadata.embeddedSchema != nil, versionIdentifiers: metadata.versionIdentifiers)
        info.isSchemaDerived = metadata.isSchemaDerived

        var source: Schema? = registered
        do {
            if let versioning = try DocumentVersioning.find(
                metadata: metadata, model: model, file: path,
                allowingOwnModel: OwnModels.areAllowed(with: model))
            {
                source = versioning.source
                info.isMigrationNeeded = !versioning.isCurrent
                if !versioning.isCurrent {
                    if versioning.route.isPossible {
                        info.migrationPath = versioning.route.path
                    } else {
                        let count = versioning.route.direct.blockers.count
                        info.migrationNote = "blocked (\(count) \(count == 1 ? "blocker" : "blockers"); see `outline migrate --dry-run`)"
                    }
                }
                if model.currentVersionName == nil {
                    info.isMigrationNeeded = nil
                    info.migrationNote = "the model names no current version (versions: \(model.versionList))"
                }
            } else {
                info.hasOwnModel = true
                info.isMigrationNeeded = false
                info.migrationNote = "its own model, not a version of \(model.name)"
            }
        } catch let error as StorageError {
            info.migrationNote = error.message
        }

        let schema = source ?? metadata.embeddedSchema
        if let counts = metadata.objectCounts {
            let order = schema?.entities.map(\.name) ?? counts.keys.sorted()
            info.objectCounts =
                order.map { ($0, counts[$0] ?? 0) } + counts.keys.filter { !order.contains($0) }.sorted().map { ($0, counts[$0] ?? 0) }
        } else {
            let store = try PersistentStore.open(document, schema: schema)
            let graph = store.context.graph
            info.objectCounts = store.schema.entityIndices.map { (store.schema.entities[$0].name, graph.count(ofEntity: $0)) }
            info.countsFromMetadata = false
            info.isSchemaDerived = store.metadata.isSchemaDerived
            if let note = OwnModels.derivationNote(store, file: path) { info.notes.append(note) }
        }
        return info
    }

    private var versionText: String {
        if hasOwnModel && schemaVersion == nil { return isSchemaDerived ? "derived from the file" : "unnamed, embedded" }
        guard let schemaVersion else { return "unknown" }
        if schemaVersion == currentVersion && isRegisteredVersion { return "\(schemaVersion) (current)" }
        if hasOwnModel { return "\(schemaVersion) (\(isSchemaDerived ? "derived from the file" : "embedded"))" }
        return isRegisteredVersion ? schemaVersion : "\(schemaVersion) (not a version of this model)"
    }

    private var migrationText: String {
        switch isMigrationNeeded {
        case false?: return migrationNote.map { "no (\($0))" } ?? "no"
        case true?:
            if let note = migrationNote { return "yes, but \(note)" }
            return "yes (\(migrationPath.joined(separator: " -> ")))"
        case nil: return "unknown: \(migrationNote ?? "the document's version is not known")"
        }
    }

    /// The information as aligned `Label: value` lines.
    public func renderText() -> String {
        var rows: [(String, String)] = [
            ("File", file),
            ("Format", format.rawValue),
            ("Schema version", versionText),
            ("Current version", currentVersion ?? "none named"),
            ("Migration needed", migrationText),
            ("Objects", objectCounts.isEmpty ? "none" : objectCounts.map { "\($0.entity) \(Self.grouped($0.count))" }.joined(separator: ", ")),
            ("File size", "\(Self.grouped(fileSize)) bytes"),
        ]
        if let uncompressedSize { rows.append(("Uncompressed size", "\(Self.grouped(uncompressedSize)) bytes")) }
        if let compressionLevel { rows.append(("Compression level", String(compressionLevel))) }
        rows.append(("UUID", uuid.uuidString))
        rows.append(("Schema embedded", isSchemaEmbedded ? (isSchemaDerived ? "yes (derived from the data)" : "yes") : "no"))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0 + ":" + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }.joined(separator: "\n") + "\n"
    }

    /// The information as a JSON object (sizes in bytes; `uncompressedSize` and
    /// `compressionLevel` null for XML; `migrationNeeded` null when unknown).
    public func renderJSON() -> String {
        JSONValue.object([
            ("file", .string(file)),
            ("format", .string(format.rawValue)),
            ("schemaVersion", .string(schemaVersion)),
            ("registeredVersion", .bool(isRegisteredVersion)),
            ("currentVersion", .string(currentVersion)),
            ("migrationNeeded", isMigrationNeeded.map(JSONValue.bool) ?? .null),
            ("migrationPath", .strings(migrationPath)),
            ("migrationNote", .string(migrationNote)),
            ("objectCounts", .object(objectCounts.map { ($0.entity, .int($0.count)) })),
            ("fileSize", .int(fileSize)),
            ("uncompressedSize", .int(uncompressedSize)),
            ("compressionLevel", .int(compressionLevel)),
            ("uuid", .string(uuid.uuidString)),
            ("schemaEmbedded", .bool(isSchemaEmbedded)),
            ("ownModel", .bool(hasOwnModel)),
            ("schemaDerived", .bool(isSchemaDerived)),
            ("versionIdentifiers", .strings(versionIdentifiers)),
        ]).rendered()
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (number < 0 ? "-" : "") + out
    }
}
