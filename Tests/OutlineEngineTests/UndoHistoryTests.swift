import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

@Suite struct UndoHistoryTests {
    /// A context over the live objects of `context` as a store reads them back, with the
    /// history `context` gives away imported.
    private func reloaded(_ context: EditingContext, limit: Int? = nil) throws -> EditingContext {
        let copy = EditingContext(graph: try context.graph.reloaded())
        try copy.importUndoHistory(context.exportUndoHistory(limit: limit))
        return copy
    }

    /// Undoes every step in both contexts, then redoes every step, comparing the objects after each.
    private func walk(_ original: EditingContext, _ copy: EditingContext, sourceLocation: SourceLocation = #_sourceLocation) {
        while original.canUndo {
            #expect(copy.undoActionName == original.undoActionName, sourceLocation: sourceLocation)
            original.undo()
            copy.undo()
            #expect(GraphState(copy.graph) == GraphState(original.graph), sourceLocation: sourceLocation)
        }
        #expect(!copy.canUndo, sourceLocation: sourceLocation)
        while original.canRedo {
            #expect(copy.redoActionName == original.redoActionName, sourceLocation: sourceLocation)
            original.redo()
            copy.redo()
            #expect(GraphState(copy.graph) == GraphState(original.graph), sourceLocation: sourceLocation)
        }
        #expect(!copy.canRedo, sourceLocation: sourceLocation)
    }

    @Test(arguments: HistoryScenarios.all)
    func keptStepsUndoAndRedoLikeTheOriginalAfterReloading(_ scenario: HistoryScenarios.Scenario) throws {
        let base = try HistoryScenarios.base()
        let original = base.context
        for _ in 0 ..< (try scenario.edit(base)) { original.undo() }
        let history = original.exportUndoHistory()
        #expect(history.undoSteps.count == original.undoStepCount)
        #expect(history.redoSteps.count == original.redoStepCount)

        let copy = try reloaded(original)
        #expect(GraphState(copy.graph) == GraphState(original.graph))
        #expect(!copy.hasChanges)
        #expect(copy.exportUndoHistory() == history)
        walk(original, copy)
    }

    @Test func deletedObjectsComeBackWithTheirIDsAndValues() throws {
        let base = try HistoryScenarios.base()
        let before = GraphState(base.context.graph)
        try base.context.delete(base["A"])
        let copy = try reloaded(base.context)
        #expect(copy.object(with: ObjectID(103)) == nil)
        copy.undo()
        #expect(GraphState(copy.graph) == before)
        let a = try #require(copy.object(with: base.context.objectID(of: base["A"])))
        #expect(try copy.value(forKey: "title", of: a) == .string("A – é"))
        #expect(try copy.objects(forKey: "children", of: a).map(copy.objectID(of:)) == [ObjectID(106), ObjectID(107)])
        #expect(copy.hasChanges)
    }

    @Test func aLongCascadeComesBackWithoutRecursion() throws {
        let base = try HistoryScenarios.base()
        let context = base.context
        var parent = base["C"]
        for i in 0 ..< 20_000 {
            let child = try context.insert("Item")
            try context.setValue(.string("level \(i)"), forKey: "title", of: child)
            try context.setObject(parent, forKey: "parent", of: child)
            parent = child
        }
        context.removeAllUndoSteps()
        context.markSaved()
        let full = GraphState(context.graph)
        try context.delete(base["C"])
        let copy = try reloaded(context)
        copy.undo()
        #expect(GraphState(copy.graph) == full)
        copy.redo()
        #expect(GraphState(copy.graph) == GraphState(context.graph))
    }

    @Test func theLimitKeepsTheNearestSteps() throws {
        let base = try HistoryScenarios.base()
        let context = base.context
        for i in 0 ..< 6 { try context.setValue(.string("note \(i)"), forKey: "note", of: base["B"]) }
        context.undo()
        context.undo()
        let history = context.exportUndoHistory(limit: 3)
        #expect(history.undoSteps.count == 3)
        #expect(history.redoSteps.isEmpty)
        let wider = context.exportUndoHistory(limit: 5)
        #expect(wider.undoSteps.count == 4 && wider.redoSteps.count == 1)
        #expect(wider.redoSteps.last == context.exportUndoHistory().redoSteps.last)

        let copy = try reloaded(context, limit: 3)
        #expect(copy.undoStepCount == 3)
        for _ in 0 ..< 3 { copy.undo() }
        #expect(try copy.value(forKey: "note", of: copy.object(with: context.objectID(of: base["B"]))!) == .string("note 0"))
    }

    @Test func mergedStepsUndoTogether() throws {
        let base = try HistoryScenarios.base()
        let context = base.context
        let before = GraphState(context.graph)
        try context.perform("Edit text") { try context.setValue(.string("x"), forKey: "title", of: base["B"]) }
        try context.perform("Edit note") { try context.setValue(.string("y"), forKey: "note", of: base["B"]) }
        context.mergeLastUndoSteps(2, named: "Edit B")
        #expect(context.undoStepCount == 1)
        #expect(context.undoActionName == "Edit B")
        context.undo()
        #expect(GraphState(context.graph) == before)
        #expect(!context.hasChanges)
    }

