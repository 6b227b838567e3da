import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Scratch contexts commit as one undo step; every kind of conflicting parent change is
/// listed and dealt with by the documented policy.
@Suite struct ScratchContextTests {
    /// A parent with a root and items "a", "b", "c" under it, saved.
    static func parent() throws -> (EditingContext, root: ManagedObject, [ManagedObject]) {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let root = try context.insert("Item")
        var items: [ManagedObject] = []
        for title in ["a", "b", "c"] {
            let item = try context.insert("Item")
            try context.setValue(.string(title), forKey: "title", of: item)
            try context.add(item, toKey: "children", of: root)
            items.append(item)
        }
        context.removeAllUndoSteps()
        context.markSaved()
        return (context, root, items)
    }

    static func titles(_ context: EditingContext, under root: ManagedObject) throws -> [String] {
        try context.objects(forKey: "children", of: root).map { try context.value(forKey: "title", of: $0)?.stringValue ?? "-" }
    }

    @Test func aCommitIsOneNamedUndoStep() throws {
        let (context, root, items) = try Self.parent()
        var batches: [ChangeNotification] = []
        context.addChangeObserver { batches.append($0) }
        let scratch = context.makeScratchContext()
        let added = try scratch.insert("Item")
        try scratch.setValue(.string("d"), forKey: "title", of: added)
        try scratch.add(added, toKey: "children", of: root)
        try scratch.setValue(.string("A"), forKey: "title", of: items[0])
        try scratch.delete(items[1])
        #expect(try Self.titles(context, under: root) == ["a", "b", "c"], "the parent sees nothing before the commit")

        let report = try scratch.commit(named: "Edit sheet")
        #expect(report.conflicts.isEmpty)
        let inParent = try #require(report.insertedObjects[added])
        #expect(report.parentObject(for: added) == inParent && report.parentObject(for: items[0]) == items[0])
        #expect(context.objectID(of: inParent) == ObjectID(106), "a new id of the parent")
        #expect(try Self.titles(context, under: root) == ["A", "c", "d"])
        #expect(!context.exists(items[1]))
        #expect(batches.count == 1 && batches[0].actionName == "Edit sheet")
        #expect(context.undoActionName == "Edit sheet")

        context.undo()
        #expect(try Self.titles(context, under: root) == ["a", "b", "c"] && !context.hasChanges)
        context.redo()
        #expect(try Self.titles(context, under: root) == ["A", "c", "d"])
        #expect(try context.object(forKey: "parent", of: inParent) == root)
    }

