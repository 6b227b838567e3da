import Foundation
import OutlineEngine

/// Outline's binary document format: a checksummed header readable on its own, then a
/// columnar, zlib-compressed body. `Docs/BinaryFormat.md` describes every byte.
///
/// Writing is deterministic: the same graph, metadata and level give the same bytes.
/// Reading checks everything and reports damage as ``StorageError`` naming the byte offset.
public enum BinaryStore {
    /// The zlib level used when none is given: 1. On a 1,000,000-item outline it saved 4 to 7
    /// times faster than level 6 for a file 14% bigger, and level 9 is slower still for 1% less
    /// (measurements in `Docs/BinaryFormat.md`).
    public static let defaultCompressionLevel = 1

    /// Whether `bytes` start like a binary document (the magic; the rest is not checked).
    public static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= BinaryFormat.magic.count && bytes.prefix(BinaryFormat.magic.count).elementsEqual(BinaryFormat.magic)
    }

    // MARK: Writing

    /// Encodes the live objects of `graph` as a binary document.
    ///
    /// From `metadata`, the UUID, the custom keys, the framework version (else
    /// ``StoreMetadata/defaultFrameworkVersion``) and the mark of a derived schema (with its
    /// source hashes, among the custom keys under ``StoreMetadata/derivedModelKey``) are written; the
    /// version hashes, version identifiers, embedded model and object counts always describe
    /// `graph.schema`, and the next object id is the graph's.
    /// - Parameter level: zlib level, 0 (stored) to 9 (smallest); see ``defaultCompressionLevel``.
    /// - Parameter graph: the objects to write; dead rows are left out.
    /// - Parameter metadata: the store metadata to write with them.
    /// - Throws: ``StorageError`` `limitExceeded` when the graph or metadata break a
    ///   ``StoreLimits`` format limit (checked first: what is written always reads back).
    /// - Complexity: O(n) in the objects and bytes of the graph; deflate dominates.
    public static func write(_ graph: ObjectGraph, metadata: StoreMetadata, level: Int = defaultCompressionLevel) throws -> [UInt8] {
        try write(graph.snapshot(), metadata: metadata, level: level)
    }

    /// Encodes the live objects of `graph`, a snapshot (any thread may encode it), as a binary
    /// document, after checking it against the ``StoreLimits``; see
    /// ``write(_:metadata:level:)-(ObjectGraph,_,_)``.
    public static func write(_ graph: GraphSnapshot, metadata: StoreMetadata, level: Int = defaultCompressionLevel) throws -> [UInt8] {
        try StoreLimits.check(graph, metadata: metadata, file: nil)
        return try encode(graph, metadata: metadata, level: level)
    }

    /// ``write(_:metadata:level:)-(GraphSnapshot,_,_)`` for a snapshot already checked against the
    /// limits; with `history`, the undo history goes in its own body section (minor version 1).
    static func encode(_ graph: GraphSnapshot, metadata: StoreMetadata, level: Int, history: HistoryPayload? = nil) throws -> [UInt8] {
        let (header, pieces) = try encodeParts(graph, metadata: metadata, level: level, history: history)
        var file = [UInt8]()
        file.reserveCapacity(pieces.reduce(header.count) { $0 + $1.bytes.count })
        file.append(contentsOf: header)
        for piece in pieces { file.append(contentsOf: piece.bytes) }
        return file
    }

    /// ``encode(_:metadata:level:history:)`` as the header's bytes and the compressed chunks
    /// that follow it, for writing to a file piece by piece.
    static func encodeParts(
        _ graph: GraphSnapshot, metadata: StoreMetadata, level: Int, history: HistoryPayload? = nil
    ) throws -> (header: [UInt8], pieces: [ChunkCompression.Piece]) {
        precondition((0 ... 9).contains(level), "compression level \(level) is not in 0...9")
        let schema = graph.schema
        let encoder = BodyEncoder(graph: graph)
        for entity in schema.entityIndices where encoder.rowCount(entity) > BinaryFormat.maximumRows {
            throw StorageError(
                .limitExceeded, at: "entity \(schema.entities[entity].name)",
                "\(encoder.rowCount(entity)) objects are more than a document can hold (\(BinaryFormat.maximumRows))")
        }
        let modelContents = ModelWriter.contents(of: schema)
        guard modelContents.utf8.count <= StoreLimits.maximumModelBytes else {
            throw StorageError(
                .limitExceeded, at: "model \(schema.name)",
                "the model is \(modelContents.utf8.count) bytes as XML, more than a document may embed (\(StoreLimits.maximumModelBytes))",
                hint: "Save the document as a Core Data XML store without its model instead.")
        }
        let objects = schema.entityIndices.reduce(0) { $0 + encoder.rowCount($1) }
        var compressed = encoder.encodeDeflated(history: history, level: level)
        let bodySize = compressed.reduce(0) { $0 + $1.chunk.size }
        if compressed.reduce(0, { $0 + $1.chunk.storedSize }) < StoreLimits.default.minimumStoredSize(bodySize: bodySize, objects: objects) {
            // Compressed too well for the readers' limits: rare enough to encode again whole
            // and store some chunks as they are (see ChunkCompression.deflate(_:level:objects:)).
            let body = encoder.encode(history: history)
            compressed = body.withUnsafeBytes { ChunkCompression.deflate($0, level: level, objects: objects) }
        }

        let hashes = schema.entityVersionHashes
        var header = BinaryHeader(
            uuid: metadata.uuid, nextObjectID: graph.nextID, compressionLevel: level,
            chunks: compressed.map(\.chunk),
            versionHashes: hashes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, hashes[$0] ?? Data()) },
            versionIdentifiers: [schema.versionIdentifier], frameworkVersion: metadata.frameworkVersion ?? StoreMetadata.defaultFrameworkVersion,
            modelName: schema.name, modelContents: modelContents,
            objectCounts: schema.entityIndices.map { (schema.entities[$0].name, encoder.rowCount($0)) },
            custom: metadata.isSchemaDerived
                ? metadata.custom + [(StoreMetadata.derivedModelKey, XMLMetadataMapping.sourceHashes(metadata))] : metadata.custom)
        if history != nil { header.minorVersion = BinaryFormat.historyMinorVersion }
        let headerBytes = header.encoded()
        guard headerBytes.count - BinaryFormat.preludeSize <= StoreLimits.default.maximumHeaderSize else {
            throw StorageError(
                .limitExceeded,
                "the header (model and metadata) would take \(headerBytes.count) bytes, more than a document may (\(StoreLimits.default.maximumHeaderSize))",
                hint: "Remove some custom metadata and save again; nothing was written.")
        }
        return (headerBytes, compressed)
    }

    // MARK: Reading

    /// Decodes a binary document.
    ///
    /// - Parameters:
    ///   - schema: the model to load with; its version hashes must equal the stored ones.
    ///     `nil` uses the model the document embeds.
    ///   - file: how messages name the document (usually its path as the user gave it).
    ///   - bytes: the whole file.
    ///   - limits: the sizes, counts and ratios the document must keep within.
    /// - Returns: the graph and the document's metadata (with ``StoreMetadata/objectCounts``).
    /// - Throws: ``StorageError``: `unknownFormat` (not a binary document), `truncated`,
    ///   `checksumMismatch`, `corrupt`, `limitExceeded`, `unsupportedVersion`, `incompatibleModel`
    ///   (naming the entities whose hashes differ), or the model reader's errors for the embedded model.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, schema: Schema?, file: String,
        limits: Limits = .default
    ) throws -> (ObjectGraph, StoreMetadata) {
        let (graph, metadata, _) = try readDocument(bytes, schema: schema, file: file, limits: limits)
        return (graph, metadata)
    }

    /// ``read(_:schema:file:limits:)-(UnsafeRawBufferPointer,_,_,_)``, with the undo history
    /// section when the document has one (not decoded).
    static func readDocument(
        _ bytes: UnsafeRawBufferPointer, schema: Schema?, file: String,
        limits: Limits
    ) throws -> (ObjectGraph, StoreMetadata, StoredHistory?) {
        let header = try BinaryHeader.read(bytes, file: file, limits: limits)
        let embedded = try embeddedSchema(header, file: file)
        let model = schema ?? embedded
        try checkHashes(header, against: model, file: file, embedded: schema == nil)
        let (graph, history) = try ChunkCompression.withInflatingBody(bytes, header: header, file: file) { body, buffer, feed in
            try BodyDecoder.decode(body, schema: model, header: header, file: file, releasing: buffer, feed: feed)
        }
        return (graph, metadata(header, schema: embedded), history)
    }

    /// Decodes a binary document held in `data`; see ``read(_:schema:file:limits:)-(UnsafeRawBufferPointer,_,_,_)``.
    public static func read(_ data: Data, schema: Schema?, file: String, limits: Limits = .default) throws -> (ObjectGraph, StoreMetadata) {
        try data.withUnsafeBytes { try read($0, schema: schema, file: file, limits: limits) }
    }

    /// Decodes a binary document held in `bytes`.
    public static func read(_ bytes: [UInt8], schema: Schema?, file: String, limits: Limits = .default) throws -> (ObjectGraph, StoreMetadata) {
        try bytes.withUnsafeBytes { try read($0, schema: schema, file: file, limits: limits) }
    }

    /// Reads the metadata of a binary document from its header alone: nothing is inflated,
    /// and `bytes` may stop after the header.
    ///
    /// - Throws: ``StorageError``, as ``read(_:schema:file:limits:)-(UnsafeRawBufferPointer,_,_,_)``
    ///   for the header.
    public static func readMetadata(_ bytes: UnsafeRawBufferPointer, file: String, limits: Limits = .default) throws -> StoreMetadata {
        let header = try BinaryHeader.read(bytes, file: file, limits: limits)
        return metadata(header, schema: try embeddedSchema(header, file: file))
    }

    /// Reads the metadata of a binary document held in `data`.
    public static func readMetadata(_ data: Data, file: String, limits: Limits = .default) throws -> StoreMetadata {
        try data.withUnsafeBytes { try readMetadata($0, file: file, limits: limits) }
    }

    /// The size of the prelude and header of the document starting with `prefix` (at least
    /// ``preludeSize`` bytes), so a caller can read just the header; nil when `prefix` is too short.
    public static func headerSize(prefix: UnsafeRawBufferPointer) -> Int? {
        guard prefix.count >= BinaryFormat.preludeSize else { return nil }
        let size = prefix.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        return BinaryFormat.preludeSize + Int(UInt32(littleEndian: size))
    }

    /// The number of bytes ``headerSize(prefix:)`` needs.
    public static let preludeSize = BinaryFormat.preludeSize

    // MARK: Model and metadata

    static func embeddedSchema(_ header: BinaryHeader, file: String) throws -> Schema {
        do {
            return try ModelReader.readSchema(
                contents: Data(header.modelContents.utf8), name: header.modelName,
                file: "\(file) (embedded model)")
        } catch var error as StorageError {
            error.hint = "The model the document embeds is damaged; open it with its model given, or \(BackupAdvice.restore(file))."
            throw error
        }
    }

    static func checkHashes(_ header: BinaryHeader, against schema: Schema, file: String, embedded: Bool) throws {
        let expected = schema.entityVersionHashes
        var stored: [String: Data] = [:]
        for (name, hash) in header.versionHashes { stored[name] = hash }
        guard stored != expected else { return }
        var problems: [String] = []
        for name in Set(stored.keys).union(expected.keys).sorted() {
            switch (stored[name], expected[name]) {
            case (nil, _): problems.append("\(name): in the model, not in the document")
            case (_, nil): problems.append("\(name): in the document, not in the model")
            case (let a?, let b?) where a != b: problems.append("\(name): the entity changed")
            default: break
            }
        }
        let entities = problems.map { String($0.prefix { $0 != ":" }) }.joined(separator: ", ")
        let what =
            embedded
            ? "the model embedded in the document does not match its version hashes"
            : "the document was saved with a different model"
        throw StorageError(
            .incompatibleModel, file: file, "\(what) (entities \(entities))",
            hint: embedded
                ? "The file is damaged; \(BackupAdvice.restore(file))."
                : "Open it with the model it was saved with, or migrate it to this model.",
            underlying: EngineError(.migrationFailed, at: "model", "version hashes differ", details: problems))
    }

    static func metadata(_ header: BinaryHeader, schema: Schema) -> StoreMetadata {
        var hashes: [String: Data] = [:]
        for (name, hash) in header.versionHashes { hashes[name] = hash }
        var counts: [String: Int] = [:]
        for (name, count) in header.objectCounts { counts[name] = count }
        var metadata = StoreMetadata(
            format: .binary, uuid: header.uuid, versionHashes: hashes, versionIdentifiers: header.versionIdentifiers,
            embeddedSchema: schema, objectCounts: counts,
            custom: header.custom.filter { $0.key != StoreMetadata.derivedModelKey },
            frameworkVersion: header.frameworkVersion, nextObjectID: header.nextObjectID,
            compressionLevel: header.compressionLevel, uncompressedSize: header.bodySize)
        if let marker = header.custom.first(where: { $0.key == StoreMetadata.derivedModelKey })?.value {
            metadata.isSchemaDerived = true
            if case .dictionary(let entries) = marker {
                for (entity, value) in entries { if case .data(let hash) = value { metadata.sourceVersionHashes[entity] = hash } }
            }
        }
        return metadata
    }
}
