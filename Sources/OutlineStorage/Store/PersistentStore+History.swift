import OutlineEngine

/// The undo history a document keeps beside its objects (`Docs/UndoHistory.md`), so that undo
/// works across separate processes, days later, in any program that keeps it.
///
/// A store reads the history with the document but leaves it alone until ``restoreHistory()``
/// gives it to the context, or ``carryHistory()`` keeps it for the saves; from then on every
/// save writes the kept steps and the context's (the last ``historyStepLimit``), with a digest
/// of the objects they belong to. A store that does neither carries the history unread through
/// saves that change no object (a conversion between the binary and XML formats keeps it), and
/// drops it once objects change, since it would no longer fit them.
extension PersistentStore {
    /// What became of the undo history a document keeps.
    public enum HistoryStatus: Sendable, Equatable {
        /// ``restoreHistory()`` has not looked at it yet.
        case notRestored
        /// The document keeps no undo history.
        case none
        /// The history was given to the context: `EditingContext.undo()` and `redo()` take its
        /// steps (its nearest ones when only those were asked for; the others stay carried).
        case restored
        /// The history is kept for the saves (``carryHistory()``), which add the context's steps
        /// on top of it, but the context cannot take its steps back: ``restoreHistory()`` gives them.
        case carried
        /// The document keeps a history that cannot be used; the error says why (another program
        /// changed the objects since, or the history is damaged). The objects are unaffected.
        case unusable(StorageError)
    }

    /// Whether the document kept an undo history of the version it was migrated from on
    /// opening: saves drop it (its steps belong to that version).
    public var keptHistoryOfOldVersion: Bool { historyState.migratedFrom != nil }

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
    /// history is caught here) and every step given must apply (see
    /// `EditingContext.importUndoHistory(_:)`). Call it right after opening (or after
    /// ``carryHistory()``), before any edit.
    ///
    /// Taking steps over costs time in the changes they hold (each is taken back and forth
    /// once), so a program can ask for the nearest steps only; the others stay carried (as
    /// ``carryHistory()`` keeps them) and saves write them beyond the context's. A program that
    /// edits without undoing calls ``carryHistory()`` instead.
    /// - Parameters:
    ///   - undoSteps: how many of the nearest undo steps to give (all by default).
    ///   - redoSteps: how many of the nearest redo steps to give (all by default).
    /// - Returns: the ``historyStatus``; a history that cannot be used is ``HistoryStatus/unusable(_:)``
    ///   with a ``StorageError`` (`historyMismatch`, or `corrupt`, `limitExceeded`,
    ///   `unsupportedVersion` for damaged bytes), and the next save replaces it with the
    ///   context's own steps.
    @discardableResult
    public func restoreHistory(undoSteps: Int = .max, redoSteps: Int = .max) -> HistoryStatus {
        precondition(!context.hasChanges && !context.canUndo && !context.canRedo, "restoreHistory() after edits")
        precondition(undoSteps >= 0 && redoSteps >= 0, "restoreHistory(undoSteps:redoSteps:) with a negative count")
        // A history found unusable stays so (with its reason) until it is cleared.
        if case .unusable = historyState.status { return historyState.status }
        let file = path ?? historyState.name
        do {
            let whole: UndoHistory
            if let carried = historyState.carried {
                whole = carried
            } else {
                guard let record = try readStoredHistory() else { return historyState.status }
                whole = record.history
            }
            let taken = UndoHistory(undoSteps: Array(whole.undoSteps.suffix(undoSteps)), redoSteps: Array(whole.redoSteps.suffix(redoSteps)))
            let rest = UndoHistory(
                undoSteps: Array(whole.undoSteps.dropLast(taken.undoSteps.count)),
                redoSteps: Array(whole.redoSteps.dropLast(taken.redoSteps.count)))
            historyState.carried = nil
            do {
                try context.importUndoHistory(taken)
            } catch let error as EngineError {
                throw StorageError(
                    .historyMismatch, file: file, at: error.location,
                    "the undo history does not fit the document (\(error.message))",
                    hint: HistoryCoding.damagedHint, underlying: error)
            }
            if !rest.isEmpty { carry(rest) }
            historyState.status = .restored
        } catch let error as StorageError {
            historyState.status = .unusable(error)
        } catch {
            historyState.status = .unusable(unreadable(error, file: file))
        }
        return historyState.status
    }

