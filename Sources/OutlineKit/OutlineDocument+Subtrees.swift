import OutlineEngine

/// Edits of whole subtrees: copying one, and folding many items at once. Each is one undo
/// step; both walk without recursion, so any depth works.
extension OutlineDocument {
    /// The number of items below `item` (its children, their children, ...).
    ///
    /// - Complexity: O(size of the subtree).
    public func descendantCount(of item: ManagedObject) -> Int {
        var count = 0
        walk(from: item) { _, _ in
            count += 1
            return true
        }
        return count
    }

    /// `item` and every item below it, in document order.
    ///
    /// - Complexity: O(size of the subtree).
    public func subtree(of item: ManagedObject) -> [ManagedObject] {
        var items = [item]
        walk(from: item) { descendant, _ in
            items.append(descendant)
            return true
        }
        return items
    }

    /// Copies `source` with everything below it under `parent` at 0-based `position` (the end
    /// when nil): every attribute (text, note, done and collapsed state, creation date, kept
    /// interchange attributes) and the tags. Copying an item into its own subtree copies the
    /// subtree as it was before the copy.
    ///
    /// - Returns: the copy of `source`.
    /// - Throws: ``OutlineError`` `invalidEdit` for the root or a position out of range.
    /// - Complexity: O(size of the subtree + siblings at the destination).
    @discardableResult
    public func copyItem(_ source: ManagedObject, under parent: ManagedObject, at position: Int? = nil) throws -> ManagedObject {
        guard self.parent(of: source) != nil else {
            throw OutlineError(
                .invalidEdit, at: "/", "the root item cannot be copied",
                hint: "Copy its children one by one instead.")
        }
        let count = children(of: parent).count
        let position = position ?? count
        guard position >= 0 && position <= count else { throw positionOutside(position, count: count, under: parent) }
        // The subtree as it is now, each item with the index of its parent in the list.
        var originals: [(item: ManagedObject, parent: Int)] = [(source, -1)]
        var index = 0
        while index < originals.count {
            for child in children(of: originals[index].item) { originals.append((child, index)) }
            index += 1
        }
        let order = shape.order
        let attributes = context.schema[shape.item].attributeIndices.filter { $0 != order }
        return try context.perform("Copy item “\(Self.shorten(text(of: source) ?? ""))”") {
            var copies: [ManagedObject] = []
            copies.reserveCapacity(originals.count)
            for (original, parentIndex) in originals {
                let copy = try context.insert(entity: shape.item)
                for attribute in attributes {
                    try context.setAttribute(context.attributeValue(of: original, attribute), attribute, of: copy)
                }
                if let tags = shape.tags {
                    for tag in context.relatedObjects(of: original, tags.itemTags) { try context.add(tag, to: tags.itemTags, of: copy) }
                }
                if parentIndex < 0 {
                    try context.add(copy, to: shape.children, of: parent, at: position)
                    try renumber(parent, from: position)
                } else {
                    let newParent = copies[parentIndex]
                    try context.setAttribute(.integer(Int64(children(of: newParent).count)), shape.order, of: copy)
                    try context.add(copy, to: shape.children, of: newParent)
                }
                copies.append(copy)
            }
            return copies[0]
        }
    }

    /// Sets the collapsed state of each of `items` that differs, as one undo step.
    ///
    /// - Returns: how many items changed.
    /// - Throws: ``OutlineError`` `notInThisVersion` when the schema has no collapsed state.
    @discardableResult
    public func setCollapsed(_ collapsed: Bool, of items: [ManagedObject]) throws -> Int {
        guard let attribute = shape.collapsed else {
            throw OutlineError(
                .notInThisVersion, at: context.schema.name, "this schema version has no collapsed state",
                hint: "Migrate the document to the current version first.")
        }
        let changing = items.filter { isCollapsed($0) != collapsed }
        let name =
            (collapsed ? "Collapse" : "Expand")
            + (changing.count == 1 ? " “\(Self.shorten(text(of: changing[0]) ?? ""))”" : " \(changing.count) items")
        try context.perform(name) {
            for item in changing { try context.setAttribute(.boolean(collapsed), attribute, of: item) }
        }
        return changing.count
    }
}
