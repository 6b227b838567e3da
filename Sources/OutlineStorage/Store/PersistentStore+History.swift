import OutlineEngine

/// The undo history a document keeps beside its objects (`Docs/UndoHistory.md`), so that undo
/// works across separate processes, days later, in any program that keeps it.
///
/// A store reads the history with the document but leaves it alone until ``restoreHistory()``
/// gives it to the context; from then on every save writes the context's steps (the last
/// ``historyStepLimit``), with a digest of the objects they belong to. A store that does not
/// restore the history carries it unread through saves that change no object (a conversion
/// between the binary and XML formats keeps it), and drops it once objects change, since it
/// would no longer fit them.
extension PersistentStore {
    /// What became of the undo history a document keeps.
    public enum HistoryStatus: Sendable, Equatable {
        /// ``restoreHistory()`` has not looked at it yet.
        case notRestored
        /// The document keeps no undo history.
        case none
        /// The history was given to the context: `EditingContext.undo()` and `redo()` take its steps.
        case restored
        /// The document keeps a history that cannot be used; the error says why (another program
        /// changed the objects since, or the history is damaged). The objects are unaffected.
        case unusable(StorageError)
    }

    /// What ``restoreHistory()`` found.
    public var historyStatus: HistoryStatus { historyState.status }

    /// Whether saves write the context's undo and redo steps into the document. Off until
    /// ``restoreHistory()`` turns it on; turning it off makes the next save drop the history.
    public var keepsHistory: Bool {
        get { historyState.keeps }
        set { historyState.keeps = newValue }
    }

    /// How many steps saves keep, undo and redo together (the nearest ones): 1 to
    /// ``HistoryLimits/maximumSteps``, ``HistoryLimits/defaultSteps`` unless the document says
    /// otherwise. Changing it counts as a change the next save writes.
    public var historyStepLimit: Int {
        get { historyState.stepLimit }
        set {
            precondition(
                (1 ... HistoryLimits.maximumSteps).contains(newValue),
                "a step limit is 1 to \(HistoryLimits.maximumSteps), not \(newValue)")
            guard newValue != historyState.stepLimit else { return }
            historyState.stepLimit = newValue
            hasMetadataChanges = true
        }
    }

    /// How many of the oldest steps the last save left out to keep the history within
    /// ``HistoryLimits`` (0 when it kept every step up to ``historyStepLimit``).
    public var historyStepsLeftOut: Int { historyState.leftOut }

    /// Gives the undo history the document keeps to the context, and turns ``keepsHistory`` on.
    ///
    /// The history is used only if it belongs to the objects as they are: the digest stored
    /// with it must match them (another program that changed the document without keeping the
    /// history is caught here) and every step must apply (see
    /// `EditingContext.importUndoHistory(_:)`). Call it right after opening,
    /// before any edit.
    /// - Returns: the ``historyStatus``; a history that cannot be used is ``HistoryStatus/unusable(_:)``
    ///   with a ``StorageError`` (`historyMismatch`, or `corrupt`, `limitExceeded`,
    ///   `unsupportedVersion` for damaged bytes), and the next save replaces it with the
    ///   context's own steps.
    @discardableResult
    public func restoreHistory() -> HistoryStatus {
        precondition(!context.hasChanges && !context.canUndo && !context.canRedo, "restoreHistory() after edits")
        historyState.keeps = true
        let file = path ?? historyState.name
        if let version = historyState.migratedFrom {
            historyState.status = .unusable(
                StorageError(
                    .historyMismatch, file: file,
                    "the document was migrated from \(version) on opening; its undo history belongs to that version and cannot be used",
                    hint: "Saving keeps the undo history of the new version from here on."))
            historyState.migratedFrom = nil
            return historyState.status
        }
        guard let stored = historyState.stored else {
            historyState.status = .none
            return .none
        }
        historyState.stored = nil
        do {
            let record: HistoryRecord
            let current: [UInt8]
            switch stored {
            case .binary(let payload, let digest):
                record = try payload.withUnsafeBytes { try HistoryCoding.decode($0, file: file) }
                current = digest
            case .xml(let value):
                let payload = try XMLHistoryForm.record(from: value, file: file)
                record = try payload.withUnsafeBytes { try HistoryCoding.decode($0, file: file) }
                current = StateDigest.of(context.graph.snapshot())
            }
            historyState.stepLimit = record.stepLimit
            guard record.stateDigest == current else {
                throw StorageError(
                    .historyMismatch, file: file,
                    "the document was changed by a program that does not keep its undo history; "
                        + "undoing the recorded steps could undo the wrong things",
                    hint: "Clear the undo history to keep editing with undo from here on; the document itself is fine.")
            }
            do {
                try context.importUndoHistory(record.history)
            } catch let error as EngineError {
                throw StorageError(
                    .historyMismatch, file: file, at: error.location,
                    "the undo history does not fit the document (\(error.message))",
                    hint: HistoryCoding.damagedHint, underlying: error)
            }
            historyState.status = .restored
        } catch let error as StorageError {
            historyState.status = .unusable(error)
        } catch {
            historyState.status = .unusable(
                StorageError(
                    .corrupt, file: file, "the undo history cannot be read (\(error))",
                    hint: HistoryCoding.damagedHint))
        }
        return historyState.status
    }

    /// Forgets every undo and redo step, and the history the document keeps: the next save
    /// writes none.
    public func clearHistory() {
        context.removeAllUndoSteps()
        historyState.stored = nil
        historyState.status = .none
        historyState.migratedFrom = nil
        hasMetadataChanges = true
    }

    /// The history a save writes, and how many steps it leaves out.
    func historyPayload() -> (payload: HistoryPayload, leftOut: Int)? {
        if historyState.keeps {
            let history = context.exportUndoHistory(limit: historyState.stepLimit)
            // A history without steps is written only to remember a step limit of its own.
            guard !history.isEmpty || historyState.stepLimit != HistoryLimits.defaultSteps else { return nil }
            let (bytes, leftOut) = HistoryCoding.encode(history, stepLimit: historyState.stepLimit)
            let expected = min(context.undoStepCount + context.redoStepCount, historyState.stepLimit)
            return (HistoryPayload(bytes: bytes, fillsDigest: true), expected - history.count + leftOut)
        }
        guard let stored = historyState.stored, !context.hasChanges else { return nil }
        switch stored {
        case .binary(let payload, _):
            return (HistoryPayload(bytes: payload, fillsDigest: false), 0)
        case .xml(let value):
            // Carried as read; one that cannot even be inflated is not worth carrying.
            guard let payload = try? XMLHistoryForm.record(from: value, file: historyState.name) else { return nil }
            return (HistoryPayload(bytes: payload, fillsDigest: false), 0)
        }
    }
}
