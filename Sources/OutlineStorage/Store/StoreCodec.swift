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
            throw xmlUnavailable(file)
        case nil:
            throw DocumentFormat.unknownFormatError(bytes, file: file)
        }
    }

    static func write(_ graph: ObjectGraph, metadata: StoreMetadata, format: DocumentFormat, level: Int, file: String) throws -> [UInt8] {
        switch format {
        case .binary: try BinaryStore.write(graph, metadata: metadata, level: level)
        case .xml: throw xmlUnavailable(file)
        }
    }

    /// The metadata of the document at `path`, reading only as much of the file as it needs.
    static func readMetadata(_ path: String, file: String, limits: BinaryStore.Limits) throws -> StoreMetadata {
        let prefix = try FileReader.readPrefix(path, count: 64 << 10, file: file)
        switch prefix.withUnsafeBytes({ DocumentFormat.detect($0) }) {
        case .binary:
            var bytes = prefix
            if let size = prefix.withUnsafeBytes({ BinaryStore.headerSize(prefix: $0) }),
               size > prefix.count, size <= limits.maximumHeaderSize + BinaryStore.preludeSize {
                bytes = try FileReader.readPrefix(path, count: size, file: file)
            }
            return try bytes.withUnsafeBytes { try BinaryStore.readMetadata($0, file: file, limits: limits) }
        case .xml:
            throw xmlUnavailable(file)
        case nil:
            throw prefix.withUnsafeBytes { DocumentFormat.unknownFormatError($0, file: file) }
        }
    }

    private static func xmlUnavailable(_ file: String) -> StorageError {
        StorageError(.unknownFormat, file: file, "Core Data XML stores cannot be read or written by this build",
                     hint: "Convert the document to the binary format with a build that has the XML store.")
    }
}
