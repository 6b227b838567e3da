import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit
@testable import OutlineTool

/// The structural checks `outline validate` runs, on graphs built with deliberate damage.
@Suite struct GraphChecksTests {
    static func schema() throws -> Schema {
        try Schema(
            name: "Tree",
            entities: [
                Entity(
                    name: "Item", attributes: [Attribute(name: "order", type: .integer64, isOptional: false)],
                    relationships: [
                        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                        Relationship(name: "parent", destination: "Item", inverse: "children"),
                    ])
            ])
    }

    /// Items z100 (root), z101, z102, z103 with `parents` (row indexes) and `children` lists
    /// given separately, both sides taken as they are (no derivation, no check).
    static func graph(parents: [Int?], children: [[Int]], orders: [Int64]? = nil) throws -> ObjectGraph {
        var loader = GraphLoader(schema: try schema())
        loader.appendObjects(entity: 0, ids: (0 ..< UInt64(parents.count)).map { 100 + $0 })
        var childColumn = RelationshipColumn(isToMany: true)
        childColumn.many = ListColumn(children.map { $0.map { ManagedObject(entity: 0, row: $0) } })
        var parentColumn = RelationshipColumn(isToMany: false)
        parentColumn.single = PagedArray(repeating: RelationshipColumn.none, count: parents.count)
        for (row, parent) in parents.enumerated() { parentColumn.setObject(row, parent.map { ManagedObject(entity: 0, row: $0) }) }
        loader.withTable(0) { table in
            table.attributes[0] = AttributeColumn(type: .integer64)
            for row in parents.indices { table.attributes[0].append(.integer(orders?[row] ?? 0)) }
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
        #expect(
            problems == [
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
        let cycles = shape.parentCycles(in: graph, among: graph.objects(ofEntity: 0))
        #expect(cycles.map { $0.map { graph.objectID(of: $0).description } } == [["z101", "z102"], ["z103"]])
    }

    /// Issue 21: a negative `order` was shown as "nil".
    @Test func negativeOrdersAreShownAsNumbers() throws {
        let graph = try Self.graph(parents: [nil, 0, 0], children: [[1, 2], [], []], orders: [0, -1, 5])
        let shape = try #require(TreeShape(schema: graph.schema))
        #expect(
            GraphChecks.tree(graph, shape: shape).map(\.description) == [
                "Item z100.children: the 2 children have orders -1, 5; siblings must be numbered 0…1. Until it is fixed the items are shown in the order of these numbers; restore the file from a backup."
            ])
    }

    /// Issue 21: validating ten million broken objects collected every problem and ran out of
    /// memory. The first problems are kept, the others counted.
    @Test func problemsPastTheLimitAreCountedNotKept() throws {
        let count = 300
        // Every item its own parent: one cycle each.
        let graph = try Self.graph(parents: Array(0 ..< count), children: (0 ..< count).map { [$0] })
        let shape = try #require(TreeShape(schema: graph.schema))
        let (problems, total) = GraphChecks.tree(graph, shape: shape, limit: 10)
        #expect(problems.count == 10)
        #expect(total == count)
        var report = ValidationReport(file: "big.outline", format: .binary, schemaVersion: nil, objectCount: count, problems: problems)
        report.unlistedProblems = total - problems.count
        let text = report.renderText()
        #expect(text.hasPrefix("big.outline: 300 problems (the first 10 listed):\n"))
        #expect(text.hasSuffix("big.outline: and 290 more problems, not listed.\n"))
        #expect(report.failure?.message == "the document is not valid (300 problems, the first 10 listed above)")
    }
}