    /// Gives the context the nearest undo steps that hold at most `changes` changes together
    /// (the nearest one whatever it holds), and the nearest redo steps the same way; the older
    /// ones stay carried (see ``restoreHistory(undoSteps:redoSteps:)``). A program that offers
    /// undo for a whole session opens this way: undo reaches back as far as the document's
    /// history goes, within a bound on the time opening spends checking it.
    @discardableResult
    public func restoreHistory(changes: Int) -> HistoryStatus {
        precondition(changes >= 0, "restoreHistory(changes:) with a negative count")
        if historyState.carried == nil, case .notRestored = historyState.status { carryHistory() }
        guard let carried = historyState.carried else { return historyState.status }
        /// How many of the nearest steps (the last of `steps`) fit within the budget.
        func nearest(_ steps: [UndoHistory.Step]) -> Int {
            var total = 0
            var count = 0
            for step in steps.reversed() {
                total += step.changes.count
                guard count == 0 || total <= changes else { break }
                count += 1
            }
            return count
        }
        return restoreHistory(undoSteps: nearest(carried.undoSteps), redoSteps: nearest(carried.redoSteps))
    }

    /// Keeps the undo history the document keeps for the saves without giving its steps to the
    /// context, and turns ``keepsHistory`` on: each save writes the kept steps with the
    /// context's own on top, as if the context had made them all (a new step ends the kept redo
    /// steps, as an edit after an undo does).
    ///
    /// For a program that edits but does not undo, such as one command of a command-line tool:
    /// the history is read and its digest checked as ``restoreHistory()`` does, but its steps
    /// are not taken back and forth, which for a long history of large steps (thousands of items
    /// renumbered by each) takes far longer than the edit. Whether every step fits the objects
    /// is then checked when ``restoreHistory()`` takes them over, which it still can until the
    /// first edit. Call it right after opening, before any edit.
    /// - Returns: the ``historyStatus``: ``HistoryStatus/carried``, ``HistoryStatus/none``, or
    ///   ``HistoryStatus/unusable(_:)`` as for ``restoreHistory()``.
    @discardableResult
    public func carryHistory() -> HistoryStatus {
        precondition(!context.hasChanges && !context.canUndo && !context.canRedo, "carryHistory() after edits")
        if case .unusable = historyState.status { return historyState.status }
        do {
            guard let record = try readStoredHistory() else { return historyState.status }
            carry(record.history)
            historyState.status = .carried
        } catch let error as StorageError {
            historyState.status = .unusable(error)
        } catch {
            historyState.status = .unusable(unreadable(error, file: path ?? historyState.name))
        }
        return historyState.status
    }

    /// Takes `read` (the history of a store over the same objects, read and checked by
    /// ``carryHistory()``: a ``DocumentContainer`` reads off its actor) as this store's, as
    /// `use` says: dropped, carried for the saves, or with its nearest steps given to the
    /// context. The context must have no steps and no changes.
    func useHistory(_ read: HistoryState, as use: DocumentContainer.UndoHistoryUse) {
        precondition(!context.hasChanges && !context.canUndo && !context.canRedo, "useHistory(_:as:) after edits")
        historyState = read
        historyState.keeps = use != .drop
        historyState.carriedSince = context.editStepCount
        if use == .drop {
            historyState.carried = nil
            historyState.status = .none
        }
        if case .takeOver(let changes) = use, historyState.status == .carried { restoreHistory(changes: changes) }
    }

    /// The undo steps the next save keeps, oldest first (the last is undone first): the carried
    /// ones (``carryHistory()``) and the context's, at most ``historyStepLimit`` with the redo steps.
    public var historyUndoStepNames: [String?] { keptStepNames().undo }

    /// The redo steps the next save keeps, in the order redo takes them.
    public var historyRedoStepNames: [String?] { keptStepNames().redo }

    /// The stored history read and checked against the objects, or nil when there is none to
    /// use (the status then says why: ``HistoryStatus/none``, or a migration made it unusable).
    /// Turns ``keepsHistory`` on.
    ///
    /// - Throws: ``StorageError`` `historyMismatch` when the digest does not match, or what
    ///   decoding throws for damaged bytes.
    private func readStoredHistory() throws -> HistoryRecord? {
        historyState.keeps = true
        let file = path ?? historyState.name
        if let version = historyState.migratedFrom {
            historyState.status = .unusable(
                StorageError(
                    .historyMismatch, file: file,
                    "the document was migrated from \(version) on opening; its undo history belongs to that version and cannot be used",
                    hint: "Saving keeps the undo history of the new version from here on."))
            historyState.migratedFrom = nil
            return nil
        }
        guard let stored = historyState.stored else {
            historyState.status = .none
            return nil
        }
        historyState.stored = nil
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
        return record
    }