    // MARK: Histories that do not fit

    /// Imports `history` into a reload of the base and expects it refused with nothing changed.
    private func expectRefused(
        _ history: UndoHistory, into context: EditingContext? = nil, saying words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let target = try context ?? EditingContext(graph: try HistoryScenarios.base().context.graph.reloaded())
        let before = GraphState(target.graph)
        let error = #expect(throws: EngineError.self, sourceLocation: sourceLocation) { try target.importUndoHistory(history) }
        #expect(error?.code == .historyMismatch, sourceLocation: sourceLocation)
        #expect(error?.message.contains(words) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(GraphState(target.graph) == before, sourceLocation: sourceLocation)
        #expect(!target.canUndo && !target.canRedo && !target.hasChanges, sourceLocation: sourceLocation)
    }

    private func step(_ changes: UndoHistory.Change...) -> UndoHistory {
        UndoHistory(undoSteps: [UndoHistory.Step(name: "Hostile", changes: changes)])
    }

    @Test func aHistoryNamingObjectsTheDocumentLacksIsRefused() throws {
        try expectRefused(step(.attribute(ObjectID(999), "title", old: nil)), saying: "object z999")
        try expectRefused(step(.attribute(ObjectID(103), "colour", old: nil)), saying: "no stored attribute \"colour\"")
        try expectRefused(step(.attribute(ObjectID(103), "scratch", old: nil)), saying: "no stored attribute \"scratch\"")
        try expectRefused(step(.attribute(ObjectID(103), "title", old: .integer(3))), saying: "not a stored String value")
        try expectRefused(step(.attribute(ObjectID(103), "level", old: .integer(40_000))), saying: "not a stored Integer 16 value")
        try expectRefused(step(.toOne(ObjectID(103), "children", old: nil)), saying: "is a to-many relationship")
        try expectRefused(step(.toOne(ObjectID(103), "parent", old: ObjectID(109))), saying: "is a Tag, not a Item")
        try expectRefused(step(.deleted(.init(id: ObjectID(103), entity: "Item"))), saying: "exists in the document")
        try expectRefused(step(.deleted(.init(id: ObjectID(5_000), entity: "Item"))), saying: "never had an object")
        try expectRefused(step(.deleted(.init(id: ObjectID(100), entity: "Nothing"))), saying: "entity \"Nothing\"")
        try expectRefused(step(.memberInserted(ObjectID(102), "children", index: -1, member: ObjectID(103))), saying: "negative")
    }

    @Test func aStepThatDoesNotApplyIsRefusedAndNothingChanges() throws {
        // Positions and members that are not where the step says.
        try expectRefused(
            step(.memberInserted(ObjectID(102), "children", index: 7, member: ObjectID(103))),
            saying: "does not hold z103 at position 8")
        try expectRefused(
            step(.memberInserted(ObjectID(102), "children", index: 1, member: ObjectID(103))),
            saying: "does not hold z103 at position 2")
        try expectRefused(
            step(.memberRemoved(ObjectID(102), "children", index: 0, member: ObjectID(103))),
            saying: "already holds z103")
        try expectRefused(step(.inserted(ObjectID(100))), saying: "object z100")
        // A change whose inverse does not follow: the parent's children would still list the item.
        try expectRefused(step(.toOne(ObjectID(104), "parent", old: ObjectID(105))), saying: "does not point back")
        // Deleting an object that something live still lists.
        try expectRefused(step(.inserted(ObjectID(105))), saying: "still points at z105")
        // A later step that fails takes back the earlier ones.
        let good = UndoHistory.Step(name: "Fine", changes: [.attribute(ObjectID(103), "note", old: .string("n"))])
        let bad = UndoHistory.Step(name: "Broken", changes: [.memberInserted(ObjectID(102), "children", index: 9, member: ObjectID(103))])
        try expectRefused(UndoHistory(undoSteps: [bad, good]), saying: "step 1 of 2 (Broken)")
    }

    @Test func aDocumentChangedBehindTheHistoryIsRefused() throws {
        let base = try HistoryScenarios.base()
        try base.context.add(base["C"], toKey: "children", of: base["R"], at: 0)
        let history = base.context.exportUndoHistory()
        // Another program moved C back and saved without the history.
        let other = EditingContext(graph: try base.context.graph.reloaded())
        try other.add(
            other.object(with: base.context.objectID(of: base["C"]))!, toKey: "children",
            of: other.object(with: base.context.objectID(of: base["R"]))!, at: 2)
        other.markSaved()
        let foreign = EditingContext(graph: try other.graph.reloaded())
        try expectRefused(history, into: foreign, saying: "does not hold z105 at position 1")
    }
}
