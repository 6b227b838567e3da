import OutlineEngine

/// One line of an outline as an outliner shows it: an item with its depth and whether it can
/// be expanded.
public struct VisibleRow: Hashable, Sendable {
    /// The item.
    public var item: ManagedObject
    /// 1 for the root's children, 2 for theirs, and so on (the root itself is not a row).
    public var depth: Int
    /// Whether the item has children (shown or not).
    public var hasChildren: Bool
    /// Whether the item's stored `collapsed` flag is set (its children are then not rows).
    public var isCollapsed: Bool

    /// A row of `item` at `depth`.
    public init(item: ManagedObject, depth: Int, hasChildren: Bool, isCollapsed: Bool) {
        self.item = item
        self.depth = depth
        self.hasChildren = hasChildren
        self.isCollapsed = isCollapsed
    }
}

extension VisibleRow: ListRow {
    /// The item (what the row list finds rows by).
    package var object: ManagedObject { item }
}
