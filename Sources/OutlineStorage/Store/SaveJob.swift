import Foundation
import OutlineEngine

/// One save of a document, as a value any thread can run: validation of the changed objects,
/// the check for changes by other programs, encoding, and the atomic, durable write.
///
/// ``PersistentStore/save()`` runs it in place; ``DocumentContainer`` runs it off the editing
/// actor while editing goes on. Either way the store applies the outcome (or gives the
/// snapshot's marker up) on the thread that owns it.
struct SaveJob: Sendable {
    /// The objects as they were when the save began.
    var snapshot: GraphSnapshot
    /// The objects validation checks: inserted or updated since the last save.
    var changed: [ManagedObject]
    var metadata: StoreMetadata
    /// The file to write; nil keeps the bytes (a document without a file).
    var path: String?
    var format: DocumentFormat
    var options: PersistentStore.Options
    /// The file as the document last read or wrote it, when the save must refuse to overwrite
    /// another program's changes; nil skips the check.
    var expected: FileFingerprint?
    /// Keep the current file as a backup (`NAME.bak`, or the first free `NAME.N.bak`).
    var keepsBackup: Bool
    /// The backup the previous save of this document kept, which this one may replace.
    var replacing: KeptBackup?
    /// The undo history to keep in the document, if it keeps one; encoded by ``run()``.
    var history: HistoryToWrite?

    /// What a successful save produced.
    struct Outcome: Sendable {
        /// The metadata as written, with the object counts.
        var metadata: StoreMetadata
        /// The file as written (nil without a file).
        var fingerprint: FileFingerprint?
        /// The bytes, for a document without a file.
        var bytes: [UInt8]?
        /// The backup this save kept of the previous version, when it kept one.
        var kept: KeptBackup?
        /// How many undo steps the history left out (over its limits).
        var historyLeftOut = 0
    }

    /// Validates, checks, encodes and writes.
    ///
    /// - Throws: ``StorageError`` `validationFailed` (nothing written), `conflict` when the file
    ///   changed since ``expected`` (nothing written), `unwritable` (the file is unchanged).
    func run() throws -> Outcome {
        try validate()
        if let path, let expected, let current = try FileFingerprint.of(path, file: path), current != expected {
            throw StorageError(
                .conflict, file: path, "the file changed on disk since it was opened or last saved",
                hint: "Open it again to see the other changes, or save under another name; nothing was written.")
        }
        let encodedHistory = history?.encoded()
        let history = encodedHistory?.payload
        var outcome: Outcome
        if let path {
            // XML goes to the temporary file in pieces as it is formatted (StoreCodec.save).
            let (metadata, kept) = try StoreCodec.save(
                snapshot, metadata: metadata, format: format, level: options.compressionLevel,
                to: path, keepBackup: keepsBackup, replacing: replacing,
                limits: options.limits, history: history)
            outcome = Outcome(metadata: metadata, fingerprint: try FileFingerprint.of(path, file: path), bytes: nil, kept: kept)
        } else {
            outcome = try StoreCodec.withEncoded(
                snapshot, metadata: metadata, format: format, level: options.compressionLevel,
                file: nil, history: history
            ) { bytes -> Outcome in
                let metadata = try StoreCodec.readMetadata(bytes, format: format, file: "document", limits: options.limits)
                return Outcome(metadata: metadata, fingerprint: nil, bytes: [UInt8](bytes), kept: nil)
            }
        }
        outcome.metadata.undoHistory = nil
        outcome.historyLeftOut = encodedHistory?.leftOut ?? 0
        if outcome.metadata.objectCounts == nil {
            var counts: [String: Int] = [:]
            for info in snapshot.schema.infos where !info.entity.isAbstract { counts[info.name] = snapshot.count(ofEntity: info.index) }
            outcome.metadata.objectCounts = counts
        }
        return outcome
    }

    /// Throws ``StorageError`` `validationFailed` when a changed object breaks a rule.
    private func validate() throws {
        guard !changed.isEmpty else { return }
        let reader = EditingContext(graph: ObjectGraph(snapshot: snapshot))
        do {
            try reader.validate(changed)
        } catch let error as EngineError {
            throw StorageError(
                .validationFailed, file: path, at: error.location, error.message,
                hint: "Correct the values and save again; nothing was written.", underlying: error)
        }
    }
}
