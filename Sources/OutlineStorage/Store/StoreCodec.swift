import Foundation
import OutlineEngine

/// Reading and writing whole documents in each ``DocumentFormat``: the one place that knows
/// which store type handles which format.
enum StoreCodec {
    /// Reads a whole document; its undo history, when it keeps one, is returned undecoded.
    static func read(
        _ bytes: UnsafeRawBufferPointer, schema: Schema?, file: String,
        limits: StoreLimits
    ) throws -> (ObjectGraph, StoreMetadata, DocumentFormat, StoredHistory?) {
        switch DocumentFormat.detect(bytes) {
        case .binary:
            let (graph, metadata, history) = try BinaryStore.readDocument(bytes, schema: schema, file: file, limits: limits)
            return (graph, metadata, .binary, history)
        case .xml:
            var (graph, metadata) = try XMLStore.read(bytes, schema: schema, file: file)
            let history = metadata.undoHistory.map(StoredHistory.xml)
            metadata.undoHistory = nil
            return (graph, metadata, .xml, history)
        case nil:
            throw DocumentFormat.unknownFormatError(bytes, file: file)
        }
    }

    /// Reads the document in `file`. An XML store in a regular file is parsed in pieces as it
    /// is read, so its bytes are never all in memory at once; anything else is read whole first.
    static func read(
        _ file: DocumentFile, schema: Schema?,
        limits: StoreLimits
    ) throws -> (ObjectGraph, StoreMetadata, DocumentFormat, StoredHistory?) {
        if file.isRegularFile, try file.prefix(FileContent.prefixSize).withUnsafeBytes({ DocumentFormat.detect($0) }) == .xml {
            var (graph, metadata) = try XMLStore.read(file, schema: schema)
            let history = metadata.undoHistory.map(StoredHistory.xml)
            metadata.undoHistory = nil
            return (graph, metadata, .xml, history)
        }
        let bytes = try file.readAll()
        return try bytes.withUnsafeBytes { try read($0, schema: schema, file: file.path, limits: limits) }
    }

    static func write(
        _ graph: GraphSnapshot, metadata: StoreMetadata, format: DocumentFormat, level: Int, file: String?,
        history: HistoryPayload? = nil
    ) throws -> [UInt8] {
        try withEncoded(graph, metadata: metadata, format: format, level: level, file: file, history: history) { [UInt8]($0) }
    }

    /// Checks `graph` and `metadata` against the ``StoreLimits`` every reader keeps, encodes
    /// them and calls `body` with the bytes, without copying them first (an XML store of a
    /// million items is 600 MB; a copy would cost as much as writing it).
    ///
    /// - Parameters:
    ///   - file: how a refusal names the document.
    ///   - history: an encoded undo history to keep in the document; binary documents hold it
    ///     in a body section, XML stores under ``StoreMetadata/undoHistoryKey``.
    static func withEncoded<R>(
        _ graph: GraphSnapshot, metadata: StoreMetadata, format: DocumentFormat, level: Int, file: String?,
        history: HistoryPayload? = nil, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        try StoreLimits.check(graph, metadata: metadata, file: file)
        switch format {
        case .binary:
            let bytes = try naming(file) { try BinaryStore.encode(graph, metadata: metadata, level: level, history: history) }
            return try bytes.withUnsafeBytes(body)
        case .xml:
            return try XMLStore.write(graph, metadata: xmlMetadata(of: graph, metadata, history: history)).withUnsafeBytes(body)
        }
    }

    /// `body`'s result; a ``StorageError`` it throws without a file gets `file`.
    private static func naming<R>(_ file: String?, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch var error as StorageError where error.file == nil {
            error.file = file
            throw error
        }
    }

    /// The metadata an XML store of `graph` is written with: its model embedded (every document
    /// carries its model, Apple's files too once we save them) and the undo history, if any,
    /// under ``StoreMetadata/undoHistoryKey``.
    private static func xmlMetadata(of graph: GraphSnapshot, _ metadata: StoreMetadata, history: HistoryPayload?) -> StoreMetadata {
        var metadata = metadata
        if metadata.embeddedSchema == nil { metadata.embeddedSchema = graph.schema }
        metadata.undoHistory = history.map { payload in
            XMLHistoryForm.value(
                for: payload.fillsDigest
                    ? HistoryCoding.filling(payload.bytes, digest: StateDigest.of(graph))
                    : payload.bytes)
        }
        return metadata
    }

