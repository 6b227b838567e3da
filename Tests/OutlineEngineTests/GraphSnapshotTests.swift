import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Snapshots are values of the graph at one moment that later edits do not reach.
@Suite struct GraphSnapshotTests {
    /// A context with `count` items, each with a title, in a tree of 64 children per item.
    static func context(items count: Int) throws -> (EditingContext, [ManagedObject]) {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let root = try context.insert("Item")
        var items = [root]
        context.isUndoRegistrationEnabled = false
        for i in 1 ..< count {
            let item = try context.insert("Item")
            try context.setValue(.string("item \(i)"), forKey: "title", of: item)
            try context.setObject(items[(i - 1) / 64], forKey: "parent", of: item)
            items.append(item)
        }
        context.isUndoRegistrationEnabled = true
        context.markSaved()
        return (context, items)
    }

    @Test func editsAfterASnapshotDoNotReachIt() throws {
        let (context, items) = try Self.context(items: 50)
        let snapshot = context.graph.snapshot()
        try context.setValue(.string("changed"), forKey: "title", of: items[3])
        let added = try context.insert("Item")
        try context.add(added, toKey: "children", of: items[0])
        try context.delete(items[5])
        #expect(snapshot.attributeValue(of: items[3], 1) == .string("item 3"))
        #expect(!snapshot.contains(added) && snapshot.contains(items[5]))
        #expect(snapshot.relatedObjects(of: items[0], 0).count == 49)
        #expect(context.graph.relatedObjects(of: items[0], 0).count == 49, "one added, one deleted")
        #expect(snapshot.objectCount == 50 && context.graph.objectCount == 50)
        let reopened = ObjectGraph(snapshot: snapshot)
        #expect(reopened.attributeValue(of: items[3], 1) == .string("item 3"))
        #expect(reopened.object(with: context.objectID(of: items[7])) == items[7], "the same handles and ids")
    }

    @Test func aSnapshotIsReadableFromAnotherTask() async throws {
        let (context, items) = try Self.context(items: 3 * PagedArray<Int>.pageSize)
        let snapshot = context.graph.snapshot()
        let reading = Task.detached { () -> Int in
            var total = 0
            for item in items where snapshot.attributeValue(of: item, 1) != nil { total += 1 }
            return total
        }
        for item in items.prefix(1000) { try context.setValue(.string("x"), forKey: "title", of: item) }
        #expect(await reading.value == items.count - 1)
    }

    @Test func aWriteAfterASnapshotCopiesOnePagePerColumn() throws {
        let (context, items) = try Self.context(items: 3 * PagedArray<Int>.pageSize)
        let snapshot = context.graph.snapshot()
        try context.setValue(.integer(5), forKey: "order", of: items[10])
        let before = snapshot.tables[0].attributes[0].integers
        let after = context.graph.tables[0].attributes[0].integers
        #expect(PagedArrayTests.address(before, page: 0) != PagedArrayTests.address(after, page: 0))
        #expect(PagedArrayTests.address(before, page: 1) == PagedArrayTests.address(after, page: 1))
        #expect(PagedArrayTests.address(before, page: 2) == PagedArrayTests.address(after, page: 2))
        let ids = (snapshot.tables[0].ids, context.graph.tables[0].ids)
        #expect(PagedArrayTests.address(ids.0, page: 0) == PagedArrayTests.address(ids.1, page: 0), "an untouched column shares all its pages")
    }
}
