import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

/// Undo histories carried through saves without being taken over (`carryHistory()`), as the
/// command-line tool's editing commands keep them: the steps come back under the new ones,
/// a new edit ends the redo steps, and whether the steps fit is checked when they are taken over.
@Suite struct CarriedHistoryTests {
    /// A document with three named steps saved with it, and the context that made them.
    private func threeSteps(undoing undone: Int = 0, as format: DocumentFormat = .binary) throws -> (bytes: [UInt8], original: EditingContext) {
        let base = try HistoryScenarios.base()
        for (i, name) in ["A", "B", "C"].enumerated() {
            try base.context.perform("Note \(i + 1)") {
                try base.context.setValue(.string("note \(i + 1)"), forKey: "note", of: base[name])
            }
        }
        for _ in 0 ..< undone { base.context.undo() }
        let store = PersistentStore(context: base.context, format: format)
        store.keepsHistory = true
        try store.save()
        return (try #require(store.savedBytes), base.context)
    }

    /// Sets the title of the object with `id` in one named step.
    private func retitle(_ context: EditingContext, _ id: UInt64, _ title: String) throws {
        let item = try #require(context.object(with: ObjectID(id)))
        try context.perform("Retitle \(id)") { try context.setValue(.string(title), forKey: "title", of: item) }
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func theCarriedStepsComeBackUnderTheNewOne(_ format: DocumentFormat) throws {
        let (bytes, original) = try threeSteps(as: format)
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        // Nothing was given to the context, but the steps are known by name.
        #expect(!store.context.canUndo)
        #expect(store.historyUndoStepNames == ["Note 1", "Note 2", "Note 3"])
        try retitle(store.context, 104, "renamed")
        try retitle(original, 104, "renamed")
        #expect(store.historyUndoStepNames == ["Note 1", "Note 2", "Note 3", "Retitle 104"])
        try store.save()
        #expect(store.historyStepsLeftOut == 0)

        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 1", "Note 2", "Note 3", "Retitle 104"])
        #expect(GraphState(reopened.context.graph) == GraphState(original.graph))
        while original.canUndo {
            original.undo()
            reopened.context.undo()
            #expect(GraphState(reopened.context.graph) == GraphState(original.graph))
        }
        #expect(!reopened.context.canUndo)
    }

    @Test func theSaveJobEncodesTheHistoryNotTheThreadThatBeginsTheSave() throws {
        let (bytes, _) = try threeSteps()
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        try retitle(store.context, 104, "renamed")
        // A container begins a save on its actor and runs the job elsewhere: the steps go to
        // the job as they are, and the job encodes them.
        let (job, marker) = store.beginSave(to: nil, format: .binary)
        guard case .steps(let history, let limit, let undescribed)? = job.history else {
            Issue.record("the history was encoded before the job ran: \(String(describing: job.history))")
            return
        }
        #expect(history.undoSteps.map(\.name) == ["Note 1", "Note 2", "Note 3", "Retitle 104"])
        #expect(limit == HistoryLimits.defaultSteps && undescribed == 0)
        store.finishSave(try job.run(), of: job, marker: marker)
        #expect(!store.hasChanges && store.historyStepsLeftOut == 0)
        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 1", "Note 2", "Note 3", "Retitle 104"])
    }

    @Test func aNewEditEndsTheCarriedRedoSteps() throws {
        let (bytes, _) = try threeSteps(undoing: 1)
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        #expect(store.historyRedoStepNames == ["Note 3"])
        try retitle(store.context, 104, "renamed")
        #expect(store.historyRedoStepNames.isEmpty)
        try store.save()
        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 1", "Note 2", "Retitle 104"])
        #expect(!reopened.context.canRedo)
    }

    @Test func withoutAnEditTheRedoStepsStayAndTheLimitApplies() throws {
        let (bytes, original) = try threeSteps(undoing: 1)
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        store.historyStepLimit = 2  // a change of the document's metadata only
        #expect(store.historyUndoStepNames == ["Note 1", "Note 2"] && store.historyRedoStepNames.isEmpty)
        try store.save()
        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 1", "Note 2"] && !reopened.context.canRedo)

        store.historyStepLimit = 3
        let again = try PersistentStore.load(try store.encoded())
        #expect(again.restoreHistory() == .restored)
        #expect(again.context.undoStepNames == ["Note 1", "Note 2"] && again.context.redoStepNames == ["Note 3"])
        again.context.redo()
        original.redo()
        #expect(GraphState(again.context.graph) == GraphState(original.graph))
    }

    @Test func aCarriedHistoryAtItsLimitDropsTheOldestStepWithoutCountingItLeftOut() throws {
        let (bytes, _) = try threeSteps()
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        store.historyStepLimit = 3
        try retitle(store.context, 104, "renamed")
        try store.save()
        // Keeping the nearest 3 steps is the limit at work, not a step too large for the history.
        #expect(store.historyStepsLeftOut == 0)
        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 2", "Note 3", "Retitle 104"])
    }

    @Test func takingOverACarriedHistoryUndoesItsSteps() throws {
        let (bytes, original) = try threeSteps(undoing: 1)
        let store = try PersistentStore.load(bytes)
        #expect(store.carryHistory() == .carried)
        #expect(store.restoreHistory() == .restored)
        #expect(store.context.undoStepNames == ["Note 1", "Note 2"] && store.context.redoStepNames == ["Note 3"])
        #expect(!store.hasChanges)
        store.context.undo()
        original.undo()
        #expect(GraphState(store.context.graph) == GraphState(original.graph))
    }

    @Test func takingOverTheNearestStepOnlyLeavesTheRestCarried() throws {
        let (bytes, original) = try threeSteps(undoing: 1)
        let store = try PersistentStore.load(bytes)
        #expect(store.restoreHistory(undoSteps: 1, redoSteps: 0) == .restored)
        #expect(store.context.undoStepNames == ["Note 2"] && !store.context.canRedo)
        #expect(store.historyUndoStepNames == ["Note 1", "Note 2"] && store.historyRedoStepNames == ["Note 3"])
        store.context.undo()
        original.undo()
        #expect(GraphState(store.context.graph) == GraphState(original.graph))
        // The step undone is redone first, before the carried one.
        #expect(store.historyUndoStepNames == ["Note 1"] && store.historyRedoStepNames == ["Note 2", "Note 3"])
        try store.save()

        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.context.undoStepNames == ["Note 1"] && reopened.context.redoStepNames == ["Note 2", "Note 3"])
        for _ in 0 ..< 2 {
            reopened.context.redo()
            original.redo()
            #expect(GraphState(reopened.context.graph) == GraphState(original.graph))
        }
        reopened.context.undo()
        reopened.context.undo()
        reopened.context.undo()
        for _ in 0 ..< 3 { original.undo() }
        #expect(GraphState(reopened.context.graph) == GraphState(original.graph))
    }

    @Test func aHistoryThatDoesNotFitIsCarriedAndRefusedWhenTakenOver() throws {
        let base = try HistoryScenarios.base()
        // A step about an object the document never had: the digest matches, the step does not.
        let forged = UndoHistory(undoSteps: [.init(name: "Forged", changes: [.attribute(ObjectID(9_999), "note", old: nil)])])
        let bytes = try StoreCodec.write(
            base.context.graph.snapshot(), metadata: StoreMetadata(format: .binary, embeddedSchema: base.context.schema),
            format: .binary, level: 1, file: nil,
            history: HistoryPayload(bytes: HistoryCoding.encode(forged, stepLimit: 100).bytes, fillsDigest: true))

        let carrying = try PersistentStore.load(bytes)
        #expect(carrying.carryHistory() == .carried)
        #expect(carrying.historyUndoStepNames == ["Forged"])
        guard case .unusable(let error) = carrying.restoreHistory() else {
            Issue.record("a history naming a missing object was taken over")
            return
        }
        #expect(error.code == .historyMismatch)
        #expect(error.message.contains("9999"))
        #expect(!carrying.context.canUndo)
        #expect(GraphState(carrying.context.graph) == GraphState(base.context.graph))

        // Taken over directly, the same history is refused in the same way.
        guard case .unusable(let direct) = try PersistentStore.load(bytes).restoreHistory() else {
            Issue.record("a history naming a missing object was taken over")
            return
        }
        #expect(direct.message == error.message)
    }

    @Test func aDocumentChangedWithoutItsHistoryIsCaughtWhenCarrying() throws {
        let (bytes, _) = try threeSteps(as: .xml)
        let text = String(decoding: bytes, as: UTF8.self)
        let edited = text.replacingOccurrences(of: ">note 2<", with: ">note 2, changed elsewhere<")
        #expect(edited != text)
        let store = try PersistentStore.load(Array(edited.utf8))
        guard case .unusable(let error) = store.carryHistory() else {
            Issue.record("a history of other objects was carried")
            return
        }
        #expect(error.code == .historyMismatch)
        #expect(store.historyUndoStepNames.isEmpty)
        // Asking again, in any way, keeps the reason.
        #expect(store.restoreHistory(changes: 10) == .unusable(error))
        #expect(store.restoreHistory() == .unusable(error))
        #expect(store.carryHistory() == .unusable(error))
    }
}
