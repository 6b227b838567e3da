import OutlineEngine

/// Reading the rows by item: a walk over the document from one row to its neighbours, so a
/// screenful around an item costs what the screen shows and nothing is flattened.
///
/// The walk reads the document as it is now (while ``VisibleRows/pause()``d, the rows read by
/// index stay as they were at the last delivery). Each step is O(1) while `order` is
/// consistent, O(levels climbed) after the last row of a subtree; finding an item's row is
/// O(depth). Nothing recurses, and walks up stop after as many steps as there are items (a
/// damaged document's cycle of parents).
extension VisibleRows {
    /// The item whose children are the rows of depth 1: ``top``, or the document's root.
    public var topItem: ManagedObject { top ?? document.root }

    /// Whether the walk has a tree to show (a zoomed view loses it with a reload, or when
    /// ``top`` is deleted).
    private var hasTop: Bool {
        guard let top else { return rootExists }
        return topExists && document.context.exists(top)
    }

    /// Whether `item`'s children are rows when `item` is: it is the top, or it is expanded.
    public func showsChildren(of item: ManagedObject) -> Bool {
        item == topItem || !document.isCollapsed(item)
    }

    /// The row of `item` at `depth`, as the walk makes it.
    private func makeRow(_ item: ManagedObject, depth: Int) -> VisibleRow {
        Self.makeRow(item, depth: depth, in: document)
    }

    /// The first row, nil when there are none.
    public var firstRow: VisibleRow? {
        guard hasTop, let first = document.children(of: topItem).first else { return nil }
        return makeRow(first, depth: 1)
    }

    /// The last row: the last shown descendant of the top.
    ///
    /// - Complexity: O(depth of that row).
    public var lastRow: VisibleRow? {
        guard hasTop, var item = document.children(of: topItem).last else { return nil }
        var depth = 1
        while showsChildren(of: item), let child = document.children(of: item).last {
            item = child
            depth += 1
        }
        return makeRow(item, depth: depth)
    }

    /// The row after `row`; with `skippingChildren`, the row after `row`'s subtree.
    ///
    /// - Complexity: O(1), or O(levels climbed) after the last row of a subtree.
    public func row(after row: VisibleRow, skippingChildren: Bool = false) -> VisibleRow? {
        let top = topItem
        if !skippingChildren, showsChildren(of: row.item), let child = document.children(of: row.item).first {
            return makeRow(child, depth: row.depth + 1)
        }
        var current = row.item
        var level = row.depth
        while current != top, level > 0, let parent = document.parent(of: current) {
            let siblings = document.children(of: parent)
            let position = document.position(of: current)
            if position + 1 < siblings.count { return makeRow(siblings[position + 1], depth: level) }
            current = parent
            level -= 1
        }
        return nil
    }

    /// The row before `row`: the last shown descendant of its previous sibling, or its parent.
    ///
    /// - Complexity: O(depth of the row found).
    public func row(before row: VisibleRow) -> VisibleRow? {
        let item = row.item
        guard item != topItem, let parent = document.parent(of: item) else { return nil }
        let position = document.position(of: item)
        guard position > 0 else { return parent == topItem || row.depth <= 1 ? nil : makeRow(parent, depth: row.depth - 1) }
        var current = document.children(of: parent)[position - 1]
        var level = row.depth
        while showsChildren(of: current), let child = document.children(of: current).last {
            current = child
            level += 1
        }
        return makeRow(current, depth: level)
    }

    /// Up to `count` rows from `row` on (`row` first): a screenful.
    ///
    /// - Complexity: O(count), plus the levels climbed out of subtrees.
    public func rows(from row: VisibleRow, count: Int) -> [VisibleRow] {
        var rows: [VisibleRow] = []
        var current: VisibleRow? = row
        while rows.count < count, let found = current {
            rows.append(found)
            current = self.row(after: found)
        }
        return rows
    }

    /// How many levels below the top `item` is (1 for the top's children), shown or not; nil
    /// when it is not under the top.
    ///
    /// - Complexity: O(depth).
    public func depth(of item: ManagedObject) -> Int? {
        guard hasTop, document.context.exists(item) else { return nil }
        let top = topItem
        var depth = 0
        var current = item
        let limit = document.itemCount
        while current != top {
            guard let parent = document.parent(of: current), depth < limit else { return nil }
            current = parent
            depth += 1
        }
        return depth == 0 ? nil : depth
    }

    /// The collapsed items between the top and `item` (both excluded), nearest the top first:
    /// what must be expanded to show `item`.
    ///
    /// - Complexity: O(depth).
    public func collapsedAncestors(of item: ManagedObject) -> [ManagedObject] {
        var found: [ManagedObject] = []
        var current = item
        var steps = 0
        let top = topItem
        let limit = document.itemCount
        while let parent = document.parent(of: current), parent != top, steps < limit {
            if document.isCollapsed(parent) { found.append(parent) }
            current = parent
            steps += 1
        }
        return found.reversed()
    }

    /// The row of `item`, nil when it is not shown (under a collapsed item, not under the top,
    /// deleted, or the top itself).
    ///
    /// - Complexity: O(depth).
    public func row(of item: ManagedObject) -> VisibleRow? {
        guard let depth = depth(of: item), collapsedAncestors(of: item).isEmpty else { return nil }
        return makeRow(item, depth: depth)
    }

    /// The row of `item` when it is shown, else that of its outermost collapsed ancestor (the
    /// row it is hidden under); nil when it is not under the top.
    ///
    /// - Complexity: O(depth).
    public func nearestRow(to item: ManagedObject) -> VisibleRow? {
        guard let depth = depth(of: item) else { return nil }
        let hidden = collapsedAncestors(of: item)
        guard let outermost = hidden.first else { return makeRow(item, depth: depth) }
        // The outermost collapsed ancestor is `depth - d` levels up, d its distance from `item`.
        var distance = 0
        var current = item
        while current != outermost, let parent = document.parent(of: current) {
            current = parent
            distance += 1
        }
        return makeRow(outermost, depth: depth - distance)
    }
}