    @Test func aDiscardedScratchContextChangesNothing() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.delete(items[0])
        try scratch.setValue(.string("x"), forKey: "title", of: items[1])
        scratch.discard()
        #expect(try Self.titles(context, under: root) == ["a", "b", "c"] && !context.hasChanges && !context.canUndo)
    }

    @Test func aScratchContextHasItsOwnUndo() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.setValue(.string("x"), forKey: "title", of: items[0])
        try scratch.setValue(.string("y"), forKey: "title", of: items[1])
        scratch.undo()
        let report = try scratch.commit(named: "One")
        #expect(report.conflicts.isEmpty)
        #expect(try Self.titles(context, under: root) == ["x", "b", "c"])
    }

    @Test func changingAnObjectTheParentDeletedIsDropped() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.setValue(.string("renamed"), forKey: "title", of: items[0])
        let child = try scratch.insert("Item")
        try scratch.add(child, toKey: "children", of: items[2])
        try context.delete([items[0], items[2]])
        let report = try scratch.commit(named: "Edit")
        #expect(report.conflicts.map(\.kind) == [.deletedInParent, .deletedInParent])
        #expect(
            report.conflicts.map(\.description) == [
                "Item z103.title: deleted here since the scratch context began; its changes there were dropped",
                "Item z105.children: deleted here since the scratch context began; its changes there were dropped",
            ])
        #expect(!context.exists(items[0]) && !context.exists(items[2]))
        #expect(try Self.titles(context, under: root) == ["b"])
        #expect(context.exists(report.parentObject(for: child)), "the new object is kept, without its parent")
    }

    @Test func anAttributeChangedOnBothSidesTakesTheScratchValue() throws {
        let (context, _, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.setValue(.string("scratch"), forKey: "title", of: items[0])
        try context.setValue(.string("parent"), forKey: "title", of: items[0])
        let report = try scratch.commit(named: "Edit")
        #expect(
            report.conflicts.map(\.description) == [
                "Item z103.title: changed both here and in the scratch context; the scratch context's change was kept"
            ])
        #expect(try context.value(forKey: "title", of: items[0]) == .string("scratch"))
    }

    @Test func aListChangedOnBothSidesKeepsBothSidesChanges() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        let fromScratch = try scratch.insert("Item")
        try scratch.setValue(.string("scratch"), forKey: "title", of: fromScratch)
        try scratch.add(fromScratch, toKey: "children", of: root, at: 1)
        try scratch.remove(items[2], fromKey: "children", of: root)
        let fromParent = try context.insert("Item")
        try context.setValue(.string("parent"), forKey: "title", of: fromParent)
        try context.add(fromParent, toKey: "children", of: root, at: 3)
        let report = try scratch.commit(named: "Edit")
        #expect(report.conflicts.map(\.kind) == [.changedInBoth])
        #expect(report.conflicts.first?.property == "children")
        #expect(try Self.titles(context, under: root) == ["a", "scratch", "b", "parent"])
        #expect(try context.object(forKey: "parent", of: items[2]) == nil)
        #expect(try context.object(forKey: "parent", of: fromParent) == root)
    }

    @Test func deletingAnObjectTheParentChangedDeletesIt() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.delete(items[1])
        try context.setValue(.string("changed"), forKey: "title", of: items[1])
        let report = try scratch.commit(named: "Delete")
        #expect(report.conflicts.map(\.description) == ["Item z104: changed here but deleted in the scratch context; it was deleted"])
        #expect(try !context.exists(items[1]) && Self.titles(context, under: root) == ["a", "c"])
    }

    @Test func deletingAnObjectTheParentLeftAloneIsNoConflict() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.delete(items[1])
        try context.setValue(.string("changed"), forKey: "title", of: items[0])
        let report = try scratch.commit(named: "Delete")
        #expect(report.conflicts.isEmpty)
        #expect(scratch.isFinishedScratch)
        #expect(try Self.titles(context, under: root) == ["changed", "c"])
    }

    @Test func deletingAnObjectWhoseListTheParentChangedIsAConflict() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.delete(items[1])
        let child = try context.insert("Item")
        try context.add(child, toKey: "children", of: items[1])
        let report = try scratch.commit(named: "Delete")
        #expect(report.conflicts.map(\.description) == ["Item z104: changed here but deleted in the scratch context; it was deleted"])
        #expect(try !context.exists(items[1]) && Self.titles(context, under: root) == ["a", "c"])
    }

    @Test func everyConflictOfOneCommitIsListed() throws {
        let (context, root, items) = try Self.parent()
        let scratch = context.makeScratchContext()
        try scratch.setValue(.string("scratch a"), forKey: "title", of: items[0])
        try scratch.setValue(.string("scratch b"), forKey: "title", of: items[1])
        try scratch.delete(items[2])
        let added = try scratch.insert("Item")
        try scratch.setValue(.string("d"), forKey: "title", of: added)
        try scratch.add(added, toKey: "children", of: root)
        try context.setValue(.string("parent a"), forKey: "title", of: items[0])
        try context.delete(items[1])
        try context.setValue(.string("parent c"), forKey: "title", of: items[2])
        let report = try scratch.commit(named: "Edit sheet")
        #expect(
            report.conflicts.map(\.description) == [
                "Item z103.title: changed both here and in the scratch context; the scratch context's change was kept",
                "Item z104.title: deleted here since the scratch context began; its changes there were dropped",
                // The scratch context's list of the root's children still holds the deleted item.
                "Item z104: deleted here since the scratch context began; its changes there were dropped",
                "Item z102.children: changed both here and in the scratch context; the scratch context's change was kept",
                "Item z105: changed here but deleted in the scratch context; it was deleted",
            ])
        #expect(try Self.titles(context, under: root) == ["scratch a", "d"])
        #expect(!context.exists(items[1]) && !context.exists(items[2]))
        #expect(context.undoActionName == "Edit sheet")
    }

    @Test func aDeleteTheParentNowDeniesIsRefused() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        try context.setValue(.string("Ann"), forKey: "name", of: ann)
        let passport = try context.insert("Passport")
        let scratch = context.makeScratchContext()
        try scratch.delete(ann)
        try context.setObject(passport, forKey: "passport", of: ann)
        let report = try scratch.commit(named: "Delete Ann")
        #expect(report.conflicts.map(\.kind) == [.deletedInScratch, .deleteRefused])
        #expect(try context.exists(ann) && context.object(forKey: "passport", of: ann) == passport)
    }

    @Test func aToOneChangedOnBothSidesTakesTheScratchTarget() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        let first = try context.insert("Tag")
        let second = try context.insert("Tag")
        let scratch = context.makeScratchContext()
        try scratch.setObject(first, forKey: "bookmark", of: ann)
        try context.setObject(second, forKey: "bookmark", of: ann)
        let report = try scratch.commit(named: "Bookmark")
        #expect(report.conflicts.map(\.kind) == [.changedInBoth] && report.conflicts.first?.property == "bookmark")
        #expect(try context.object(forKey: "bookmark", of: ann) == first)
    }

    @Test func changesMadeOnAnotherTaskMergeAsOneStep() async throws {
        let (context, root, items) = try Self.parent()
        let fork = context.fork()
        try context.setValue(.string("meanwhile"), forKey: "title", of: items[2])
        let changes = try await Task.detached { () throws -> ContextChanges in
            let background = EditingContext(fork: fork)
            background.isUndoRegistrationEnabled = false
            for i in 0 ..< 1_000 {
                let item = try background.insert("Item")
                try background.setValue(.string("imported \(i)"), forKey: "title", of: item)
                try background.setValue(.integer(Int64(i)), forKey: "order", of: item)
                try background.setObject(root, forKey: "parent", of: item)
            }
            return background.changesSinceFork()
        }.value
        #expect(changes.counts.inserted == 1_000)
        let undoSteps = context.canUndo
        let report = try context.merge(changes, named: "Import")
        #expect(report.conflicts.isEmpty && report.insertedObjects.count == 1_000)
        let titles = try Self.titles(context, under: root)
        #expect(titles.count == 1_003 && titles[2] == "meanwhile" && titles.last == "imported 999")
        #expect(undoSteps && context.undoActionName == "Import")
        context.undo()
        #expect(try Self.titles(context, under: root) == ["a", "b", "meanwhile"])
    }

    @MainActor @Test func backgroundWorkComesBackAsOneUndoStep() async throws {
        let (context, root, _) = try Self.parent()
        let (made, report) = try await context.performInBackground(named: "Add many") { background in
            try (0 ..< 500).map { i -> ManagedObject in
                let item = try background.insert("Item")
                try background.setValue(.string("n\(i)"), forKey: "title", of: item)
                try background.setObject(root, forKey: "parent", of: item)
                return item
            }
        }
        #expect(made.count == 500)
        let first = report.parentObject(for: made[0])
        #expect(try context.value(forKey: "title", of: first) == .string("n0"))
        #expect(try context.objects(forKey: "children", of: root).count == 503)
        context.undo()
        #expect(try context.objects(forKey: "children", of: root).count == 3 && !context.exists(first))
    }
}
