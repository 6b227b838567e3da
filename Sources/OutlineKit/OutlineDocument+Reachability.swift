import OutlineEngine

extension OutlineDocument {
    /// The items that are not under the root: a second item without a parent, items whose
    /// parents form a cycle, and everything below those. Showing, finding or exporting the
    /// outline walks down from the root and would leave them out.
    ///
    /// - Returns: the count, and the items that head each detached part (the extra roots and
    ///   the lowest id of each cycle), in id order.
    /// - Complexity: O(n) in the number of items; no recursion.
    public func detachedItems() -> (count: Int, heads: [ManagedObject]) {
        var reached = 1
        walk { _, _ in
            reached += 1
            return true
        }
        let total = itemCount
        guard reached < total else { return (0, []) }
        let items = context.graph.objects(ofEntity: shape.item)
        var heads = items.filter { $0 != root && parent(of: $0) == nil }
        if let tree = TreeShape(entity: context.schema[shape.item]) {
            heads += tree.parentCycles(in: context.graph, among: items).compactMap(\.first)
        }
        heads.sort { context.objectID(of: $0) < context.objectID(of: $1) }
        return (total - reached, heads)
    }

    /// Throws when some items are not under the root (see ``detachedItems()``), so that a
    /// view or an export of the whole outline never leaves items out without saying so.
    ///
    /// - Throws: ``OutlineError`` `invalidDocument` counting the items and naming where each
    ///   detached part starts.
    public func requireEveryItemUnderRoot() throws {
        let (count, heads) = detachedItems()
        guard count > 0 else { return }
        let listed = 5
        let shown =
            heads.prefix(listed).map { head -> String in
                let id = "#\(context.objectID(of: head).rawValue)"
                return parent(of: head) == nil ? "\(id) has no parent" : "\(id) is in a cycle of parents"
            }.joined(separator: ", ") + (heads.count > listed ? " and \(heads.count - listed) more" : "")
        throw OutlineError(
            .invalidDocument,
            "\(count) of the \(itemCount) items \(count == 1 ? "is" : "are") not under the root (\(shown)); the whole outline cannot be shown or exported without leaving \(count == 1 ? "it" : "them") out",
            hint:
                "Move each of those items under the root by its id, or restore the document from a backup; validating the document lists every problem."
        )
    }
}