    /// Keeps `history` below the context's steps from now on.
    private func carry(_ history: UndoHistory) {
        historyState.carried = history
        historyState.carriedSince = context.editStepCount
    }

    private func unreadable(_ error: any Error, file: String) -> StorageError {
        StorageError(.corrupt, file: file, "the undo history cannot be read (\(error))", hint: HistoryCoding.damagedHint)
    }

    /// Forgets every undo and redo step, and the history the document keeps: the next save
    /// writes none.
    public func clearHistory() {
        context.removeAllUndoSteps()
        historyState.stored = nil
        historyState.carried = nil
        historyState.status = .none
        historyState.migratedFrom = nil
        hasMetadataChanges = true
    }

    /// The history a save writes, and how many steps it leaves out.
    func historyPayload() -> HistoryToWrite? {
        if historyState.keeps {
            let limit = historyState.stepLimit
            let own = context.exportUndoHistory(limit: limit)
            var history = own
            var expected = min(context.undoStepCount + context.redoStepCount, limit)
            if let carried = historyState.carried {
                // Carried steps go below the context's, unless one of those could not be
                // described (then nothing older can be undone either).
                let ownComplete = own.undoSteps.count == min(context.undoStepCount, limit)
                history = Self.continuing(carried, with: own, ownComplete: ownComplete, edited: carriedWasEdited, limit: limit)
                let shape = Self.continuing(carried, counts: (context.undoStepCount, context.redoStepCount), edited: carriedWasEdited)
                expected = min(shape.undo + shape.redo, limit)
            }
            // A history without steps is written only to remember a step limit of its own.
            guard !history.isEmpty || limit != HistoryLimits.defaultSteps else { return nil }
            return .steps(history, stepLimit: limit, undescribed: max(0, expected - history.count))
        }
        guard let stored = historyState.stored, !context.hasChanges else { return nil }
        switch stored {
        case .binary(let payload, _):
            return .carried(HistoryPayload(bytes: payload, fillsDigest: false))
        case .xml(let value):
            // Carried as read; one that cannot even be inflated is not worth carrying.
            guard let payload = try? XMLHistoryForm.record(from: value, file: historyState.name) else { return nil }
            return .carried(HistoryPayload(bytes: payload, fillsDigest: false))
        }
    }
}

extension PersistentStore {
    /// Whether an edit made an undo step since the history was carried: it ended the carried
    /// redo steps, as it ended the context's own.
    var carriedWasEdited: Bool { context.editStepCount != historyState.carriedSince }

    /// `carried` with `own` (the context's steps) on top, the nearest `limit` steps of it, undo
    /// steps first: the carried undo steps below the context's (none when `ownComplete` is
    /// false: a step of the context's could not be described, so nothing older can be undone),
    /// and the carried redo steps beyond the context's unless `edited`.
    static func continuing(_ carried: UndoHistory, with own: UndoHistory, ownComplete: Bool, edited: Bool, limit: Int) -> UndoHistory {
        let undo = Array(((ownComplete ? carried.undoSteps : []) + own.undoSteps).suffix(limit))
        let redo = (edited ? [] : carried.redoSteps) + own.redoSteps
        return UndoHistory(undoSteps: undo, redoSteps: Array(redo.suffix(limit - undo.count)))
    }

    /// How many undo and redo steps ``continuing(_:with:ownComplete:edited:limit:)`` gives
    /// without a limit, for a context with `counts` steps.
    static func continuing(_ carried: UndoHistory, counts: (undo: Int, redo: Int), edited: Bool) -> (undo: Int, redo: Int) {
        (carried.undoSteps.count + counts.undo, (edited ? 0 : carried.redoSteps.count) + counts.redo)
    }

    /// The names of the steps a save keeps: undo oldest first, redo in the order redo takes them.
    fileprivate func keptStepNames() -> (undo: [String?], redo: [String?]) {
        var undo = context.undoStepNames
        var redo = context.redoStepNames
        if let carried = historyState.carried {
            undo = carried.undoSteps.map(\.name) + undo
            if !carriedWasEdited { redo += carried.redoSteps.reversed().map(\.name) }
        }
        // The nearest steps within the limit, undo first (as saves keep them).
        let limit = historyStepLimit
        let keptUndo = Array(undo.suffix(limit))
        return (keptUndo, Array(redo.prefix(limit - keptUndo.count)))
    }
}
