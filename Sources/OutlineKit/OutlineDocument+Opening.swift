import Dispatch
import Foundation
import OutlineEngine
import Synchronization

/// The one pass over the items that making an ``OutlineDocument`` needs: the root candidates,
/// the child lists stored out of `order`, and whether every list is numbered 0…n-1.
extension OutlineDocument {
    /// What the pass found.
    struct OpeningScan: Sendable {
        /// The item without a parent that has the smallest id, if any.
        var root: ManagedObject?
        /// The items whose children are not in increasing `order`.
        var unsorted: [ManagedObject] = []
        /// Whether every child list has `order` 0…n-1 in list order.
        var consecutive = true
    }

    /// Scans the items of `context`: straight over the item table's columns when the item
    /// entity has no subentities (every outline schema), split over the processors as
    /// ``openingScan(of:)`` does, else through the context.
    ///
    /// - Complexity: O(items), without allocating per item.
    static func scan(_ context: EditingContext, shape: OutlineShape) -> OpeningScan {
        // The snapshot shares the columns' pages and is gone before anything is edited.
        openingScan(of: context.graph.snapshot()) ?? scanObjects(context, shape: shape)
    }

    /// The scan of the objects read for an ``OutlineStack`` (run off its actor while it
    /// opens, split over up to four processors for a big document); nil when they are not an
    /// outline or need the context's object API.
    static func openingScan(of snapshot: GraphSnapshot) -> OpeningScan? {
        guard let shape = try? OutlineShape(schema: snapshot.schema) else { return nil }
        let table = snapshot.tables[shape.item]
        let parts = table.rowCount < 100_000 ? 1 : min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)
        guard parts > 1, canScanTables(snapshot.schema, shape: shape, table: table) else {
            return scanTables(snapshot.tables, schema: snapshot.schema, shape: shape, reader: snapshot)
        }
        let size = (table.rowCount + parts - 1) / parts
        let found = Mutex<[(scan: OpeningScan, rootID: UInt64)?]>(Array(repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let rows = min(part * size, table.rowCount) ..< min((part + 1) * size, table.rowCount)
            let result = scanRows(rows, of: table, shape: shape, reader: snapshot)
            found.withLock { $0[part] = result }
        }
        // In row order: the unsorted lists as one pass lists them, the root with the smallest id.
        var scan = OpeningScan()
        var rootID = UInt64.max
        for case (let part, let partRootID)? in found.withLock({ $0 }) {
            if let root = part.root, scan.root == nil || partRootID < rootID {
                scan.root = root
                rootID = partRootID
            }
            scan.unsorted += part.unsorted
            scan.consecutive = scan.consecutive && part.consecutive
        }
        return scan
    }

    /// Whether the item table can be scanned column by column: the item entity has no
    /// subentities, `order` is stored as integers and the link columns have a row for each item.
    private static func canScanTables(_ schema: Schema, shape: OutlineShape, table: EntityTable) -> Bool {
        schema[shape.item].subentities.isEmpty && table.attributes[shape.order].storage == .integer
            && table.relationships[shape.parent].single.count == table.rowCount
            && table.relationships[shape.children].many.count == table.rowCount
    }

    /// The scan straight over the item table's columns; nil when it cannot be scanned so (the
    /// context's object API then).
    private static func scanTables(
        _ tables: [EntityTable], schema: Schema, shape: OutlineShape, reader: some ObjectGraphReading
    ) -> OpeningScan? {
        let table = tables[shape.item]
        guard canScanTables(schema, shape: shape, table: table) else { return nil }
        return scanRows(0 ..< table.rowCount, of: table, shape: shape, reader: reader).scan
    }

    /// The scan of the item table's `rows`, with the id of the root found.
    ///
    /// It reads the table a page at a time through buffer pointers: a million subscripts of
    /// the paged columns (and a retain of every row's child list) were most of its time.
    private static func scanRows(
        _ rows: Range<Int>, of table: EntityTable, shape: OutlineShape, reader: some ObjectGraphReading
    ) -> (scan: OpeningScan, rootID: UInt64) {
        let entity = shape.item
        let parents = table.relationships[shape.parent].single
        let childLists = table.relationships[shape.children].many
        let orders = table.attributes[shape.order]
        let ordersAllNil = orders.untouchedNilRows > 0
        func order(of child: ManagedObject) -> Int64 {
            guard child.entity == entity else { return reader.attributeValue(of: child, shape.order)?.integerValue ?? 0 }
            return ordersAllNil || !orders.present[child.row] ? 0 : orders.integers[child.row]
        }
        var scan = OpeningScan()
        var rootID = UInt64.max
        var row = rows.lowerBound
        while row < rows.upperBound {
            let page = row / PagedArray<Bool>.pageSize
            let first = page * PagedArray<Bool>.pageSize
            let end = min(rows.upperBound, table.alive.indices(ofPage: page).upperBound)
            table.alive.withPage(page) { alive in
                parents.withPage(page) { parentIDs in
                    for index in (row - first) ..< (end - first) where alive[index] {
                        if parentIDs[index] == RelationshipColumn.none, scan.root == nil || table.ids[first + index] < rootID {
                            rootID = table.ids[first + index]
                            scan.root = ManagedObject(entity: entity, row: first + index)
                        }
                        childLists.withMembers(first + index) { children in
                            guard let head = children.first else { return }
                            var previous = order(of: head)
                            var increasing = true
                            if previous != 0 { scan.consecutive = false }
                            for position in children.indices.dropFirst() {
                                let current = order(of: children[position])
                                if current <= previous { increasing = false }
                                if current != Int64(position) { scan.consecutive = false }
                                previous = current
                            }
                            if !increasing { scan.unsorted.append(ManagedObject(entity: entity, row: first + index)) }
                        }
                    }
                }
            }
            row = end
        }
        return (scan, rootID)
    }

    /// ``scan(_:shape:)`` through the context's object API, for any schema.
    static func scanObjects(_ context: EditingContext, shape: OutlineShape) -> OpeningScan {
        var scan = OpeningScan()
        for item in context.graph.objects(ofEntity: shape.item) {
            if context.relatedObject(of: item, shape.parent) == nil,
                scan.root.map({ context.objectID(of: item) < context.objectID(of: $0) }) ?? true
            {
                scan.root = item
            }
            let children = context.relatedObjects(of: item, shape.children)
            guard let first = children.first else { continue }
            var previous = context.attributeValue(of: first, shape.order)?.integerValue ?? 0
            var increasing = true
            if previous != 0 { scan.consecutive = false }
            for index in children.indices.dropFirst() {
                let order = context.attributeValue(of: children[index], shape.order)?.integerValue ?? 0
                if order <= previous { increasing = false }
                if order != Int64(index) { scan.consecutive = false }
                previous = order
            }
            if !increasing { scan.unsorted.append(item) }
        }
        return scan
    }
}
