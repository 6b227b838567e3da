import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct ResultsControllerTests {
    /// A document with top-level items of `texts`, and a controller over the root's children.
    func list(_ texts: [String], sortedBy key: String = "order", predicate: String = "parent == %@") throws
        -> (OutlineDocument, [ManagedObject], ResultsController)
    {
        let document = try SampleOutlines.emptyDocument()
        let items = try texts.map { try document.insertItem($0) }
        var request = try FetchRequest(entityName: "Item", format: predicate, .object(document.root))
        request.sortDescriptors = [FetchSortDescriptor(key)]
        return (document, items, try ResultsController(context: document.context, request: request))
    }

    /// Records every batch and checks, after each, that applying it gives the controller's rows.
    final class Recorder {
        var batches: [ResultsBatch] = []
        var rows: [[ManagedObject]]
        init(_ controller: ResultsController) {
            rows = controller.sectionedObjects
            controller.onChange { [unowned self] batch in
                batches.append(batch)
                batch.apply(to: &rows)
                #expect(rows == controller.sectionedObjects)
            }
        }
    }

    @Test func insertingFirstIsOneInsertAndUpdatesForRenumberedRows() throws {
        let (document, items, controller) = try list(["a", "b", "c"])
        let recorder = Recorder(controller)
        let new = try document.insertItem("new", at: 0)
        let path = { (row: Int) in ResultsIndexPath(section: 0, row: row) }
        #expect(recorder.batches.count == 1)
        #expect(recorder.batches[0].actionName == "Add item “new”")
        #expect(
            recorder.batches[0].changes == [.rowInserted(new, at: path(0))]
                + items.indices.map { .rowUpdated(items[$0], at: path($0), now: path($0 + 1), changedKeys: ["order"]) })
    }

    @Test func changingTheSortKeyMovesTheRowWithItsChangedKey() throws {
        let (document, items, controller) = try list(["a", "b", "c", "d"], sortedBy: "text")
        let recorder = Recorder(controller)
        try document.setText("z", of: items[0])
        #expect(
            recorder.batches.map(\.changes) == [
                [
                    .rowMoved(
                        items[0], from: ResultsIndexPath(section: 0, row: 0),
                        to: ResultsIndexPath(section: 0, row: 3), changedKeys: ["text"])
                ]
            ])
        try document.setText("bb", of: items[2])
        #expect(
            recorder.batches.last?.changes == [
                .rowUpdated(
                    items[2], at: ResultsIndexPath(section: 0, row: 1),
                    now: ResultsIndexPath(section: 0, row: 1), changedKeys: ["text"])
            ])
    }

    @Test func anUpdateThatStopsMatchingIsADeleteAndOneThatStartsIsAnInsert() throws {
        let (document, items, controller) = try list(
            ["bean", "corn", "beet"], sortedBy: "text",
            predicate: "parent == %@ AND text BEGINSWITH 'b'")
        let recorder = Recorder(controller)
        #expect(controller.fetchedObjects == [items[0], items[2]])
        try document.setText("apple", of: items[2])
        #expect(recorder.batches.last?.changes == [.rowDeleted(items[2], at: ResultsIndexPath(section: 0, row: 1))])
        try document.setText("barley", of: items[1])
        #expect(recorder.batches.last?.changes == [.rowInserted(items[1], at: ResultsIndexPath(section: 0, row: 0))])
        try document.insertItem("onion")
        #expect(recorder.batches.count == 2, "an insert that does not match delivers nothing")
    }

    @Test func deletingASubtreeDeletesItsRowsAtTheirOldPaths() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let a1 = try document.insertItem("a1", under: a)
        let b = try document.insertItem("b")
        let controller = try ResultsController(
            context: document.context,
            request: FetchRequest(
                entityName: "Item", predicate: try FetchPredicate(format: "text != nil"), sortDescriptors: [FetchSortDescriptor("text")]))
        let recorder = Recorder(controller)
        try document.deleteItem(a)
        #expect(
            recorder.batches.last?.changes == [
                .rowDeleted(a1, at: ResultsIndexPath(section: 0, row: 1)),
                .rowDeleted(a, at: ResultsIndexPath(section: 0, row: 0)),
                .rowUpdated(
                    b, at: ResultsIndexPath(section: 0, row: 2),
                    now: ResultsIndexPath(section: 0, row: 0), changedKeys: ["order"]),
            ])
        #expect(controller.fetchedObjects == [b])
    }

    @Test func sectionsFollowTheSectionKey() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a", done: true)
        let b = try document.insertItem("b")
        try document.setDone(false, of: b)
        let controller = try ResultsController(
            context: document.context,
            request: FetchRequest(
                entityName: "Item", predicate: try FetchPredicate(format: "text != nil"), sortDescriptors: [FetchSortDescriptor("text")]),
            sectionKeyPath: "done")
        #expect(controller.sectionInfos == [ResultsSection(name: "NO", count: 1), ResultsSection(name: "YES", count: 1)])
        let recorder = Recorder(controller)
        try document.setDone(false, of: a)
        #expect(
            recorder.batches.last?.changes == [
                .sectionDeleted(at: 1),
                .rowMoved(a, from: ResultsIndexPath(section: 1, row: 0), to: ResultsIndexPath(section: 0, row: 0), changedKeys: ["done"]),
            ])
        try document.setDone(true, of: b)
        #expect(
            recorder.batches.last?.changes == [
                .sectionInserted(at: 1, name: "YES"),
                .rowMoved(b, from: ResultsIndexPath(section: 0, row: 1), to: ResultsIndexPath(section: 1, row: 0), changedKeys: ["done"]),
            ])
        #expect(controller.indexPath(of: b) == ResultsIndexPath(section: 1, row: 0))
        #expect(controller.object(at: ResultsIndexPath(section: 0, row: 0)) == a)
    }

    @Test func undoRedoAndRollbackDeliverBatchesWithTheirReason() throws {
        let (document, _, controller) = try list(["a"])
        document.context.markSaved()
        let recorder = Recorder(controller)
        try document.insertItem("b")
        document.context.undo()
        document.context.redo()
        document.context.rollback()
        #expect(recorder.batches.map(\.reason) == [.edit, .undo, .redo, .rollback])
        #expect(controller.count == 1)
    }

    @Test func pausedChangesArriveAsOneCatchUpBatchOnResume() throws {
        let (document, items, controller) = try list(["a", "b", "c"], sortedBy: "text")
        let recorder = Recorder(controller)
        controller.pause()
        try document.setText("zz", of: items[0])
        try document.insertItem("bb")
        try document.deleteItem(items[1])
        #expect(recorder.batches.isEmpty)
        controller.resume()
        #expect(recorder.batches.count == 1)
        #expect(recorder.batches[0].isCatchUp && recorder.batches[0].actionName == nil)
        #expect(controller.fetchedObjects.map { document.text(of: $0) } == ["bb", "c", "zz"])
        controller.pause()
        controller.resume()
        #expect(recorder.batches.count == 1, "resuming with no change delivers nothing")
    }

    @Test func theStreamDeliversTheSameBatches() async throws {
        let (document, items, controller) = try list(["a", "b"])
        let stream = controller.batches()
        try document.setText("x", of: items[1])
        try document.deleteItem(items[0])
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(
            first?.changes == [
                .rowUpdated(items[1], at: ResultsIndexPath(section: 0, row: 1), now: ResultsIndexPath(section: 0, row: 1), changedKeys: ["text"])
            ])
        #expect(second?.changes.first == .rowDeleted(items[0], at: ResultsIndexPath(section: 0, row: 0)))
    }

    @Test func aRequestWithAFetchLimitIsRefused() throws {
        let document = try SampleOutlines.emptyDocument()
        var request = FetchRequest(entityName: "Item")
        request.fetchLimit = 10
        #expect { try ResultsController(context: document.context, request: request) } throws: { error in
            (error as? EngineError)?.code == .unsupportedRequest
        }
    }

    @Test func changeNotificationsNameOldAndNewParentIndexAndChangedKeys() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let b = try document.insertItem("b")
        try document.insertItem("a0", under: a)
        let moved = try document.insertItem("a1", under: a)
        var notifications: [ChangeNotification] = []
        document.context.addChangeObserver { notifications.append($0) }
        try document.moveItem(moved, under: b, at: 0)
        let changes = try #require(notifications.last).changes
        let shape = document.shape
        #expect(changes.contains(.memberRemoved(a, shape.children, member: moved, at: 1)))
        #expect(changes.contains(.memberInserted(b, shape.children, member: moved, at: 0)))
        #expect(changes.contains(.toOne(moved, shape.parent, from: a, to: b)))
        #expect(changes.contains(.attribute(moved, shape.order)))
    }
}
