import Foundation
import OutlineEngine

extension PersistentStore {
    /// Validates and writes the document to its file in its format, then marks it saved.
    ///
    /// A document without a file keeps the bytes in ``savedBytes``.
    /// - Throws: ``StorageError`` `validationFailed` (with the engine's issues in `underlying`)
    ///   or `limitExceeded` (a value no reader would accept, see ``StoreLimits``) before
    ///   anything is written; `unwritable` when the file cannot be written, in which case the
    ///   file on disk is unchanged.
    public func save() throws {
        try performSave(to: path, format: format)
    }

    /// Saves the document as `path` in `format` (its current format when nil); from then on the
    /// document is that file, in that format ("Save As", or a conversion).
    public func save(to path: String, format: DocumentFormat? = nil) throws {
        try performSave(to: path, format: format ?? self.format)
    }

    /// The document encoded in `format` (its own when nil), as a save would write it; nothing
    /// is validated or marked saved.
    public func encoded(as format: DocumentFormat? = nil) throws -> [UInt8] {
        try StoreCodec.write(context.graph.snapshot(), metadata: metadata, format: format ?? self.format, level: options.compressionLevel,
                             file: path, history: historyPayload()?.payload)
    }

    private func performSave(to path: String?, format: DocumentFormat) throws {
        do {
            try context.validateForSave()
        } catch let error as EngineError {
            throw StorageError(.validationFailed, file: path, at: error.location, error.message,
                               hint: "Correct the values and save again; nothing was written.", underlying: error)
        }
        if let path, path == self.path, options.detectsExternalChanges, let known = fingerprint,
           let current = try FileFingerprint.of(path, file: path), current != known {
            throw StorageError(.conflict, file: path, "the file changed on disk since it was opened or last saved",
                               hint: "Open it again to see the other changes, or save under another name; nothing was written.")
        }
        let history = historyPayload()
        var saved: StoreMetadata
        if let path {
            let ours = path == self.path ? keptBackup : nil
            let kept: KeptBackup?
            (saved, kept) = try StoreCodec.save(context.graph.snapshot(), metadata: metadata, format: format,
                                                level: options.compressionLevel, to: path, keepBackup: options.keepsBackup,
                                                replacing: ours, limits: options.limits, history: history?.payload)
            if let kept { keptBackup = kept }
            fingerprint = try FileFingerprint.of(path, file: path)
            savedBytes = nil
        } else {
            saved = try StoreCodec.withEncoded(context.graph.snapshot(), metadata: metadata, format: format,
                                               level: options.compressionLevel, file: path, history: history?.payload) { bytes in
                savedBytes = [UInt8](bytes)
                return try StoreCodec.readMetadata(bytes, format: format, file: "document", limits: options.limits)
            }
        }
        if saved.objectCounts == nil {
            var counts: [String: Int] = [:]
            for info in schema.infos where !info.entity.isAbstract { counts[info.name] = context.graph.count(ofEntity: info.index) }
            saved.objectCounts = counts
        }
        saved.undoHistory = nil
        historyState.leftOut = history?.leftOut ?? 0
        self.metadata = saved
        self.path = path
        self.format = format
        hasMetadataChanges = false
        context.markSaved()
    }
}
