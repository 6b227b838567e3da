import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// Documents and helpers for the tests of ``DocumentContainer``.
enum StackFixtures {
    /// The item count of the big documents: `OUTLINE_LARGE_ITEMS` or 100,000.
    static let largeItems = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap(Int.init) ?? 100_000

    /// Where `Item`'s properties are.
    struct Shape {
        let item: EntityIndex
        let order: AttributeIndex
        let text: AttributeIndex
        let children: RelationshipIndex
        let parent: RelationshipIndex

        init(_ schema: Schema) {
            let info = schema.info(named: "Item")!
            item = info.index
            order = info.attributeIndex(named: "order")!
            text = info.attributeIndex(named: "text")!
            children = info.relationshipIndex(named: "children")!
            parent = info.relationshipIndex(named: "parent")!
        }
    }

    /// Writes an outline of `count` items under a root (up to 10 children each, breadth
    /// first, texts `item N`) to `name` in `folder`, and returns its path.
    static func document(
        _ count: Int, in folder: String, name: String = "doc.outline",
        format: DocumentFormat = .binary
    ) throws -> String {
        let schema = try SampleOutlines.currentSchema()
        let shape = Shape(schema)
        var loader = GraphLoader(schema: schema)
        loader.reserve(entity: shape.item, count: count + 1)
        let defaults = schema.infos[shape.item].attributes.map { a in a.defaultValue.flatMap { $0.converted(to: a.type) } }
        func add(_ id: Int) -> ManagedObject {
            let item = loader.appendObject(entity: shape.item, id: ObjectID(UInt64(id)))
            for (a, value) in zip(schema.infos[shape.item].attributeIndices, defaults) where value != nil {
                loader.setAttribute(item, a, value)
            }
            return item
        }
        var all = [add(1)]
        loader.setAttribute(all[0], shape.order, .integer(0))
        var childCounts = [0]
        var parent = 0
        for i in 0 ..< count {
            if childCounts[parent] == 10 { parent += 1 }
            let item = add(i + 2)
            loader.setAttribute(item, shape.order, .integer(Int64(childCounts[parent])))
            loader.setAttribute(item, shape.text, .string("item \(i + 1)"))
            loader.setRelated(item, shape.parent, all[parent])
            childCounts[parent] += 1
            all.append(item)
            childCounts.append(0)
        }
        let path = folder + "/" + name
        try PersistentStore(context: EditingContext(graph: try loader.finish()), path: path, format: format).save()
        return path
    }

    /// The texts of every item of the document at `path`, as read from disk.
    static func texts(at path: String) throws -> [String] {
        let store = try PersistentStore.open(path)
        let shape = Shape(store.schema)
        return store.context.graph.objects(ofEntity: shape.item).compactMap { store.context.attributeValue(of: $0, shape.text)?.stringValue }
    }

    /// Inserts an item with `text` under `parent`, as one undo step.
    @discardableResult
    static func insert(_ text: String, under parent: ManagedObject, in context: EditingContext) throws -> ManagedObject {
        let shape = Shape(context.schema)
        return try context.perform("Add item") {
            let item = try context.insert(entity: shape.item)
            try context.setAttribute(.string(text), shape.text, of: item)
            try context.setAttribute(.integer(Int64(context.relatedObjects(of: parent, shape.children).count)), shape.order, of: item)
            try context.add(item, to: shape.children, of: parent)
            return item
        }
    }

    /// The root item of `context`.
    static func root(of context: EditingContext) -> ManagedObject {
        let shape = Shape(context.schema)
        return context.graph.objects(ofEntity: shape.item).first { context.relatedObject(of: $0, shape.parent) == nil }!
    }

    /// The names in `folder`, sorted.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

extension StackFixtures {
    /// Yields the main actor until `condition` holds. After `limit` it records an issue and
    /// returns false, so that a state the test missed fails it instead of spinning forever.
    @MainActor
    static func yield(
        until condition: () -> Bool, limit: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("what the test waited for did not happen within \(limit)", sourceLocation: sourceLocation)
                return false
            }
            await Task.yield()
        }
        return true
    }
}

extension AsyncStream<DocumentEvent>.Iterator {
    /// The next event other than `saved`-or-not noise the test does not care about.
    mutating func next(skipping skipped: (DocumentEvent) -> Bool) async -> DocumentEvent? {
        while let event = await next() {
            if !skipped(event) { return event }
        }
        return nil
    }
}
