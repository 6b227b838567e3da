import Foundation
import OutlineEngine

/// Outline edits. Each is one undo step named after what it did; siblings' `order` is 0…n-1
/// afterwards; each costs O(siblings) (plus the size of a deleted subtree).
extension OutlineDocument {
    /// Inserts a new item under `parent` (the root when nil) at 0-based `position` (the end when nil).
    @discardableResult
    public func insertItem(
        _ text: String, under parent: ManagedObject? = nil, at position: Int? = nil,
        note: String? = nil, done: Bool = false
    ) throws -> ManagedObject {
        let parent = parent ?? root
        let count = children(of: parent).count
        let position = position ?? count
        guard position >= 0 && position <= count else { throw positionOutside(position, count: count, under: parent) }
        return try context.perform("Add item “\(Self.shorten(text))”") {
            let new = try context.insert(entity: shape.item)
            try context.setAttribute(.string(text), shape.text, of: new)
            if let note { try setNote(note, of: new) }
            if done { try setDone(true, of: new) }
            if let created = shape.created { try context.setAttribute(.date(Date()), created, of: new) }
            try context.add(new, to: shape.children, of: parent, at: position)
            try renumber(parent, from: position)
            return new
        }
    }

    /// Deletes `item` and its whole subtree.
    public func deleteItem(_ target: ManagedObject) throws {
        guard let parent = parent(of: target) else {
            throw OutlineError(
                .invalidEdit, at: "/", "the root item cannot be removed",
                hint: "Remove its children instead.")
        }
        let position = position(of: target)
        try context.perform("Delete item “\(Self.shorten(text(of: target) ?? ""))”") {
            // The tags of the items going away: those no other item has go with them, as
            // removing a tag from its last item deletes it.
            let tagShape = shape.tags
            let tags = tagShape.map { tagShape in
                Set(subtree(of: target).lazy.flatMap { self.context.relatedObjects(of: $0, tagShape.itemTags) })
            }
            try context.delete(target)
            try renumber(parent, from: position)
            if let tagShape, let tags {
                for tag in tags where context.exists(tag) && context.relatedObjects(of: tag, tagShape.items).isEmpty {
                    try context.delete(tag)
                }
            }
        }
    }

    /// Moves `item` under `newParent` at 0-based `position` (the end when nil).
    ///
    /// An item that is not under the root (a second item without a parent, or one in a cycle
    /// of parents: see ``detachedItems()``) can be moved under it, which repairs the document.
    public func moveItem(_ target: ManagedObject, under newParent: ManagedObject, at position: Int? = nil) throws {
        guard target != root else {
            throw OutlineError(.invalidEdit, at: "/", "the root item cannot be moved")
        }
        let oldParent = parent(of: target)
        // Up from the destination, at most once per item (a damaged document may hold a cycle).
        var ancestor: ManagedObject? = newParent
        var steps = 0
        while let a = ancestor, steps <= itemCount {
            if a == target {
                throw OutlineError(
                    .invalidEdit, "an item cannot be moved under itself or one of its descendants",
                    hint: "Choose a destination outside the item's subtree.")
            }
            ancestor = parent(of: a)
            steps += 1
        }
        let oldPosition = self.position(of: target)
        let sameParent = oldParent == newParent
        let count = children(of: newParent).count - (sameParent ? 1 : 0)
        let position = position ?? count
        guard position >= 0 && position <= count else { throw positionOutside(position, count: count, under: newParent) }
        try context.perform("Move item “\(Self.shorten(text(of: target) ?? ""))”") {
            try context.add(target, to: shape.children, of: newParent, at: position)
            if sameParent {
                try renumber(newParent, from: min(oldPosition, position))
            } else {
                if let oldParent { try renumber(oldParent, from: oldPosition) }
                try renumber(newParent, from: position)
            }
        }
    }

    /// Swaps `item` with its previous sibling.
    public func moveUp(_ target: ManagedObject) throws {
        let (parent, position) = try placed(target)
        guard position > 0 else {
            throw OutlineError(.invalidEdit, at: ItemReference.path(path(of: target)).description, "the item is already first among its siblings")
        }
        try moveItem(target, under: parent, at: position - 1)
    }

    /// Swaps `item` with its next sibling.
    public func moveDown(_ target: ManagedObject) throws {
        let (parent, position) = try placed(target)
        guard position + 1 < children(of: parent).count else {
            throw OutlineError(.invalidEdit, at: ItemReference.path(path(of: target)).description, "the item is already last among its siblings")
        }
        try moveItem(target, under: parent, at: position + 1)
    }

