import Foundation
import OutlineEngine

/// A document: its objects in an `EditingContext`, its metadata, and the file it lives in
/// (or none, for scratch documents and tests).
///
/// Open a file with ``open(_:schema:options:)-(String,_,_)``; the format is found from the content.
/// ``save()`` validates, writes atomically (see ``AtomicFile``) in the document's format and
/// marks the context saved; ``save(to:format:)`` saves as another file or converts.
/// Like the context, a store is used from one thread at a time.
public final class PersistentStore {
    /// How a store saves and reads.
    public struct Options: Sendable, Hashable {
        /// Keep the previous version of the file as `NAME.bak` on each save (`NAME.1.bak`, ...
        /// when that name is taken by a backup this document did not make; see ``KeptBackup``).
        public var keepsBackup: Bool
        /// zlib level of binary saves, 0 (stored) to 9 (smallest).
        public var compressionLevel: Int
        /// On open, remove temporary files that interrupted saves left beside the document.
        public var removesStaleTemporaries: Bool
        /// Safety limits while reading binary documents.
        public var limits: StoreLimits
        /// Refuse to save over the file when another program changed or replaced it since it
        /// was opened or last saved (`conflict`). Turn off to overwrite such changes.
        public var detectsExternalChanges: Bool

        /// Options with the given values; the defaults suit most documents.
        ///
        /// - Precondition: `compressionLevel` is in 0...9.
        public init(
            keepsBackup: Bool = false, compressionLevel: Int = BinaryStore.defaultCompressionLevel,
            removesStaleTemporaries: Bool = true, limits: StoreLimits = .default,
            detectsExternalChanges: Bool = true
        ) {
            precondition((0 ... 9).contains(compressionLevel), "compression level \(compressionLevel) is not in 0...9")
            self.keepsBackup = keepsBackup
            self.compressionLevel = compressionLevel
            self.removesStaleTemporaries = removesStaleTemporaries
            self.limits = limits
            self.detectsExternalChanges = detectsExternalChanges
        }
    }

    /// The objects. Edit through the context; ``save()`` writes what it holds.
    public let context: EditingContext
    /// The file, as given to ``open(_:schema:options:)-(String,_,_)`` or ``save(to:format:)``; nil in memory.
    public internal(set) var path: String?
    /// The format ``save()`` writes.
    public internal(set) var format: DocumentFormat
    /// How the store saves and reads; changes apply from the next save.
    public var options: Options
    /// The metadata as of the last open or save, with custom keys as currently set.
    public internal(set) var metadata: StoreMetadata
    /// The bytes of the last save of a store without a file.
    public internal(set) var savedBytes: [UInt8]?
    /// Whether custom metadata changed since the last open or save.
    public internal(set) var hasMetadataChanges = false
    /// The file as this document last read or wrote it (nil without a file, or before the first save).
    var fingerprint: FileFingerprint?
    /// The backup the last save that kept one made of the previous version (see ``Options/keepsBackup``
    /// and ``KeptBackup``): the one backup a later save of this document may replace.
    public internal(set) var keptBackup: KeptBackup?
    /// The undo history the document keeps, and how saves treat it (`PersistentStore+History.swift`).
    var historyState = HistoryState()
    /// Counts changes of custom metadata, to tell those made while a save runs.
    var metadataEdits = 0
    var metadataEditsAtSave = 0

    /// The model of the document's objects.
    public var schema: Schema { context.schema }
    /// When the document was migrated from an older model version on open: what that did.
    /// The file is unchanged until the next save.
    public internal(set) var migration: MigrationReport?

    /// Whether there is anything to save: object changes or metadata changes.
    public var hasChanges: Bool { context.hasChanges || hasMetadataChanges }

    /// A new, empty document. Nothing is written until ``save()``; without `path` the document
    /// lives in memory only.
    public init(schema: Schema, path: String? = nil, format: DocumentFormat = .binary, options: Options = Options()) {
        self.context = EditingContext(schema: schema)
        self.path = path
        self.format = format
        self.options = options
        self.metadata = StoreMetadata(format: format, embeddedSchema: schema)
    }

    init(context: EditingContext, path: String?, format: DocumentFormat, metadata: StoreMetadata, options: Options) {
        self.context = context
        self.path = path
        self.format = format
        self.metadata = metadata
        self.options = options
    }

