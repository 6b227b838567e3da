import Foundation
import OutlineEngine

/// Core Data's XML store format (`NSXMLStoreType`): whole documents read and written in memory.
///
/// Reading streams the bytes through libxml2's SAX2 parser straight into the engine's
/// columns: no DOM, no object per XML node. It accepts everything Core Data has been seen to
/// write: three prolog forms, a DOCTYPE that is never loaded, empty metadata, custom metadata keys, byte-swapped `\uXXXX` escapes, objects in any
/// order, `nextObjectID` below the highest id, and more. Hostile XML is refused: entity and
/// other DTD declarations (billion laughs, external entities), network access, nesting deeper
/// than ``maxDepth``, values longer than ``maxValueBytes``. What the file holds must keep the
/// ``StoreLimits`` every reader and writer shares (ids, dates, metadata nesting, ...), so that
/// whatever loads can be saved in every format and read back.
///
/// Writing produces Core Data's layout byte for byte where the notes fix it; see
/// ``write(_:metadata:)-(GraphSnapshot,_)``.
public enum XMLStore {
    /// The deepest element nesting accepted (a store nests 3 levels, its metadata a few more).
    public static let maxDepth = 64
    /// The longest text of a single value accepted, in bytes as written in the file: six times
    /// ``StoreLimits/maximumValueBytes``, because an escape (`\u2600` for `&`) takes six bytes
    /// for one. The value itself must also keep that limit once unescaped or decoded.
    public static let maxValueBytes = 6 * StoreLimits.maximumValueBytes
    /// The longest attribute (other than `idrefs`) and metadata text accepted, in bytes: libxml2's
    /// own limit for attribute values without `XML_PARSE_HUGE`, which the reader needs for the
    /// `idrefs` of long to-many relationships.
    public static let maxAttributeBytes = 10_000_000
    /// The longest text of one metadata value accepted, in bytes as written: six times the most
    /// the custom metadata or the embedded model may take (see ``StoreLimits``).
    static let maxMetadataTextBytes = 6 * max(StoreLimits.maximumMetadataBytes, StoreLimits.maximumModelBytes)

    /// Reads a store's metadata, stopping after `</databaseInfo>`.
    ///
    /// - Parameters:
    ///   - bytes: the whole file, or at least its beginning up to `</databaseInfo>`.
    ///   - file: how error messages name the file.
    /// - Returns: the metadata, with ``StoreMetadata/embeddedSchema`` read when the file embeds a model.
    /// - Throws: ``StorageError``, with the file and line: `malformedXML`, `truncated`,
    ///   `unsafeXML`, `limitExceeded`, `unsupportedVersion`, `corrupt`, or `invalidModel` for
    ///   an embedded model that cannot be read.
    public static func readMetadata(_ bytes: some ContiguousBytes, file: String) throws -> StoreMetadata {
        try bytes.withUnsafeBytes { raw in
            let parser = XMLStoreParser(file: file, maxTextBytes: maxValueBytes) { _, _ in nil }
            do {
                try parser.parse(raw, maxDepth: maxDepth)
            } catch let error as StorageError where error.code == .truncated {
                // A prefix of the file is enough once the metadata is complete.
                if let metadata = parser.metadata { return metadata }
                throw error
            }
            guard let metadata = parser.metadata else {
                throw StorageError(
                    .malformedXML, file: file, "the store has no <databaseInfo>",
                    hint: "A Core Data XML store starts with <database><databaseInfo>; the file is not a store or is damaged.")
            }
            return metadata
        }
    }

