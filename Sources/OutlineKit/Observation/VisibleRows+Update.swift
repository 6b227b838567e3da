import OutlineEngine

/// Keeping the rows up to date: each step's tree changes turned into row changes.
///
/// The update works on the rows, not the document: (1) it removes the rows of every item taken
/// out of a child list or deleted, with the rows under it, and the rows under every item
/// collapsed now; (2) it places, in document order, every item put into a child list (with
/// its visible descendants) and the children of every item expanded now, each right after the
/// last visible row before it; (3) an item whose row was removed and placed again moved, and
/// rows that stayed are refreshed.
extension VisibleRows {
    func receive(_ notification: ChangeNotification) {
        // Right away, not at the next delivery: edits made while paused need the new root.
        if notification.reason == .reload {
            rootExists = document.findRootAfterReload()
            if top != nil { topExists = false }
        }
        // Nothing was flattened: there are no rows to update and nobody to tell.
        guard isMaterialized else { return }
        pending.add(notification, shape: document.shape, schema: document.context.schema)
        pendingReason = notification.reason
        pendingActionName = notification.actionName
        pendingSteps += 1
        if !isPaused { flush(isCatchUp: false) }
    }

    func flush(isCatchUp: Bool) {
        guard pendingSteps > 0 else { return }
        let changes: [VisibleRowChange]
        if pending.reload || !rootExists {
            // Every handle was replaced, the root's too (it may be another item now).
            rootExists = document.findRootAfterReload()
            changes = rebuild()
        } else {
            changes = update() ?? rebuild()
        }
        let batch = VisibleRowsBatch(
            reason: pendingReason, actionName: pendingSteps == 1 ? pendingActionName : nil,
            isCatchUp: isCatchUp, changes: changes)
        pending = PendingOutlineChanges()
        pendingSteps = 0
        pendingActionName = nil
        if !batch.isEmpty { deliver(batch) }
    }

    /// Every old row deleted, every row of the document as it is now inserted (none when a
    /// reload left the document without a root).
    private func rebuild() -> [VisibleRowChange] {
        let old = list.rows
        root = document.root
        list = RowList(flattened())
        return old.indices.reversed().map { .deleted(old[$0].item, at: $0) } + list.enumerated().map { .inserted($1, at: $0) }
    }

    /// The keys whose change shows in a row's position or flags rather than as an update.
    private var structuralKeys: Set<String> {
        let info = document.context.schema.infos[document.shape.item]
        return [
            info.attributes[document.shape.order].name, info.relationships[document.shape.parent].name,
            info.relationships[document.shape.children].name,
        ]
    }

