import OutlineEngine
import OutlineTestSupport
@testable import OutlineKit
@testable import OutlineTool
import Testing

/// The structural checks `outline validate` runs, on graphs built with deliberate damage.
@Suite struct GraphChecksTests {
    static func schema() throws -> Schema {
        try Schema(name: "Tree", entities: [
            Entity(name: "Item", attributes: [Attribute(name: "order", type: .integer64, isOptional: false)], relationships: [
                Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                Relationship(name: "parent", destination: "Item", inverse: "children"),
            ]),
        ])
    }

    /// Items z100 (root), z101, z102, z103 with `parents` (row indexes) and `children` lists
    /// given separately, both sides taken as they are (no derivation, no check).
    static func graph(parents: [Int?], children: [[Int]]) throws -> ObjectGraph {
        var loader = GraphLoader(schema: try schema())
        loader.appendObjects(entity: 0, ids: (0 ..< UInt64(parents.count)).map { 100 + $0 })
        var childColumn = RelationshipColumn(isToMany: true)
        childColumn.many = PagedArray(children.map { $0.map { ManagedObject(entity: 0, row: $0) } })
        var parentColumn = RelationshipColumn(isToMany: false)
        parentColumn.single = PagedArray(repeating: RelationshipColumn.none, count: parents.count)
        for (row, parent) in parents.enumerated() { parentColumn.setObject(row, parent.map { ManagedObject(entity: 0, row: $0) }) }
        loader.withTable(0) { table in
            table.attributes[0] = AttributeColumn(type: .integer64)
            for _ in parents { table.attributes[0].append(.integer(0)) }
            table.relationships[0] = childColumn
            table.relationships[1] = parentColumn
        }
        loader.markMirrored(entity: 0, relationship: 0)
        loader.markMirrored(entity: 0, relationship: 1)
        return try loader.finish()
    }

    @Test func mirroredSidesPass() throws {
        let graph = try Self.graph(parents: [nil, 0, 0, 1], children: [[1, 2], [3], [], []])
        #expect(GraphChecks.inverses(graph).isEmpty)
    }

    @Test func aLinkMissingOnEitherSideIsNamed() throws {
        // z103 says its parent is z101, but z101 lists no children; z102 is listed by the root
        // but has no parent.
        let graph = try Self.graph(parents: [nil, 0, nil, 1], children: [[1, 2], [], [], []])
        let problems = GraphChecks.inverses(graph).map(\.description)
        #expect(problems == [
            "Item.children: 1 link of Item.children has no matching link in Item.parent (z100 -> z102). The two sides of a relationship must mirror each other; restore the file from a backup.",
            "Item.parent: 1 link of Item.parent has no matching link in Item.children (z101 -> z103). The two sides of a relationship must mirror each other; restore the file from a backup.",
        ])
    }

    @Test func aChildListedTwiceIsReported() throws {
        let graph = try Self.graph(parents: [nil, 0], children: [[1, 1], []])
        let problems = GraphChecks.inverses(graph).map(\.description)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("1 link of Item.children has no matching link in Item.parent (z100 -> z101)") == true)
    }

    @Test func cyclesAreFoundOnceEach() throws {
        let graph = try Self.graph(parents: [nil, 2, 1, 3], children: [[], [2], [1], [3]])
        let shape = try #require(TreeShape(schema: graph.schema))
        let cycles = GraphChecks.cycles(graph, graph.objects(ofEntity: 0), shape)
        #expect(cycles.map { $0.map { graph.objectID(of: $0).description } } == [["z101", "z102"], ["z103"]])
    }
}