    /// Reads a whole store.
    ///
    /// The schema comes from `schema` when given, else from the model the file embeds, else it
    /// is derived from the file itself (entities from object types, attribute types from
    /// `type=`, destinations, cardinalities and inverse pairs from the relationships) so that
    /// a store can be inspected, validated and converted without its model; the metadata then
    /// says ``StoreMetadata/isSchemaDerived``. Entity and property names are matched ignoring
    /// case. With a given or embedded schema, the file's version hashes must match the schema's
    /// (except for an embedded derived schema: the hashes are those of the app's own model).
    ///
    /// - Returns: the graph, and the metadata with ``StoreMetadata/objectCounts`` filled in.
    /// - Throws: ``StorageError`` naming the file and line: `incompatibleModel` when the
    ///   hashes, an entity or a property do not match the schema; `corrupt` for values, ids or
    ///   references that are invalid, or relationship sides that do not mirror each other;
    ///   and the errors of ``readMetadata(_:file:)``.
    /// - Complexity: one pass over the bytes with a schema, two without.
    public static func read(_ bytes: some ContiguousBytes, schema: Schema?, file: String) throws
        -> (graph: ObjectGraph, metadata: StoreMetadata)
    {
        try bytes.withUnsafeBytes { raw in
            try read(size: raw.count, schema: schema, file: file) { SAXParser.source(raw) }
        }
    }

    /// Reads a whole store from `file` in pieces, never holding the whole file in memory;
    /// see ``read(_:schema:file:)``. A file without a model is read twice.
    /// - Parameter pieceSize: the bytes read and parsed at a time (see ``SAXParser/chunkSize``).
    package static func read(_ file: DocumentFile, schema: Schema?, pieceSize: Int? = nil) throws
        -> (graph: ObjectGraph, metadata: StoreMetadata)
    {
        // Pieces as for a buffer, but at most 4 MiB: the piece and libxml2's copy of it are
        // what streaming keeps in memory; an attribute spanning k pieces is scanned k times.
        let pieceSize = pieceSize ?? min(SAXParser.pieceSize(total: file.size), 4 << 20)
        return try read(size: file.size, schema: schema, file: file.path) {
            { consume in try file.readPieces(pieceSize, consume) }
        }
    }

    /// Reads a whole store of about `size` bytes from what `source` makes (a fresh pass each call).
    private static func read(size: Int, schema: Schema?, file: String, source: () -> XMLSource) throws
        -> (graph: ObjectGraph, metadata: StoreMetadata)
    {
        if let schema {
            return try load(source(), size: size, file: file) { metadata, line in
                // The derived model the store embeds, given back, needs no check (see below).
                if !(metadata.isSchemaDerived && metadata.embeddedSchema == schema) {
                    try checkVersionHashes(metadata, schema: schema, file: file, line: line)
                }
                return schema
            }
        }
        do {
            return try load(source(), size: size, file: file) { metadata, line in
                guard let embedded = metadata.embeddedSchema else { return nil }
                // A derived model stands in for the app's model, whose hashes the file keeps.
                if !metadata.isSchemaDerived {
                    try checkVersionHashes(metadata, schema: embedded, file: file, line: line)
                }
                return embedded
            }
        } catch is DerivationRequest {
            let derived = try XMLSchemaDerivation.derive(source(), file: file, maxDepth: maxDepth, maxTextBytes: maxValueBytes)
            var (graph, metadata) = try load(source(), size: size, file: file) { _, _ in derived }
            metadata.isSchemaDerived = true
            metadata.sourceVersionHashes = metadata.versionHashes
            return (graph, metadata)
        }
    }

