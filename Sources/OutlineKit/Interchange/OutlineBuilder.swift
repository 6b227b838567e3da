import Foundation
import OutlineEngine

/// Builds a new outline document in bulk, item after item in document order, with the engine's
/// ``GraphLoader``: no undo registration, no change tracking, no per-edit checks.
///
/// Items are given with their depth (1 = top level); the builder keeps the open ancestors in
/// an array (never recursing) and numbers siblings' `order` 0…n-1 as they arrive. Every item
/// gets the schema's default values first, as an inserted one would.
///
/// - Complexity: O(1) per item and per property, O(items) to finish.
struct OutlineBuilder {
    let schema: Schema
    private var loader: GraphLoader
    /// Where the outline's parts are in `schema`.
    let shape: OutlineShape
    private let defaults: [(attribute: AttributeIndex, value: Value)]
    /// The open ancestors of the next item: the root first, each with its child count so far.
    private var open: [(object: ManagedObject, children: Int64)] = []
    private var nextID: UInt64 = ObjectID.first.rawValue
    /// The items appended, the root excluded.
    private(set) var count = 0
    /// The tags made so far, by name.
    private var tagsByName: [String: ManagedObject] = [:]

    /// A builder for a document of `schema`, holding only the root item.
    ///
    /// - Throws: ``OutlineError`` `notAnOutline` when the schema has no outline `Item` entity.
    init(schema: Schema) throws {
        shape = try OutlineShape(schema: schema)
        self.schema = schema
        loader = GraphLoader(schema: schema)
        let info = schema[shape.item]
        defaults = zip(info.attributeIndices, info.attributes).compactMap { index, attribute in
            attribute.defaultValue.flatMap { $0.converted(to: attribute.type) }.map { (index, $0) }
        }
        let root = appendObject()
        loader.markSupplied(entity: shape.item, relationship: shape.parent)
        open = [(root, 0)]
    }

    /// The depth of the last item appended (0 before the first).
    var depth: Int { open.count - 1 }

    /// Reserves room for about `count` items.
    mutating func reserve(_ count: Int) {
        loader.reserve(entity: shape.item, count: count + 1)
    }

    /// Appends an item with `text` as the last child of the open item at `depth - 1`.
    ///
    /// - Precondition: `1 <= depth <= self.depth + 1` (callers turn jumps into warnings first).
    @discardableResult
    mutating func append(depth: Int, text value: String) -> ManagedObject {
        precondition(depth >= 1 && depth <= open.count, "OutlineBuilder.append: depth \(depth) after depth \(self.depth)")
        open.removeLast(open.count - depth)
        let object = appendObject()
        loader.setAttribute(object, shape.order, .integer(open[depth - 1].children))
        loader.setAttribute(object, shape.text, .string(value))
        loader.setRelated(object, shape.parent, open[depth - 1].object)
        open[depth - 1].children += 1
        open.append((object, 0))
        count += 1
        return object
    }

    /// Replaces the text of `object`.
    mutating func setText(_ value: String, of object: ManagedObject) {
        loader.setAttribute(object, shape.text, .string(value))
    }

    /// Sets the note of `object`; false when the schema has no notes.
    @discardableResult
    mutating func setNote(_ note: String?, of object: ManagedObject) -> Bool {
        set(shape.note, note.map(Value.string), of: object)
    }

    /// Sets the done state of `object`; false when the schema has no done state.
    @discardableResult
    mutating func setDone(_ done: Bool, of object: ManagedObject) -> Bool {
        set(shape.done, .boolean(done), of: object)
    }

    /// Sets the collapsed state of `object`; false when the schema has no collapsed state.
    @discardableResult
    mutating func setCollapsed(_ collapsed: Bool, of object: ManagedObject) -> Bool {
        set(shape.collapsed, .boolean(collapsed), of: object)
    }

    /// Sets the creation date of `object`; false when the schema has none.
    @discardableResult
    mutating func setCreated(_ date: Date?, of object: ManagedObject) -> Bool {
        set(shape.created, date.map(Value.date), of: object)
    }

    /// Stores `extra` (nil when empty) in `extraAttributes`; false when the schema has no place for it.
    @discardableResult
    mutating func setExtraAttributes(_ extra: ExtraAttributes?, of object: ManagedObject) -> Bool {
        set(shape.extraAttributes, extra.flatMap { $0.entries.isEmpty ? nil : Value.binary($0.encoded()) }, of: object)
    }

    /// Links `object` to the tags `names` (each made once, on first use); false when the schema
    /// has no tags.
    @discardableResult
    mutating func setTags(_ names: [String], of object: ManagedObject) -> Bool {
        guard let tags = shape.tags else { return false }
        var members: [ManagedObject] = []
        for name in names {
            if let tag = tagsByName[name] {
                members.append(tag)
                continue
            }
            let tag = loader.appendObject(entity: tags.entity, id: ObjectID(nextID))
            nextID += 1
            loader.setAttribute(tag, tags.name, .string(name))
            tagsByName[name] = tag
            members.append(tag)
        }
        loader.setRelated(object, tags.itemTags, members)
        return true
    }

    /// The object of the `index`th appended item (0-based, document order).
    func object(at index: Int) -> ManagedObject { ManagedObject(entity: shape.item, row: index + 1) }

    /// The finished document.
    ///
    /// - Throws: ``EngineError`` if the graph is inconsistent, which the builder never makes.
    consuming func finish() throws -> OutlineDocument {
        let graph = try loader.finish()
        return try OutlineDocument(context: EditingContext(graph: graph))
    }

    private mutating func appendObject() -> ManagedObject {
        let object = loader.appendObject(entity: shape.item, id: ObjectID(nextID))
        nextID += 1
        for (attribute, value) in defaults { loader.setAttribute(object, attribute, value) }
        return object
    }

    private mutating func set(_ attribute: AttributeIndex?, _ value: Value?, of object: ManagedObject) -> Bool {
        guard let attribute else { return false }
        loader.setAttribute(object, attribute, value)
        return true
    }
}