    /// Makes `item` the last child of its previous sibling.
    public func indent(_ target: ManagedObject) throws {
        let (parent, position) = try placed(target)
        guard position > 0 else {
            throw OutlineError(
                .invalidEdit, at: ItemReference.path(path(of: target)).description,
                "the first item among its siblings cannot be indented",
                hint: "Only an item with a previous sibling can become that sibling's child.")
        }
        try moveItem(target, under: children(of: parent)[position - 1])
    }

    /// Makes `item` the next sibling of its parent.
    public func outdent(_ target: ManagedObject) throws {
        let (parent, _) = try placed(target)
        guard let grandparent = self.parent(of: parent) else {
            throw OutlineError(
                .invalidEdit, at: ItemReference.path(path(of: target)).description,
                "a top-level item cannot be outdented")
        }
        try moveItem(target, under: grandparent, at: position(of: parent) + 1)
    }

    /// Sets the text of `item`, as one undo step.
    public func setText(_ text: String, of target: ManagedObject) throws {
        try context.perform("Edit text of “\(Self.shorten(self.text(of: target) ?? ""))”") {
            try context.setAttribute(.string(text), shape.text, of: target)
        }
    }

    /// Sets or removes (nil) the note of `item`.
    public func setNote(_ note: String?, of target: ManagedObject) throws {
        guard let noteAttribute = shape.note else { throw unsupported("notes") }
        try context.perform("Edit note of “\(Self.shorten(text(of: target) ?? ""))”") {
            try context.setAttribute(note.map(Value.string), noteAttribute, of: target)
        }
    }

    /// Marks `item` done or not done, as one undo step.
    ///
    /// - Throws: ``OutlineError`` `notInThisVersion` when the schema version has no done state.
    public func setDone(_ done: Bool, of target: ManagedObject) throws {
        guard let doneAttribute = shape.done else { throw unsupported("done state") }
        let name = "“\(Self.shorten(text(of: target) ?? ""))”"
        try context.perform(done ? "Mark \(name) done" : "Mark \(name) not done") {
            try context.setAttribute(.boolean(done), doneAttribute, of: target)
        }
    }

    /// Collapses or expands `item`, as one undo step.
    ///
    /// - Throws: ``OutlineError`` `notInThisVersion` when the schema version has no collapsed state.
    public func setCollapsed(_ collapsed: Bool, of target: ManagedObject) throws {
        guard let collapsedAttribute = shape.collapsed else { throw unsupported("collapsed state") }
        let name = "“\(Self.shorten(text(of: target) ?? ""))”"
        try context.perform(collapsed ? "Collapse \(name)" : "Expand \(name)") {
            try context.setAttribute(.boolean(collapsed), collapsedAttribute, of: target)
        }
    }

    // MARK: Helpers

    private func placed(_ target: ManagedObject) throws -> (ManagedObject, Int) {
        guard let parent = parent(of: target) else {
            throw OutlineError(.invalidEdit, at: "/", "the root item cannot be moved")
        }
        return (parent, position(of: target))
    }

    /// Sets `order` of the children of `parent` from `start` on to their positions.
    func renumber(_ parent: ManagedObject, from start: Int) throws {
        let kids = children(of: parent)
        for index in max(0, start) ..< kids.count where order(of: kids[index]) != Int64(index) {
            try context.setAttribute(.integer(Int64(index)), shape.order, of: kids[index])
        }
    }

    private func unsupported(_ what: String) -> OutlineError {
        OutlineError(
            .notInThisVersion, at: context.schema.name, "this schema version has no \(what)",
            hint: "Migrate the document to the current version first.")
    }

    package static func shorten(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return line.count > 40 ? String(line.prefix(39)) + "…" : line
    }

    /// The refusal of 0-based `position` among the `count` places under `parent` (1 to
    /// count + 1 for the user), named by the parent's path. Checked: a caller's position may be
    /// anything, Int.max included.
    func positionOutside(_ position: Int, count: Int, under parent: ManagedObject) -> OutlineError {
        let shown = position.addingReportingOverflow(1).overflow ? "past \(Int.max)" : String(position + 1)
        return OutlineError(
            .invalidEdit, at: ItemReference.path(path(of: parent)).description, "position \(shown) is outside 1...\(count + 1)",
            hint: "Give a position between 1 and \(count + 1).")
    }
}