    /// Writes `graph` in Core Data's XML store layout.
    ///
    /// The layout: the prolog `<?xml version="1.0" standalone="yes"?>`, the DOCTYPE, a blank
    /// line; `<databaseInfo>` with version 134481920, the upper-case UUID, `nextObjectID` = the
    /// highest id allocated, and the metadata property list with sorted keys
    /// (`NSPersistenceFrameworkVersion`, one version hash per entity, hashes version 3, the
    /// version identifiers, custom keys, and the model under ``StoreMetadata/embeddedModelKey``
    /// when `metadata.embeddedSchema` is set); then every live object in id order, entity
    /// names upper-cased, property names lower-cased, 4 spaces per level, no newline after
    /// `</database>`.
    ///
    /// Properties are written in the entity's flattened order (inherited first, each in
    /// declaration order), attributes before relationships. Nil and transient attributes are
    /// omitted; every stored relationship is written, empty ones without `idrefs`, to-one as
    /// `type="1/1"` and to-many as `type="0/0"`; references to deleted objects are dropped.
    /// Dates are `%.20f` seconds since 2001, booleans `0`/`1`, doubles the shortest text that
    /// reads back exactly, binary data base64 with a line feed after the first 76 characters
    /// and at the end; `&`, `<`, `>` in strings become `\u2600`, `\u3c00`, `\u3e00`.
    ///
    /// Version hashes: an entity listed in `metadata.versionHashes` keeps that hash (a
    /// reader has checked it against the schema, and a schema derived from a file cannot
    /// recompute it); others get the schema's. Clear `versionHashes` after changing the schema.
    ///
    /// - Complexity: O(n) in the objects and their values, plus O(n log n) when ids are not
    ///   ascending within each entity.
    public static func write(_ graph: ObjectGraph, metadata: StoreMetadata) -> Data {
        XMLStoreWriter.write(graph.snapshot(), metadata: metadata)
    }

    /// Writes `graph`, a snapshot (any thread may write it), in Core Data's XML store layout;
    /// see ``write(_:metadata:)-(ObjectGraph,_)``.
    public static func write(_ graph: GraphSnapshot, metadata: StoreMetadata) -> Data {
        XMLStoreWriter.write(graph, metadata: metadata)
    }

    // MARK: Reading

    /// Thrown by the metadata callback when the file has no model: derive one, then load.
    private struct DerivationRequest: Error {}

    /// Parses once, decoding objects with the schema `choose` returns for the metadata.
    private static func load(
        _ source: XMLSource, size: Int, file: String,
        choose: @escaping (StoreMetadata, Int) throws -> Schema?
    ) throws
        -> (graph: ObjectGraph, metadata: StoreMetadata)
    {
        var decoder: XMLObjectDecoder?
        let parser = XMLStoreParser(file: file, maxTextBytes: maxValueBytes) { metadata, line in
            guard let schema = try choose(metadata, line) else {
                throw DerivationRequest()
            }
            // Ids run from ObjectID.first to nextObjectID - 1: an estimate to reserve for, at
            // most what the file's size can hold (34 bytes per object at the least).
            let next = metadata.nextObjectID ?? 0
            let first = ObjectID.first.rawValue
            let expected = Int(min(next > first ? next - first : 0, UInt64(size / 34)))
            let sink = XMLObjectDecoder(schema: schema, file: file, expectedObjects: expected, expectedMaxID: next)
            decoder = sink
            return sink
        }
        try parser.parse(source, maxDepth: maxDepth)
        guard let decoder, var metadata = parser.metadata else {
            preconditionFailure("the parser returns only after handing the metadata over")
        }
        let graph = try decoder.finish(nextObjectID: metadata.nextObjectID)
        var counts: [String: Int] = [:]
        for info in graph.schema.infos where !info.entity.isAbstract {
            counts[info.name] = graph.count(ofEntity: info.index)
        }
        metadata.objectCounts = counts
        return (graph, metadata)
    }

    /// Checks the file's version hashes against the schema's; files without hashes pass.
    static func checkVersionHashes(_ metadata: StoreMetadata, schema: Schema, file: String, line: Int) throws {
        guard !metadata.versionHashes.isEmpty else { return }
        let own = schema.entityVersionHashes
        guard own != metadata.versionHashes else { return }
        var differences: [String] = []
        for name in Set(own.keys).union(metadata.versionHashes.keys).sorted() {
            switch (own[name], metadata.versionHashes[name]) {
            case (let a?, let b?) where a != b: differences.append("\(name) differs")
            case (nil, _?): differences.append("\(name) is only in the store")
            case (_?, nil): differences.append("\(name) is only in the model")
            default: continue
            }
        }
        throw StorageError(
            .incompatibleModel, file: file, at: "line \(line)",
            "the store was written with another version of the model (\(differences.joined(separator: "; ")))",
            hint: "Open it with the model version it was written with; migrating it to this one is a separate step.")
    }
}
