import Foundation
import OutlineEngine

/// Reading and writing whole documents in each ``DocumentFormat``: the one place that knows
/// which store type handles which format.
enum StoreCodec {
    static func read(_ bytes: UnsafeRawBufferPointer, schema: Schema?, file: String,
                     limits: StoreLimits) throws -> (ObjectGraph, StoreMetadata, DocumentFormat) {
        switch DocumentFormat.detect(bytes) {
        case .binary:
            let (graph, metadata) = try BinaryStore.read(bytes, schema: schema, file: file, limits: limits)
            return (graph, metadata, .binary)
        case .xml:
            let (graph, metadata) = try XMLStore.read(bytes, schema: schema, file: file)
            return (graph, metadata, .xml)
        case nil:
            throw DocumentFormat.unknownFormatError(bytes, file: file)
        }
    }

    static func write(_ graph: GraphSnapshot, metadata: StoreMetadata, format: DocumentFormat, level: Int, file: String?) throws -> [UInt8] {
        try withEncoded(graph, metadata: metadata, format: format, level: level, file: file) { [UInt8]($0) }
    }

    /// Checks `graph` and `metadata` against the ``StoreLimits`` every reader keeps, encodes
    /// them and calls `body` with the bytes, without copying them first (an XML store of a
    /// million items is 600 MB; a copy would cost as much as writing it).
    ///
    /// - Parameter file: how a refusal names the document.
    static func withEncoded<R>(_ graph: GraphSnapshot, metadata: StoreMetadata, format: DocumentFormat, level: Int, file: String?,
                               _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try StoreLimits.check(graph, metadata: metadata, file: file)
        switch format {
        case .binary:
            do {
                return try BinaryStore.encode(graph, metadata: metadata, level: level).withUnsafeBytes(body)
            } catch var error as StorageError where error.file == nil {
                error.file = file
                throw error
            }
        case .xml:
            // Every document carries its model, Apple's files too once we save them.
            var metadata = metadata
            if metadata.embeddedSchema == nil { metadata.embeddedSchema = graph.schema }
            return try XMLStore.write(graph, metadata: metadata).withUnsafeBytes(body)
        }
    }

    /// The metadata of a document held in `raw`, as written by ``write(_:metadata:format:level:)``.
    static func readMetadata(_ raw: UnsafeRawBufferPointer, format: DocumentFormat, file: String, limits: StoreLimits) throws -> StoreMetadata {
        switch format {
        case .binary: try BinaryStore.readMetadata(raw, file: file, limits: limits)
        case .xml: try XMLStore.readMetadata(raw, file: file)
        }
    }

    /// The metadata of the document in `file`, reading only as much of it as it needs: the
    /// header of a binary document, the start of an XML store up to its `</databaseInfo>`.
    static func readMetadata(_ file: DocumentFile, limits: StoreLimits) throws -> StoreMetadata {
        let name = file.path
        var prefix = try file.prefix(64 << 10)
        switch prefix.withUnsafeBytes({ DocumentFormat.detect($0) }) {
        case .binary:
            if let size = prefix.withUnsafeBytes({ BinaryStore.headerSize(prefix: $0) }),
               size > prefix.count, size <= limits.maximumHeaderSize + BinaryStore.preludeSize {
                prefix = try file.prefix(size)
            }
            return try prefix.withUnsafeBytes { try BinaryStore.readMetadata($0, file: name, limits: limits) }
        case .xml:
            if let metadata = try? prefix.withUnsafeBytes({ try XMLStore.readMetadata($0, file: name) }) {
                return metadata
            }
            // The database info is longer than the prefix (large custom metadata), or damaged:
            // read the whole file so a real error names the right line.
            let whole = try file.readAll()
            return try whole.withUnsafeBytes { try XMLStore.readMetadata($0, file: name) }
        case nil:
            throw prefix.withUnsafeBytes { DocumentFormat.unknownFormatError($0, file: name) }
        }
    }
}
