import OutlineTestSupport
import Testing

@testable import OutlineEngine

@Suite struct GraphLoaderTests {
    @Test func derivesTheMissingSideOfEachInversePair() throws {
        let schema = try TestSchemas.nestedList()
        var loader = GraphLoader(schema: schema)
        let root = loader.appendObject(entity: 0, id: ObjectID(102))
        let a = loader.appendObject(entity: 0, id: ObjectID(103))
        let b = loader.appendObject(entity: 0, id: ObjectID(104))
        loader.setRelated(root, 0, [b, a])
        let graph = try loader.finish()
        #expect(graph.relatedObject(of: a, 1) == root)
        #expect(graph.relatedObject(of: b, 1) == root)
        #expect(graph.relatedObjects(of: root, 0) == [b, a])
        #expect(graph.nextID == 105)
    }

    @Test func nextIDIsAboveTheHighestIDEvenWhenTheFileSaysLess() throws {
        var loader = GraphLoader(schema: try TestSchemas.nestedList())
        _ = loader.appendObject(entity: 0, id: ObjectID(500))
        loader.declareNextID(300)
        #expect(try loader.finish().nextID == 501)
    }

    @Test func disagreeingSidesAreReported() throws {
        var loader = GraphLoader(schema: try TestSchemas.nestedList())
        let root = loader.appendObject(entity: 0, id: ObjectID(102))
        let a = loader.appendObject(entity: 0, id: ObjectID(103))
        let b = loader.appendObject(entity: 0, id: ObjectID(104))
        loader.setRelated(root, 0, [a])
        loader.setRelated(a, 1, root)
        loader.setRelated(b, 1, root)
        let error = #expect(throws: EngineError.self) { try loader.finish() }
        #expect(error?.code == .inconsistentGraph)
        #expect(
            error?.description
                == "Item z104: relationship \"parent\" disagrees with its inverse \"children\": it names z102, which does not list it. The two sides of a relationship must mirror each other; the file is damaged or was edited by hand."
        )
    }

    @Test func consistentSidesPass() throws {
        var loader = GraphLoader(schema: try TestSchemas.everything())
        let ann = loader.appendObject(entity: 0, id: ObjectID(1))
        let bob = loader.appendObject(entity: 0, id: ObjectID(2))
        let tag = loader.appendObject(entity: 2, id: ObjectID(3))
        loader.setRelated(ann, 1, [tag])
        loader.setRelated(bob, 1, [tag])
        loader.setRelated(tag, 0, [bob, ann])
        loader.setRelated(ann, 3, [bob])
        loader.setRelated(bob, 3, [ann])
        let graph = try loader.finish()
        #expect(graph.relatedObjects(of: tag, 0) == [bob, ann], "stored order is kept")
    }

    /// Issue 21: messages said "it involves z102 and z102"; each now says what disagrees.
    @Test(
        arguments: [
            ([[1, 2]], [0, 0], nil as String?),
            ([[1, 1]], [0, nil], "Item z103: relationship \"parent\" disagrees with its inverse \"children\": z102 lists it more than once."),
            ([[1]], [0, 0], "Item z104: relationship \"parent\" disagrees with its inverse \"children\": it names z102, which does not list it."),
            ([[1, 2]], [0, 1], "Item z104: relationship \"parent\" disagrees with its inverse \"children\": it names z103, but z102 lists it."),
        ] as [([[Int]], [Int?], String?)])
    func manyToOneDisagreementsSayWhat(_ children: [[Int]], _ parents: [Int?], _ expected: String?) throws {
        var loader = GraphLoader(schema: try TestSchemas.nestedList())
        let items = (0 ... 2).map { loader.appendObject(entity: 0, id: ObjectID(102 + UInt64($0))) }
        loader.setRelated(items[0], 0, children[0].map { items[$0] })
        for (index, parent) in parents.enumerated() { loader.setRelated(items[index + 1], 1, parent.map { items[$0] }) }
        guard let expected else {
            _ = try loader.finish()
            return
        }
        let error = #expect(throws: EngineError.self) { try loader.finish() }
        #expect(
            error?.description == expected + " The two sides of a relationship must mirror each other; the file is damaged or was edited by hand.")
    }
}
