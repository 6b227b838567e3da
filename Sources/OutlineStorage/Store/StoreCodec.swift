import Foundation
import OutlineEngine

/// Reading and writing whole documents in each ``DocumentFormat``: the one place that knows
/// which store type handles which format.
enum StoreCodec {
    static func read(_ bytes: UnsafeRawBufferPointer, schema: Schema?, file: String,
                     limits: BinaryStore.Limits) throws -> (ObjectGraph, StoreMetadata, DocumentFormat) {
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

    static func write(_ graph: ObjectGraph, metadata: StoreMetadata, format: DocumentFormat, level: Int) throws -> [UInt8] {
        switch format {
        case .binary:
            return try BinaryStore.write(graph, metadata: metadata, level: level)
        case .xml:
            // A binary document always carries its model; converted to XML it is written the way
            // Core Data writes stores, without one, so XML -> binary -> XML gives the same bytes.
            var xmlMetadata = metadata
            if metadata.format == .binary { xmlMetadata.embeddedSchema = nil }
            xmlMetadata.format = .xml
            return Array(XMLStore.write(graph, metadata: xmlMetadata))
        }
    }

    /// The metadata of a document held in `bytes`, as written by ``write(_:metadata:format:level:)``.
    static func readMetadata(_ bytes: [UInt8], format: DocumentFormat, file: String, limits: BinaryStore.Limits) throws -> StoreMetadata {
        try bytes.withUnsafeBytes { raw in
            switch format {
            case .binary: try BinaryStore.readMetadata(raw, file: file, limits: limits)
            case .xml: try XMLStore.readMetadata(raw, file: file)
            }
        }
    }

    /// The metadata of the document at `path`, reading only as much of the file as it needs.
    static func readMetadata(_ path: String, file: String, limits: BinaryStore.Limits) throws -> StoreMetadata {
        var prefix = try FileReader.readPrefix(path, count: 64 << 10, file: file)
        switch prefix.withUnsafeBytes({ DocumentFormat.detect($0) }) {
        case .binary:
            if let size = prefix.withUnsafeBytes({ BinaryStore.headerSize(prefix: $0) }),
               size > prefix.count, size <= limits.maximumHeaderSize + BinaryStore.preludeSize {
                prefix = try FileReader.readPrefix(path, count: size, file: file)
            }
            return try prefix.withUnsafeBytes { try BinaryStore.readMetadata($0, file: file, limits: limits) }
        case .xml:
            // The metadata ends at </databaseInfo>; a long embedded model may need more than the first piece.
            while true {
                do {
                    return try prefix.withUnsafeBytes { try XMLStore.readMetadata($0, file: file) }
                } catch let error as StorageError where error.code == .truncated && prefix.count >= 64 << 10 {
                    let more = try FileReader.readPrefix(path, count: min(prefix.count * 8, limits.maximumFileSize), file: file)
                    guard more.count > prefix.count else { throw error }
                    prefix = more
                }
            }
        case nil:
            throw prefix.withUnsafeBytes { DocumentFormat.unknownFormatError($0, file: file) }
        }
    }
}
