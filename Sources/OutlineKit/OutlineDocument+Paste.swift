import OutlineEngine

extension OutlineDocument {
    /// Inserts a copy of every item of `source` (another outline of the same schema version,
    /// such as an imported file) under `parent` (the root when nil) at 0-based `position` (the
    /// end when nil), with their subtrees, as one undo step.
    ///
    /// - Returns: the copies of `source`'s top-level items, in order.
    /// - Throws: ``OutlineError`` `invalidEdit` for a position out of range or an outline of
    ///   another schema version.
    /// - Complexity: O(n) in the items copied plus the parent's children; no recursion.
    @discardableResult
    public func insertOutline(_ source: OutlineDocument, under parent: ManagedObject? = nil, at position: Int? = nil) throws -> [ManagedObject] {
        guard EditingContext.sameLayout(source.context.schema, context.schema) else {
            throw OutlineError(
                .invalidEdit, "the outline to insert is of schema \(source.context.schema.name), not \(context.schema.name)",
                hint: "Read it with this document's schema (ImportOptions.schema).")
        }
        let parent = parent ?? root
        let siblings = children(of: parent)
        let position = position ?? siblings.count
        guard position >= 0 && position <= siblings.count else { throw positionOutside(position, count: siblings.count, under: parent) }
        let info = context.schema.infos[shape.item]
        let attributes = info.attributeIndices.filter { !info[$0].isTransient }
        return try context.perform("Insert \(source.itemCount - 1) items") {
            var topLevel: [ManagedObject] = []
            var pending = [(from: source.root, to: parent)]
            while let (from, to) = pending.popLast() {
                var copies: [ManagedObject] = []
                for original in source.children(of: from) {
                    let copy = try context.insert(entity: shape.item)
                    for a in attributes where a != shape.order {
                        try context.setAttribute(source.context.attributeValue(of: original, a), a, of: copy)
                    }
                    try context.setAttribute(.integer(Int64(copies.count)), shape.order, of: copy)
                    copies.append(copy)
                    if !source.children(of: original).isEmpty { pending.append((original, copy)) }
                }
                if from == source.root {
                    topLevel = copies
                    try context.setMembers(Array(siblings[..<position]) + copies + siblings[position...], shape.children, of: to)
                    try renumber(to, from: position)
                } else {
                    try context.setMembers(copies, shape.children, of: to)
                }
            }
            return topLevel
        }
    }
}

extension OutlineDocument {
    /// Commits `scratch`, a scratch context of this outline's context (an edit sheet), as one
    /// undo step named `actionName`, then renumbers the child lists that both sides changed, so
    /// that `order` stays 0…n-1. The scratch context ends, even when the merge fails (the
    /// outline is then as it was).
    ///
    /// - Returns: the merge report (see `EditingContext.commit(named:)`).
    @discardableResult
    public func commit(_ scratch: EditingContext, named actionName: String) throws -> MergeReport {
        precondition(!scratch.isFinishedScratch, "commit(_:named:) with a scratch context that was committed or discarded")
        // The scratch context ends first: its snapshot shares the pages the merge writes.
        return try context.merge(scratch.finishForCommit(), named: actionName, finishing: renumberMergedLists)
    }

    /// Renumbers the child lists a merge combined from both sides (see `MergeConflict`).
    public func renumberMergedLists(_ report: MergeReport) throws {
        let children = context.schema.infos[shape.item].relationships[shape.children].name
        for conflict in report.conflicts
        where conflict.kind == .changedInBoth && conflict.property == children
            && context.exists(conflict.object) && context.schema.infos[conflict.object.entity].isKind(of: shape.item)
        {
            try renumber(conflict.object, from: 0)
        }
    }
}
