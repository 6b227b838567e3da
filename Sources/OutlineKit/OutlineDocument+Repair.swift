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
}