    /// The incremental update, or nil when the rows turn out not to match the document (which
    /// would be a bug; the caller then rebuilds them).
    private func update() -> [VisibleRowChange]? {
        let context = document.context
        let structural = structuralKeys
        func contentKeys(_ item: ManagedObject) -> Set<String> { (pending.keys[item] ?? []).subtracting(structural) }

        // Rows that may need refreshing, with where they were.
        var oldIndex: [ManagedObject: Int] = [:]
        for item in pending.keys.keys { oldIndex[item] = list.index(of: item) }
        for item in pending.parents.union(pending.toggled) { oldIndex[item] = list.index(of: item) }

        // 1. Remove.
        var ranges: [Range<Int>] = []
        for item in pending.removed {
            if let index = list.index(of: item) { ranges.append(index ..< blockEnd(index)) }
        }
        for item in pending.toggled where context.exists(item) && document.isCollapsed(item) {
            if let index = list.index(of: item) { ranges.append(index + 1 ..< blockEnd(index)) }
        }
        ranges.sort { ($0.lowerBound, -$0.upperBound) < ($1.lowerBound, -$1.upperBound) }
        var kept: [Range<Int>] = []
        for range in ranges where !range.isEmpty {
            if let last = kept.last, range.lowerBound < last.upperBound { continue }
            kept.append(range)
        }
        var removedRows: [ManagedObject: Int] = [:]
        for range in kept.reversed() {
            for (offset, row) in list.removeSubrange(range).enumerated() { removedRows[row.item] = range.lowerBound + offset }
        }

        // 2. Place, in document order.
        var entries: [(path: [Int], item: ManagedObject, expands: Bool)] = []
        for item in pending.inserted where context.exists(item) && document.parent(of: item) != nil {
            entries.append((document.path(of: item), item, false))
        }
        for item in pending.toggled where context.exists(item) && !document.isCollapsed(item) {
            // Only an item shown collapsed before has no rows under it yet.
            guard let index = list.index(of: item), list[index].isCollapsed else { continue }
            entries.append((document.path(of: item), item, true))
        }
        entries.sort { $0.path.lexicographicallyPrecedes($1.path) || ($0.path == $1.path && !$0.expands && $1.expands) }
        var placed: [(row: VisibleRow, index: Int)] = []
        for entry in entries {
            var rows: [VisibleRow] = []
            let at: Int
            if entry.expands {
                guard let index = list.index(of: entry.item), list[index].isCollapsed else { continue }
                Self.appendDescendants(of: entry.item, depth: list[index].depth, in: document, to: &rows)
                at = index + 1
            } else {
                let item = entry.item
                guard !list.contains(item), let parent = document.parent(of: item) else { continue }
                let depth: Int
                var after: Int
                if parent == top ?? root {
                    depth = 1
                    after = 0
                } else {
                    guard let parentIndex = list.index(of: parent), !document.isCollapsed(parent) else { continue }
                    depth = list[parentIndex].depth + 1
                    after = parentIndex + 1
                }
                let position = document.position(of: item)
                if position > 0 {
                    var last = document.children(of: parent)[position - 1]
                    while !document.isCollapsed(last), let child = document.children(of: last).last { last = child }
                    guard let lastIndex = list.index(of: last) else { return nil }
                    after = lastIndex + 1
                }
                let row = Self.makeRow(item, depth: depth, in: document)
                rows.append(row)
                if !row.isCollapsed { Self.appendDescendants(of: item, depth: depth, in: document, to: &rows) }
                at = after
            }
            list.insert(contentsOf: rows, at: at)
            // Later placements come later in document order, so these indices stay right.
            for (offset, row) in rows.enumerated() { placed.append((row, at + offset)) }
        }

        // 3. Report.
        var changes: [VisibleRowChange] = []
        var insertions: [(Int, VisibleRowChange)] = []
        insertions.reserveCapacity(placed.count)
        var moves: [(Int, VisibleRowChange)] = []
        var updates: [(Int, VisibleRowChange)] = []
        var placedSet: Set<ManagedObject> = []
        for (row, index) in placed {
            guard !removedRows.isEmpty else {
                insertions.append((index, .inserted(row, at: index)))
                continue
            }
            placedSet.insert(row.item)
            if let from = removedRows[row.item] {
                moves.append((index, .moved(row, from: from, to: index, changedKeys: contentKeys(row.item))))
            } else {
                insertions.append((index, .inserted(row, at: index)))
            }
        }
        let deletions = removedRows.filter { !placedSet.contains($0.key) }.sorted { $0.value > $1.value }
        changes += deletions.map { .deleted($0.key, at: $0.value) }
        for (item, from) in oldIndex {
            guard removedRows[item] == nil, let index = list.index(of: item) else { continue }
            let fresh = Self.makeRow(item, depth: list[index].depth, in: document)
            let keys = contentKeys(item)
            guard fresh != list[index] || !keys.isEmpty else { continue }
            list[index] = fresh
            updates.append((index, .updated(fresh, at: from, now: index, changedKeys: keys)))
        }
        // Placed in document order: insertions and moves are in ascending order already.
        changes.reserveCapacity(changes.count + insertions.count + moves.count + updates.count)
        changes += insertions.lazy.map(\.1)
        changes += moves.lazy.map(\.1)
        changes += updates.sorted { $0.0 < $1.0 }.map(\.1)
        return changes
    }

    /// The end of the block of rows under the row at `index` (the first row after it that is
    /// not deeper).
    private func blockEnd(_ index: Int) -> Int {
        let depth = list[index].depth
        var end = index + 1
        while end < list.count {
            let rows = list.rows(in: end ..< Swift.min(end + 256, list.count))
            guard let stop = rows.firstIndex(where: { $0.depth <= depth }) else {
                end += rows.count
                continue
            }
            return end + stop
        }
        return end
    }
}