    /// Checks `graph` and `metadata` as ``withEncoded(_:metadata:format:level:file:_:)`` does and
    /// replaces the file at `path` with them atomically (see ``AtomicFile``). XML goes to the
    /// temporary file in pieces as it is formatted, never as one buffer of the whole store.
    ///
    /// - Parameter ours: the backup the previous save of this document kept, which this one
    ///   may replace (see ``AtomicFile``).
    /// - Returns: the metadata read back from what was written, and the backup kept, if any.
    static func save(
        _ graph: GraphSnapshot, metadata: StoreMetadata, format: DocumentFormat, level: Int,
        to path: String, keepBackup: Bool, replacing ours: KeptBackup? = nil, limits: StoreLimits,
        history: HistoryPayload? = nil
    ) throws -> (StoreMetadata, KeptBackup?) {
        switch format {
        case .binary:
            // The header, then each compressed chunk: no buffer of the whole file.
            try StoreLimits.check(graph, metadata: metadata, file: path)
            let (header, pieces) = try naming(path) {
                try BinaryStore.encodeParts(graph, metadata: metadata, level: level, history: history)
            }
            let kept = try AtomicFile.write(to: path, keepBackup: keepBackup, replacing: ours, file: path) { write in
                try header.withUnsafeBytes(write)
                for piece in pieces { try piece.bytes.withUnsafeBytes(write) }
            }
            return (try header.withUnsafeBytes { try readMetadata($0, format: format, file: path, limits: limits) }, kept)
        case .xml:
            try StoreLimits.check(graph, metadata: metadata, file: path)
            let metadata = xmlMetadata(of: graph, metadata, history: history)
            var header: [UInt8] = []
            let kept = try AtomicFile.write(to: path, keepBackup: keepBackup, replacing: ours, file: path) { write in
                header = try XMLStoreWriter.write(graph, metadata: metadata, to: write)
            }
            return (try header.withUnsafeBytes { try readMetadata($0, format: format, file: path, limits: limits) }, kept)
        }
    }

    /// The metadata of a document held in `raw`, as written by ``write(_:metadata:format:level:)``.
    static func readMetadata(_ raw: UnsafeRawBufferPointer, format: DocumentFormat, file: String, limits: StoreLimits) throws -> StoreMetadata {
        switch format {
        case .binary: try BinaryStore.readMetadata(raw, file: file, limits: limits)
        case .xml: try XMLStore.readMetadata(raw, file: file)
        }
    }

    /// Checks, from a binary document's header alone, that the regular file `file` holds the
    /// whole body the header declares and nothing after it (``BinaryHeader/checkFileSize(_:file:)``);
    /// nothing to check for XML, a pipe, or what is not a binary document.
    static func checkLength(_ file: DocumentFile, limits: StoreLimits) throws {
        guard file.isRegularFile else { return }
        var prefix = try file.prefix(64 << 10)
        guard prefix.withUnsafeBytes({ DocumentFormat.detect($0) }) == .binary,
            let size = prefix.withUnsafeBytes({ BinaryStore.headerSize(prefix: $0) }),
            size <= limits.maximumHeaderSize + BinaryStore.preludeSize
        else { return }
        if size > prefix.count { prefix = try file.prefix(size) }
        let header = try prefix.withUnsafeBytes { try BinaryHeader.read($0, file: file.path, limits: limits) }
        try header.checkFileSize(file.size, file: file.path)
    }

    /// The metadata of the document in `file`, reading only as much of it as it needs: the
    /// header of a binary document, the start of an XML store up to its `</databaseInfo>`.
    static func readMetadata(_ file: DocumentFile, limits: StoreLimits) throws -> StoreMetadata {
        let name = file.path
        var prefix = try file.prefix(64 << 10)
        switch prefix.withUnsafeBytes({ DocumentFormat.detect($0) }) {
        case .binary:
            if let size = prefix.withUnsafeBytes({ BinaryStore.headerSize(prefix: $0) }),
                size > prefix.count, size <= limits.maximumHeaderSize + BinaryStore.preludeSize
            {
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
