import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// The bulk-loading entry points columnar stores use.
@Suite struct GraphLoaderBulkTests {
    @Test func bulkRowsWholeColumnsAndMirroredInversesMakeAGraph() throws {
        let schema = try TestSchemas.nestedList()
        var loader = GraphLoader(schema: schema)
        loader.appendObjects(entity: 0, ids: [102, 103, 107])
        let title = ByteColumn(arena: Array("rootab".utf8), starts: [0, 4, 0], lengths: [4, 2, -1])
        var children = RelationshipColumn(isToMany: true)
        children.many = ListColumn([[ManagedObject(entity: 0, row: 2), ManagedObject(entity: 0, row: 1)], [], []])
        var parent = RelationshipColumn(isToMany: false)
        parent.single = PagedArray(repeating: RelationshipColumn.none, count: 3)
        parent.setObject(1, ManagedObject(entity: 0, row: 0))
        parent.setObject(2, ManagedObject(entity: 0, row: 0))
        loader.withTable(0) { table in
            table.attributes[0].integers = [0, 1, 2]
            table.attributes[0].present = [true, true, true]
            table.attributes[1].bytes = title
            table.relationships[0] = children
            table.relationships[1] = parent
        }
        loader.markSupplied(entity: 0, relationship: 0)
        loader.markMirrored(entity: 0, relationship: 1)
        let graph = try loader.finish()
        #expect(graph.objectCount == 3)
        #expect(graph.nextID == 108)
        #expect(graph.attributeValue(of: ManagedObject(entity: 0, row: 0), 1) == .string("root"))
        #expect(graph.attributeValue(of: ManagedObject(entity: 0, row: 1), 1) == .string("ab"))
        #expect(graph.attributeValue(of: ManagedObject(entity: 0, row: 2), 1) == nil)
        #expect(graph.relatedObject(of: ManagedObject(entity: 0, row: 2), 1) == ManagedObject(entity: 0, row: 0))
        #expect(
            graph.relatedObjects(of: ManagedObject(entity: 0, row: 0), 0) == [ManagedObject(entity: 0, row: 2), ManagedObject(entity: 0, row: 1)])
    }
}
