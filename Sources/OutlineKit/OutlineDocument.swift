import OutlineEngine

/// An outline over an editing context: one root item, nested lists of items with text, notes,
/// done and collapsed state, siblings kept in `order` 0…n-1 after every edit.
///
/// Works with every version of the outline schema: v1 calls the text `title` and has no
/// notes or done state; later versions add them. Items are read in order in O(1) per child;
/// every edit costs O(siblings) or better and is one undo step with a readable name.
public final class OutlineDocument {
    /// The editing context holding the items; undo, redo and change observation go through it.
    public let context: EditingContext
    /// The one item without a parent. After a reload (the context's objects replaced) it is
    /// found again by the ``VisibleRows`` over the outline; without those, make a new outline
    /// over the context.
    public private(set) var root: ManagedObject

    /// Where the outline's entity, attributes and relationships are in the schema.
    public let shape: OutlineShape

    /// Whether every child list had `order` 0…n-1 in list order when the document was made
    /// over a context with no changes, so that ``renumberSiblings()`` had nothing to do then
    /// and ``renumberChangedSiblings()`` need only look at what changed since (false when that
    /// was not checked, or a list out of the root's reach lost its numbering).
    package internal(set) var listsWereNumbered = false

    /// Wraps `context`, finds the root (creating it in an empty document) and puts each
    /// item's children in `order` (ties broken by object id).
    ///
    /// - Throws: ``OutlineError`` `notAnOutline` when the schema has no outline `Item` entity.
    /// - Complexity: one pass over the items and their child lists.
    public convenience init(context: EditingContext) throws {
        try self.init(context: context, scan: nil)
    }

    /// ``init(context:)`` with the pass over the items done already (`scan`, of the objects
    /// `context` was made with and has not changed since), or done now when nil.
    init(context: EditingContext, scan: OpeningScan?) throws {
        self.context = context
        shape = try OutlineShape(schema: context.schema)
        let scan = scan ?? Self.scan(context, shape: shape)
        if let found = scan.root {
            root = found
            if !context.hasChanges, !context.canUndo, !context.canRedo {
                arrangeChildren(scan.unsorted)
                listsWereNumbered = scan.consecutive
            }
        } else {
            let wasClean = !context.hasChanges
            let undo = context.isUndoRegistrationEnabled
            context.isUndoRegistrationEnabled = false
            root = try context.insert(entity: shape.item)
            context.isUndoRegistrationEnabled = undo
            if wasClean { context.markSaved() }
        }
    }

    /// The root among `items`: the item without a parent (with the smallest id when a damaged
    /// document has several).
    private static func findRoot(among items: [ManagedObject], context: EditingContext, shape: OutlineShape) -> ManagedObject? {
        items.filter { context.relatedObject(of: $0, shape.parent) == nil }
            .min { context.objectID(of: $0) < context.objectID(of: $1) }
    }

    /// Finds the root again after the context replaced every object (a reload), as
    /// ``init(context:)`` does; false, with ``root`` unchanged, when the new objects have no
    /// item without a parent.
    ///
    /// - Complexity: O(items).
    @discardableResult
    func findRootAfterReload() -> Bool {
        guard let found = Self.findRoot(among: context.graph.objects(ofEntity: shape.item), context: context, shape: shape) else { return false }
        root = found
        return true
    }

    /// `the entities A, B and 3 more` (at most five names).
    private static func entityList(_ schema: Schema) -> String {
        let names = schema.entities.map(\.name)
        guard !names.isEmpty else { return "no entities" }
        let shown = names.prefix(5).joined(separator: ", ")
        let rest = names.count > 5 ? " and \(names.count - 5) more" : ""
        return "\(names.count == 1 ? "the entity" : "the entities") \(shown)\(rest)"
    }

    /// Sorts the child lists of `parents` (stored in another order) by `order` once.
    private func arrangeChildren(_ parents: [ManagedObject]) {
        for parent in parents {
            let children = context.relatedObjects(of: parent, shape.children)
            let orders = children.map(order(of:))
            let sorted = children.indices.sorted {
                orders[$0] != orders[$1]
                    ? orders[$0] < orders[$1]
                    : context.objectID(of: children[$0]) < context.objectID(of: children[$1])
            }.map { children[$0] }
            context.arrangeUnorderedMembers(sorted, shape.children, of: parent)
        }
    }

    // MARK: Reading

    /// The children of `item`, in order.
    public func children(of item: ManagedObject) -> [ManagedObject] {
        context.relatedObjects(of: item, shape.children)
    }

