import OutlineEngine
import OutlineKit

/// The rows the editor shows, in order: the items under the zoom root whose ancestors (below
/// the zoom root) are all expanded, each with its depth.
///
/// This is the editor's own small walk over the tree, standing in for the visible-rows model
/// of the observation issue: nothing is flattened, each step looks at the neighbours of one
/// item (O(1) while `order` is consistent, O(depth) when climbing out of a subtree), so a
/// keystroke costs the same in a document of ten items and of a million. Collapse state is
/// the document's `collapsed` attribute.
public struct EditorRows {
    /// The outline walked.
    public let document: OutlineDocument
    /// The item whose subtree is shown (the document's root unless zoomed). Its own collapse
    /// state is ignored: zooming into a collapsed item shows its children.
    public let top: ManagedObject

    /// The rows of `document` under `top` (its root, or the item zoomed into).
    public init(document: OutlineDocument, top: ManagedObject) {
        self.document = document
        self.top = top
    }

    /// Whether `item`'s children are shown (it has some and is not collapsed, or is the top).
    public func showsChildren(of item: ManagedObject) -> Bool {
        item == top || (!document.children(of: item).isEmpty && !document.isCollapsed(item))
    }

    /// The first row.
    public var first: ManagedObject? { document.children(of: top).first }

    /// The last row: the last shown descendant of the top.
    ///
    /// - Complexity: O(depth of that row).
    public var last: ManagedObject? {
        guard var item = document.children(of: top).last else { return nil }
        while showsChildren(of: item), let child = document.children(of: item).last { item = child }
        return item
    }

    /// The row after `item`, and its depth when `item` is at `depth`; with `skippingChildren`
    /// the row after `item`'s subtree.
    ///
    /// - Complexity: O(1), or O(levels climbed) after the last row of a subtree.
    public func next(after item: ManagedObject, depth: Int, skippingChildren: Bool = false) -> (item: ManagedObject, depth: Int)? {
        if !skippingChildren, showsChildren(of: item), let child = document.children(of: item).first {
            return (child, depth + 1)
        }
        var current = item
        var level = depth
        while current != top, let parent = document.parent(of: current) {
            let siblings = document.children(of: parent)
            let position = document.position(of: current)
            if position + 1 < siblings.count { return (siblings[position + 1], level) }
            current = parent
            level -= 1
        }
        return nil
    }

    /// The row before `item` (the last shown descendant of its previous sibling, or its parent),
    /// and its depth when `item` is at `depth`.
    ///
    /// - Complexity: O(depth of the row found).
    public func previous(before item: ManagedObject, depth: Int) -> (item: ManagedObject, depth: Int)? {
        guard item != top, let parent = document.parent(of: item) else { return nil }
        let position = document.position(of: item)
        guard position > 0 else { return parent == top ? nil : (parent, depth - 1) }
        var row = document.children(of: parent)[position - 1]
        var level = depth
        while showsChildren(of: row), let child = document.children(of: row).last {
            row = child
            level += 1
        }
        return (row, level)
    }

    /// How many levels below the top `item` is (1 for the top's children), or nil when it is
    /// not under the top.
    ///
    /// - Complexity: O(depth); stops after as many steps as there are items (a damaged
    ///   document's cycle of parents).
    public func depth(of item: ManagedObject) -> Int? {
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

    /// The collapsed items between the top and `item` (exclusive), nearest the top first:
    /// what must be expanded to show `item`.
    public func collapsedAncestors(of item: ManagedObject) -> [ManagedObject] {
        var found: [ManagedObject] = []
        var current = item
        var steps = 0
        let limit = document.itemCount
        while let parent = document.parent(of: current), parent != top, steps < limit {
            if document.isCollapsed(parent) { found.append(parent) }
            current = parent
            steps += 1
        }
        return found.reversed()
    }

    /// `item` when it is a row, else its nearest ancestor that is; nil when it is not under the top.
    public func nearestRow(to item: ManagedObject) -> ManagedObject? {
        guard depth(of: item) != nil else { return nil }
        return collapsedAncestors(of: item).first ?? item
    }
}
