import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Making an outline over stored objects: the root found, child lists put in `order`, and
/// whether every list was numbered 0…n-1 (then opening skips renumbering).
@Suite struct OutlineDocumentOpeningTests {
    /// A saved context whose root has children stored in list order with `orders`.
    static func context(childOrders orders: [Int64]) throws -> EditingContext {
        let context = EditingContext(schema: try OutlineSchemas.current)
        let shape = try OutlineShape(schema: context.schema)
        context.isUndoRegistrationEnabled = false
        let root = try context.insert(entity: shape.item)
        for (index, order) in orders.enumerated() {
            let item = try context.insert(entity: shape.item)
            try context.setAttribute(.string("item \(index)"), shape.text, of: item)
            try context.setAttribute(.integer(order), shape.order, of: item)
            try context.setRelated(root, shape.parent, of: item)
        }
        context.isUndoRegistrationEnabled = true
        context.markSaved()
        return context
    }

    @Test(arguments: [
        ([0, 1, 2] as [Int64], ["item 0", "item 1", "item 2"], true),
        ([2, 0, 1], ["item 1", "item 2", "item 0"], false),
        ([1, 1, 0], ["item 2", "item 0", "item 1"], false),
        ([1, 2, 3], ["item 0", "item 1", "item 2"], false),
    ])
    func childListsAreSortedByOrderAndConsecutiveNumberingIsNoted(orders: [Int64], sorted: [String], consecutive: Bool) throws {
        let context = try Self.context(childOrders: orders)
        let shape = try OutlineShape(schema: context.schema)
        let fast = OutlineDocument.scan(context, shape: shape)
        let general = OutlineDocument.scanObjects(context, shape: shape)
        #expect(fast.root == general.root && fast.unsorted == general.unsorted && fast.consecutive == general.consecutive)
        // What an OutlineStack finds off its actor, over the objects read, is the same.
        let prepared = try #require(OutlineDocument.openingScan(of: context.graph.snapshot()))
        #expect(prepared.root == fast.root && prepared.unsorted == fast.unsorted && prepared.consecutive == fast.consecutive)
        let document = try OutlineDocument(context: context)
        #expect(document.root == fast.root)
        #expect(document.children(of: document.root).map(document.text(of:)) == sorted, "ties are broken by object id")
        #expect(document.listsWereNumbered == consecutive)
        #expect(!context.canUndo)
    }

    /// A big document is scanned in parts at once while an OutlineStack opens; the parts
    /// together find what one pass finds: the root, every list out of order (in row order),
    /// and whether all lists are numbered 0…n-1.
    @Test func theScanInPartsFindsWhatOnePassFinds() throws {
        let document = try SampleOutlines.wide(count: 120_000, fanOut: 7)
        let context = document.context
        let shape = document.shape
        let items = context.graph.objects(ofEntity: shape.item)
        // Swap the orders of two siblings near the start, the middle and the end of the table.
        for row in [10, items.count / 2, items.count - 50] {
            let list = document.children(of: try #require(document.parent(of: items[row])))
            try context.setAttribute(.integer(1), shape.order, of: list[0])
            try context.setAttribute(.integer(0), shape.order, of: list[1])
        }
        let whole = OutlineDocument.scan(context, shape: shape)
        let parts = try #require(OutlineDocument.openingScan(of: context.graph.snapshot()))
        #expect(whole.unsorted.count == 3)
        #expect(parts.root == whole.root)
        #expect(parts.unsorted == whole.unsorted)
        #expect(!parts.consecutive && !whole.consecutive)
    }
}
