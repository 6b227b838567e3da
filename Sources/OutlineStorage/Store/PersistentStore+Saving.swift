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
        try StoreCodec.write(
            context.graph.snapshot(), metadata: metadata, format: format ?? self.format, level: options.compressionLevel,
            file: path, history: historyPayload()?.encoded().payload)
    }

    private func performSave(to path: String?, format: DocumentFormat) throws {
        let (job, marker) = beginSave(to: path, format: format)
        do {
            finishSave(try job.run(), of: job, marker: marker)
        } catch {
            context.abandonSave(marker)
            throw error
        }
    }

    /// The save of the document as it is now to `path` in `format`, and the marker of the
    /// snapshot it writes. Call ``finishSave(_:of:marker:)`` with its outcome, or give the
    /// marker up with `EditingContext.abandonSave(_:)` when it fails.
    func beginSave(to path: String?, format: DocumentFormat, keepsBackup: Bool? = nil) -> (SaveJob, SaveMarker) {
        let (snapshot, marker) = context.snapshotForSave()
        let checks = path != nil && path == self.path && options.detectsExternalChanges
        let history = historyPayload()
        let job = SaveJob(
            snapshot: snapshot, changed: marker.changedObjects, metadata: metadata, path: path, format: format,
            options: options, expected: checks ? fingerprint : nil, keepsBackup: keepsBackup ?? options.keepsBackup,
            replacing: path != nil && path == self.path ? keptBackup : nil, history: history)
        metadataEditsAtSave = metadataEdits
        return (job, marker)
    }

    /// Records a finished save: the document is now `job`'s file in its format, and what the
    /// snapshot held counts as saved (edits made meanwhile stay unsaved).
    func finishSave(_ outcome: SaveJob.Outcome, of job: SaveJob, marker: SaveMarker) {
        var saved = outcome.metadata
        // Custom metadata set while the save ran stays set, and unsaved.
        let editedSince = metadataEdits != metadataEditsAtSave
        if editedSince { saved.custom = metadata.custom }
        metadata = saved
        path = job.path
        format = job.format
        if job.path != nil {
            fingerprint = outcome.fingerprint
            savedBytes = nil
        } else {
            savedBytes = outcome.bytes
        }
        if let kept = outcome.kept { keptBackup = kept }
        historyState.leftOut = outcome.historyLeftOut
        hasMetadataChanges = editedSince
        context.markSaved(marker)
    }
}
