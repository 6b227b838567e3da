import OutlineEngine
import Testing

@testable import OutlineStorage

/// The encoder reads the live rows of a table as runs of consecutive rows and an edited string
/// column in as few pieces as its values lie back to back: what it writes must not depend on
/// where deleted rows and edited values left gaps.
@Suite struct BodyEncoderRunsTests {
    static let count = 120_000

    static func isDropped(_ i: Int) -> Bool { i % 997 == 0 || (50_000 ..< 50_100).contains(i) }

    static func title(_ i: Int, edited: Bool) -> Value? {
        guard i % 5 != 0 else { return nil }
        return .string((edited && i % 1001 == 0 ? "Edited \(i)" : "Item \(i): ") + String(repeating: "abcdefghij", count: 5))
    }

    /// A root and the children `0 ..< count` that `keep` keeps, with ids 2, 3, ... by child.
    static func outline(keeping keep: (Int) -> Bool, edited: Bool) throws -> (graph: ObjectGraph, children: [Int: ManagedObject]) {
        var loader = GraphLoader(schema: try StoreTestSchemas.nestedList())
        let root = loader.appendObject(entity: 0, id: ObjectID(1))
        var children: [Int: ManagedObject] = [:]
        var ordered: [ManagedObject] = []
        for i in 0 ..< count where keep(i) {
            let item = loader.appendObject(entity: 0, id: ObjectID(UInt64(i + 2)))
            loader.setAttribute(item, 0, .integer(Int64(i % 7)))
            loader.setAttribute(item, 1, title(i, edited: edited))
            children[i] = item
            ordered.append(item)
        }
        loader.setRelated(root, 0, ordered)
        return (try loader.finish(), children)
    }

    /// Deleted objects in a few places only: most pages of rows are left whole (see ``RowMap``).
    static func isDroppedRarely(_ i: Int) -> Bool { (50_000 ..< 50_100).contains(i) || i == 7 || i >= count - 3 }

    @Test(arguments: [false, true])
    func deletedAndEditedObjectsEncodeAsTheSameObjectsFreshlyLoaded(rarely: Bool) throws {
        let isDropped = rarely ? Self.isDroppedRarely : Self.isDropped
        let (full, children) = try Self.outline(keeping: { _ in true }, edited: false)
        let context = EditingContext(graph: full)
        try context.delete((0 ..< Self.count).filter(isDropped).compactMap { children[$0] })
        for i in stride(from: 0, to: Self.count, by: 1001) where !isDropped(i) {
            try context.setValue(Self.title(i, edited: true), forKey: "title", of: try #require(children[i]))
        }
        let (expected, _) = try Self.outline(keeping: { !isDropped($0) }, edited: true)
        let edited = BodyEncoder(graph: context.graph.snapshot())
        let fresh = BodyEncoder(graph: expected.snapshot())
        #expect(!edited.rowsKept(0))
        #expect(edited.rowCount(0) == fresh.rowCount(0))
        #expect(edited.encode() == fresh.encode())
    }
}
