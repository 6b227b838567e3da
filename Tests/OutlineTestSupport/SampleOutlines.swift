import Foundation
import OutlineEngine
import OutlineKit
import Testing

/// Outline documents and checks shared by the tests of the outline domain and the tool.
public enum SampleOutlines {
    /// The current outline schema, as embedded from `Schemas/`.
    public static func currentSchema() throws -> Schema {
        try OutlineSchemas.current
    }

    /// Attribute and relationship indices of `Item` in the current schema.
    public static func indices(_ schema: Schema) -> (order: AttributeIndex, text: AttributeIndex, parent: RelationshipIndex) {
        let info = schema.info(named: "Item")!
        return (info.attributeIndex(named: "order")!, info.attributeIndex(named: "text")!, info.relationshipIndex(named: "parent")!)
    }

    /// A new outline in the current schema holding only its root item.
    public static func emptyDocument() throws -> OutlineDocument {
        try OutlineDocument(context: EditingContext(schema: try currentSchema()))
    }

    /// Texts of the tree as an indented list, for readable expectations.
    public static func outline(_ document: OutlineDocument) -> [String] {
        var lines: [String] = []
        document.walk { item, depth in
            lines.append(String(repeating: "  ", count: depth - 1) + (document.text(of: item) ?? ""))
            return true
        }
        return lines
    }

    /// Checks that every item's children have `order` 0…n-1 and point back at their parent.
    public static func checkInvariants(_ document: OutlineDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        var stack = [document.root]
        while let parent = stack.popLast() {
            for (index, child) in document.children(of: parent).enumerated() {
                #expect(document.order(of: child) == Int64(index), sourceLocation: sourceLocation)
                #expect(document.parent(of: child) == parent, sourceLocation: sourceLocation)
                stack.append(child)
            }
        }
    }

    /// Builds a graph in bulk: a chain of `depth` items under the root.
    public static func chain(depth: Int) throws -> OutlineDocument {
        let schema = try currentSchema()
        var loader = GraphLoader(schema: schema)
        loader.reserve(entity: 0, count: depth + 1)
        let index = indices(schema)
        var previous = loader.appendObject(entity: 0, id: ObjectID(1))
        loader.setAttribute(previous, index.order, .integer(0))
        for i in 0 ..< depth {
            let item = loader.appendObject(entity: 0, id: ObjectID(UInt64(i + 2)))
            loader.setAttribute(item, index.order, .integer(0))
            loader.setAttribute(item, index.text, .string("level \(i + 1)"))
            loader.setRelated(item, index.parent, previous)
            previous = item
        }
        return try OutlineDocument(context: EditingContext(graph: try loader.finish()))
    }

    /// Builds a graph in bulk: `count` items, each parent getting up to `fanOut` children, breadth first.
    public static func wide(count: Int, fanOut: Int) throws -> OutlineDocument {
        let schema = try currentSchema()
        var loader = GraphLoader(schema: schema)
        loader.reserve(entity: 0, count: count + 1)
        let index = indices(schema)
        var all = [loader.appendObject(entity: 0, id: ObjectID(1))]
        all.reserveCapacity(count + 1)
        var childCounts = [0]
        var parentIndex = 0
        for i in 0 ..< count {
            if childCounts[parentIndex] == fanOut { parentIndex += 1 }
            let item = loader.appendObject(entity: 0, id: ObjectID(UInt64(i + 2)))
            loader.setAttribute(item, index.order, .integer(Int64(childCounts[parentIndex])))
            loader.setAttribute(item, index.text, .string("item \(i + 1)"))
            loader.setRelated(item, index.parent, all[parentIndex])
            childCounts[parentIndex] += 1
            all.append(item)
            childCounts.append(0)
        }
        return try OutlineDocument(context: EditingContext(graph: try loader.finish()))
    }
}