    /// The parent of `item`; nil for the root (and for items not under it).
    public func parent(of item: ManagedObject) -> ManagedObject? {
        context.relatedObject(of: item, shape.parent)
    }

    /// The text of `item` (the `title` attribute in schema version 1).
    public func text(of item: ManagedObject) -> String? {
        context.attributeValue(of: item, shape.text)?.stringValue
    }

    /// The note of `item`; nil when it has none or the schema version has no notes.
    public func note(of item: ManagedObject) -> String? {
        shape.note.flatMap { context.attributeValue(of: item, $0)?.stringValue }
    }

    /// Whether `item` is done (false when the schema version has no done state).
    public func isDone(_ item: ManagedObject) -> Bool {
        shape.done.flatMap { context.attributeValue(of: item, $0)?.booleanValue } ?? false
    }

    /// Whether `item` is collapsed (false when the schema version has no collapsed state).
    public func isCollapsed(_ item: ManagedObject) -> Bool {
        shape.collapsed.flatMap { context.attributeValue(of: item, $0)?.booleanValue } ?? false
    }

    /// The stored `order` of `item` among its siblings (0 when it has none).
    public func order(of item: ManagedObject) -> Int64 {
        context.attributeValue(of: item, shape.order)?.integerValue ?? 0
    }

    /// Whether the schema has notes, done state and collapsed state (v1 has none of them).
    public var supportsNotes: Bool { shape.note != nil }
    /// Whether the schema has done state.
    public var supportsDone: Bool { shape.done != nil }
    /// Whether the schema has collapsed state.
    public var supportsCollapsed: Bool { shape.collapsed != nil }

    /// The number of items, the root included.
    public var itemCount: Int { context.graph.count(ofEntity: shape.item) }

    /// The 0-based position of `item` among its siblings.
    ///
    /// - Complexity: O(1) while `order` is consistent, else O(siblings).
    public func position(of item: ManagedObject) -> Int {
        guard let parent = parent(of: item) else { return 0 }
        let siblings = children(of: parent)
        let guess = Int(order(of: item))
        if guess >= 0 && guess < siblings.count && siblings[guess] == item { return guess }
        return siblings.firstIndex(of: item) ?? 0
    }

    /// The 1-based index path of `item` from the root (empty for the root). For an item in a
    /// cycle of parents (a damaged document) the walk up stops after as many steps as there
    /// are items.
    ///
    /// - Complexity: O(depth) while `order` is consistent.
    public func path(of item: ManagedObject) -> [Int] {
        var path: [Int] = []
        var current = item
        let limit = itemCount
        while let parent = parent(of: current), path.count < limit {
            path.append(position(of: current) + 1)
            current = parent
        }
        return path.reversed()
    }

    /// The item a reference names.
    ///
    /// - Throws: ``OutlineError`` `noSuchItem` naming the nearest existing parent.
    public func item(at reference: ItemReference) throws -> ManagedObject {
        switch reference {
        case .id(let id):
            guard let object = context.object(with: id), context.schema[object.entity].isKind(of: shape.item) else {
                throw OutlineError(
                    .noSuchItem, at: reference.description, "there is no item with id \(id.rawValue)",
                    hint: "Ids are the numbers the document's items carry (ObjectID); list the items to see them.")
            }
            return object
        case .path(let indices):
            var current = root
            for (depth, index) in indices.enumerated() {
                let kids = children(of: current)
                guard index >= 1 && index <= kids.count else {
                    let parentPath = ItemReference.path(Array(indices[..<depth])).description
                    let has = kids.isEmpty ? "has no children" : "has \(kids.count) \(kids.count == 1 ? "child" : "children")"
                    throw OutlineError(
                        .noSuchItem, at: reference.description, "there is no item \(reference.description)",
                        hint: "The nearest existing item is \(parentPath), which \(has).")
                }
                current = kids[index - 1]
            }
            return current
        }
    }

    /// Calls `body(item, depth)` for every item under `start` (not `start` itself) in document
    /// order, depth-first without recursion. Returning false from `body` skips the item's children.
    public func walk(from start: ManagedObject? = nil, maxDepth: Int = .max, _ body: (ManagedObject, Int) throws -> Bool) rethrows {
        var stack: [(children: [ManagedObject], next: Int)] = [(children(of: start ?? root), 0)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].children.count else {
                stack.removeLast()
                continue
            }
            let current = stack[top].children[stack[top].next]
            stack[top].next += 1
            let depth = stack.count
            if try body(current, depth), depth < maxDepth {
                let kids = children(of: current)
                if !kids.isEmpty { stack.append((kids, 0)) }
            }
        }
    }
}
