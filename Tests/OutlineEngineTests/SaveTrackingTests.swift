import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// What counts as saved when a snapshot is saved while editing goes on.
@Suite struct SaveTrackingTests {
    static func context() throws -> (EditingContext, ManagedObject) {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let item = try context.insert("Item")
        try context.setValue(.string("saved"), forKey: "title", of: item)
        context.markSaved()
        return (context, item)
    }

    @Test func editsMadeDuringASaveStayUnsaved() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("in the save"), forKey: "title", of: item)
        let (snapshot, marker) = context.snapshotForSave()
        #expect(context.isSaving)
        let during = try context.insert("Item")
        context.markSaved(marker)
        #expect(!context.isSaving)
        #expect(snapshot.attributeValue(of: item, 1) == .string("in the save"))
        #expect(context.hasChanges)
        #expect(context.insertedObjects == [during] && context.updatedObjects.isEmpty, "only the edit made during the save")
        context.undo()
        #expect(!context.hasChanges, "undoing the later edit comes back to the saved state")
        context.undo()
        #expect(context.updatedObjects == [item], "undoing past it changes the saved value")
        context.redo()
        #expect(!context.hasChanges)
    }

    @Test func aFailedSaveLeavesEverythingUnsaved() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("in the save"), forKey: "title", of: item)
        let (_, marker) = context.snapshotForSave()
        let during = try context.insert("Item")
        context.abandonSave(marker)
        #expect(context.insertedObjects == [during] && context.updatedObjects == [item])
        context.markSaved(marker)
        #expect(context.hasChanges, "a marker that no longer counts does nothing")
        context.undo()
        context.undo()
        #expect(!context.hasChanges, "the last successful save is still the saved state")
    }

    @Test func rollbackDuringASaveReturnsToTheLastFinishedSave() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("in the save"), forKey: "title", of: item)
        let (_, marker) = context.snapshotForSave()
        context.rollback()
        #expect(try context.value(forKey: "title", of: item) == .string("saved") && !context.hasChanges)
        context.markSaved(marker)
        #expect(context.updatedObjects == [item], "the file now holds the rolled-back edit, memory does not")
    }

    @Test func aNewEditAfterUndoingPastTheSaveNeverCountsAsSaved() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("a"), forKey: "title", of: item)
        context.markSaved()
        context.undo()
        try context.setValue(.string("b"), forKey: "title", of: item)
        context.undo()
        #expect(context.hasChanges, "the state before the save is not the saved one")
        context.redo()
        #expect(context.hasChanges, "\"b\" was never saved")
    }

    @Test func editsWithoutUndoKeepTheSavedStateOutOfReach() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("a"), forKey: "title", of: item)
        context.isUndoRegistrationEnabled = false
        try context.setValue(.integer(3), forKey: "order", of: item)
        context.isUndoRegistrationEnabled = true
        context.undo()
        #expect(context.hasChanges, "the edit made without undo is still there")
    }

    @Test func savesInARowKeepTheirOrder() throws {
        let (context, item) = try Self.context()
        try context.setValue(.string("first"), forKey: "title", of: item)
        let (_, first) = context.snapshotForSave()
        try context.setValue(.string("second"), forKey: "title", of: item)
        let (_, second) = context.snapshotForSave()
        try context.setValue(.string("third"), forKey: "title", of: item)
        context.markSaved(first)
        #expect(context.updatedObjects == [item])
        context.markSaved(second)
        #expect(context.updatedObjects == [item])
        context.undo()
        #expect(!context.hasChanges, "the second save's state")
        context.undo()
        #expect(context.hasChanges)
    }

    @Test func observersLearnWhatCausedEachBatchWithPositions() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let root = try context.insert("Item")
        var seen: [ChangeNotification] = []
        let token = context.addChangeObserver { seen.append($0) }
        let child = try context.perform("Add child") { () throws -> ManagedObject in
            let child = try context.insert("Item")
            try context.add(child, toKey: "children", of: root)
            return child
        }
        context.undo()
        context.redo()
        context.rollback()
        #expect(seen.map(\.reason) == [.edit, .undo, .redo, .rollback])
        #expect(seen.map(\.actionName) == ["Add child", "Add child", "Add child", nil])
        #expect(
            seen[0].changes == [
                .inserted(child), .memberInserted(root, 0, member: child, at: 0),
                .toOne(child, 1, from: nil, to: root),
            ])
        #expect(seen[1].changes.contains(.memberRemoved(root, 0, member: child, at: 0)))
        #expect(seen[0].summary == ChangeSet(inserted: [child], updated: [root]))
        context.removeObserver(token)
    }
}
