import Foundation
import OutlineEngine

extension DocumentContainer {
    /// Saves the document in the background: the objects as they are now are written while
    /// editing goes on, and only they count as saved once the save finishes.
    ///
    /// Returns when a save holding everything edited before the call is on disk. A save
    /// requested while another runs waits for it, then for one more save shared by every
    /// request made meanwhile.
    /// - Throws: ``StorageError``: `validationFailed` (with the engine's issues), `conflict`
    ///   when another program changed the file or still edits it after ``Options/lockTimeout``,
    ///   `unwritable`. The file and the objects are then as they were, and the changes unsaved.
    public func save(isolation: isolated (any Actor)? = #isolation) async throws {
        if options.isReadOnly {
            throw StorageError(
                .unwritable, file: path, "the document was opened read-only",
                hint: "Open it for editing to save changes.")
        }
        guard !saveInProgress else {
            try await withCheckedThrowingContinuation { waitingForNextSave.append($0) }
            return
        }
        saveInProgress = true
        let result = await attempt()
        // Requests made during that save share one more save, and so on.
        while !waitingForNextSave.isEmpty {
            let waiting = waitingForNextSave
            waitingForNextSave = []
            let next = await attempt()
            for request in waiting { request.resume(with: next) }
        }
        saveInProgress = false
        try result.get()
    }

    nonisolated(nonsending) private func attempt() async -> Result<Void, any Error> {
        do {
            try await saveOnce()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// One save: a snapshot here, the work in the background, the outcome here.
    nonisolated(nonsending) private func saveOnce() async throws {
        guard hasChanges else { return }
        let clock = ContinuousClock()
        let started = clock.now
        savesBegun += 1
        let migrated = store.migration != nil && !savedMigration
        let (job, marker) = store.beginSave(
            to: store.path, format: store.format,
            keepsBackup: store.options.keepsBackup || migrated)
        let handedOver = clock.now
        do {
            let outcome = try await Self.write(job, lockTimeout: options.lockTimeout)
            let returned = clock.now
            store.finishSave(outcome, of: job, marker: marker)
            if migrated { savedMigration = true }
            needsWrite = false
            lastSaveError = nil
            lastSaveTimings = SaveTimings(onActor: (handedOver - started) + (clock.now - returned), inBackground: returned - handedOver)
            eventSink.yield(.saved)
        } catch {
            context.abandonSave(marker)
            let failure =
                error as? StorageError
                ?? (error is CancellationError
                    ? StorageError(.cancelled, file: path, "the save was cancelled", hint: "Nothing was written; save again.")
                    : StorageError(.unwritable, file: path, "the save failed: \(error)", hint: "Try again; nothing was written."))
            lastSaveError = failure
            eventSink.yield(.saveFailed(failure))
            throw failure
        }
    }

    /// Runs `job` off the caller's actor, holding the document's lock while it writes.
    @concurrent
    static func write(_ job: SaveJob, lockTimeout: Duration) async throws -> SaveJob.Outcome {
        var lock: DocumentLock?
        if let path = job.path { lock = try await lockDocument(path, timeout: lockTimeout) }
        defer { lock?.release() }
        return try job.run()
    }

    /// Takes the ``DocumentLock`` of the file at `path`, waiting up to `timeout` for another
    /// process holding it (without blocking a thread); nil when there is no file yet.
    static func lockDocument(_ path: String, timeout: Duration) async throws -> DocumentLock? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            do {
                return try DocumentLock.acquire(path, timeout: 0)
            } catch let error as StorageError where error.code == .unreadable {
                // No file (yet): the save creates it.
                if !FileManager.default.fileExists(atPath: path) { return nil }
                throw error
            } catch let error as StorageError where error.code == .conflict {
                guard clock.now < deadline else {
                    throw StorageError(
                        .conflict, file: path, "another process is editing the document (waited \(timeout) for it to finish)",
                        hint: "Try again once the other program is done; nothing was written.")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}

/// Where the time of a save went (``DocumentContainer/lastSaveTimings``).
public struct SaveTimings: Sendable, Equatable {
    /// How long the save held the container's actor: taking the snapshot, and recording the
    /// outcome. Edits wait only for this.
    public var onActor: Duration
    /// Validation, encoding, compression and the durable write, off the actor.
    public var inBackground: Duration
}