    /// Opens the document at `path`, in whichever format its content is.
    ///
    /// Temporary files left by interrupted saves are removed first (see ``Options/removesStaleTemporaries``).
    /// The file is opened once and read from that descriptor (see ``DocumentFile``), so a
    /// pipe can be read as well as a file.
    /// - Parameter schema: the model to load with; nil uses the model the document embeds.
    /// - Parameter path: the file to open; a pipe such as `/dev/stdin` works too.
    /// - Parameter options: how the store reads and later saves.
    /// - Throws: ``StorageError``: `unreadable`, `unknownFormat`, `incompatibleModel` when the
    ///   document was saved with another model, and the format's own errors for damaged files.
    public static func open(_ path: String, schema: Schema? = nil, options: Options = Options()) throws -> PersistentStore {
        try open(try DocumentFile.open(path, limits: options.limits), schema: schema, options: options)
    }

    /// Opens the document in `file` (opened with ``DocumentFile/open(_:limits:)``, perhaps
    /// with its metadata read already), in whichever format its content is.
    ///
    /// - Throws: as ``open(_:schema:options:)-(String,_,_)``.
    public static func open(_ file: DocumentFile, schema: Schema? = nil, options: Options = Options()) throws -> PersistentStore {
        if options.removesStaleTemporaries && file.isRegularFile {
            _ = try? AtomicFile.removeStaleTemporaries(beside: file.path)
        }
        let (graph, metadata, format, history) = try StoreCodec.read(file, schema: schema, limits: options.limits)
        let store = PersistentStore(context: EditingContext(graph: graph), path: file.path, format: format, metadata: metadata, options: options)
        store.fingerprint = file.fingerprint
        store.historyState.stored = history
        return store
    }

    /// A document without a file, loaded from `bytes` in any readable format.
    ///
    /// - Parameter name: how messages name the document.
    /// - Parameter bytes: the whole document.
    /// - Parameter schema: the model to load with; nil uses the model the document embeds.
    /// - Parameter options: how the store reads and later saves.
    public static func load(
        _ bytes: [UInt8], schema: Schema? = nil, name: String = "document",
        options: Options = Options()
    ) throws -> PersistentStore {
        let (graph, metadata, format, history) = try bytes.withUnsafeBytes {
            try StoreCodec.read($0, schema: schema, file: name, limits: options.limits)
        }
        let store = PersistentStore(context: EditingContext(graph: graph), path: nil, format: format, metadata: metadata, options: options)
        store.savedBytes = bytes
        store.historyState.stored = history
        store.historyState.name = name
        return store
    }

    /// The metadata of the document at `path`, without loading its objects.
    ///
    /// For binary documents only the header is read; nothing is inflated.
    public static func readMetadata(_ path: String, limits: StoreLimits = .default) throws -> StoreMetadata {
        try readMetadata(try DocumentFile.open(path, limits: limits), limits: limits)
    }

    /// The metadata of the document in `file`, reading only as much of it as needed (a binary
    /// document's header); the rest can still be read from `file`, by ``open(_:schema:options:)-(DocumentFile,_,_)``.
    public static func readMetadata(_ file: DocumentFile, limits: StoreLimits = .default) throws -> StoreMetadata {
        try StoreCodec.readMetadata(file, limits: limits)
    }

    /// Checks that the binary document in `file` is as long as its header says, without
    /// reading its body: a truncated file, or bytes after the body, is reported as a full read
    /// reports it. ``readMetadata(_:limits:)-(DocumentFile,_)`` reads the header of a damaged
    /// file all the same; this is for a caller that describes the file (`outline info`).
    ///
    /// - Throws: ``StorageError`` `truncated` or `corrupt`; nothing for XML stores or pipes.
    public static func checkLength(_ file: DocumentFile, limits: StoreLimits = .default) throws {
        try StoreCodec.checkLength(file, limits: limits)
    }

    // MARK: Custom metadata

    /// The custom metadata value for `key` (a key Core Data does not reserve). Setting it
    /// counts as a change that the next save writes.
    public subscript(metadata key: String) -> PropertyListValue? {
        get { metadata[custom: key] }
        set {
            precondition(!StoreMetadata.reservedKeys.contains(key), "\"\(key)\" is a reserved metadata key")
            guard metadata[custom: key] != newValue else { return }
            metadata[custom: key] = newValue
            hasMetadataChanges = true
            metadataEdits += 1
        }
    }
}
