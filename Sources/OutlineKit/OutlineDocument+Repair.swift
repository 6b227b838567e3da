import OutlineEngine

extension OutlineDocument {
    /// Renumbers every child list whose `order` values are not 0…n-1 in list order (a file
    /// written by another tool may number from 1, skip or repeat numbers), as one undo step.
    ///
    /// - Returns: how many items got a new `order`.
    /// - Complexity: O(n) in the number of items.
    @discardableResult
    public func renumberSiblings() throws -> Int {
        var parents: [ManagedObject] = []
        var changed = 0
        var stack = [root]
        while let parent = stack.popLast() {
            let kids = children(of: parent)
            for (index, child) in kids.enumerated() {
                if order(of: child) != Int64(index) {
                    changed += 1
                    if parents.last != parent { parents.append(parent) }
                }
                if !children(of: child).isEmpty { stack.append(child) }
            }
        }
        guard !parents.isEmpty else { return 0 }
        try context.perform("Renumber items") {
            for parent in parents { try renumber(parent, from: 0) }
        }
        return changed
    }

    /// Does what ``renumberSiblings()`` does, looking only at the child lists that changed since
    /// the context was last saved, when every list was numbered 0…n-1 then
    /// (``listsWereNumbered``): a list can only lose its numbering when its members change or
    /// one of them gets another `order`. Otherwise it is ``renumberSiblings()``.
    ///
    /// - Returns: how many items got a new `order`.
    /// - Complexity: O(c × (depth + siblings)) for c objects changed since the last save.
    @discardableResult
    package func renumberChangedSiblings() throws -> Int {
        guard listsWereNumbered else { return try renumberSiblings() }
        var candidates = Set<ManagedObject>()
        for object in context.insertedObjects.union(context.updatedObjects)
        where context.exists(object) && context.schema.infos[object.entity].isKind(of: shape.item) {
            candidates.insert(object)
            if let parent = parent(of: object) { candidates.insert(parent) }
        }
        var parents: [ManagedObject] = []
        var changed = 0
        for parent in candidates.sorted(by: { context.objectID(of: $0) < context.objectID(of: $1) }) {
            let kids = children(of: parent)
            let differing = kids.indices.reduce(0) { $0 + (order(of: kids[$1]) != Int64($1) ? 1 : 0) }
            guard differing > 0 else { continue }
            // renumberSiblings() renumbers only the lists it reaches from the root.
            guard isUnderRoot(parent) else {
                listsWereNumbered = false
                continue
            }
            changed += differing
            parents.append(parent)
        }
        guard !parents.isEmpty else { return 0 }
        try context.perform("Renumber items") {
            for parent in parents { try renumber(parent, from: 0) }
        }
        return changed
    }

    /// Whether `item` is the root or below it (a walk up that stops after as many steps as
    /// there are items, for a cycle of parents in a damaged document).
    private func isUnderRoot(_ item: ManagedObject) -> Bool {
        var current = item
        var steps = 0
        let limit = itemCount
        while current != root, steps <= limit {
            guard let parent = parent(of: current) else { return false }
            current = parent
            steps += 1
        }
        return current == root
    }
}
