import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// `renumberChangedSiblings()` (what a CLI save runs) renumbers exactly what
/// `renumberSiblings()` would, looking only at lists changed since the last save when the
/// document was numbered 0…n-1 when opened.
@Suite struct RenumberChangedSiblingsTests {
    typealias Support = SampleOutlines

    /// A saved outline: the root with three children stored with `orders`, the first of them
    /// with one child stored with `order` `nestedOrder`.
    static func document(orders: [Int64], nestedOrder: Int64 = 0) throws -> (OutlineDocument, [ManagedObject]) {
        let schema = try Support.currentSchema()
        let index = Support.indices(schema)
        let children = try #require(schema.info(named: "Item")?.relationshipIndex(named: "children"))
        var loader = GraphLoader(schema: schema)
        let root = loader.appendObject(entity: 0, id: ObjectID(1))
        var kids: [ManagedObject] = []
        for (i, order) in orders.enumerated() {
            let kid = loader.appendObject(entity: 0, id: ObjectID(UInt64(i + 2)))
            loader.setAttribute(kid, index.order, .integer(order))
            loader.setAttribute(kid, index.text, .string("item \(i)"))
            kids.append(kid)
        }
        let nested = loader.appendObject(entity: 0, id: ObjectID(UInt64(orders.count + 2)))
        loader.setAttribute(nested, index.order, .integer(nestedOrder))
        loader.setAttribute(nested, index.text, .string("nested"))
        loader.setRelated(kids[0], children, [nested])
        loader.setRelated(root, children, kids)
        return (try OutlineDocument(context: EditingContext(graph: try loader.finish())), kids)
    }

    static func orders(_ document: OutlineDocument, under item: ManagedObject? = nil) -> [Int64] {
        document.children(of: item ?? document.root).map(document.order(of:))
    }

    @Test func aListAnEditMisnumberedIsRenumbered() throws {
        let (document, kids) = try Self.document(orders: [0, 1, 2])
        #expect(document.listsWereNumbered)
        try document.context.setAttribute(.integer(7), document.shape.order, of: kids[1])
        #expect(try document.renumberChangedSiblings() == 1)
        #expect(Self.orders(document) == [0, 1, 2])
        #expect(document.context.undoActionName == "Renumber items")
    }

    @Test func aListWhoseMembersChangedIsRenumbered() throws {
        let (document, kids) = try Self.document(orders: [0, 1, 2])
        let added = try document.context.insert(entity: document.shape.item)
        try document.context.setAttribute(.integer(9), document.shape.order, of: added)
        try document.context.add(added, to: document.shape.children, of: kids[2])
        #expect(try document.renumberChangedSiblings() == 1)
        #expect(Self.orders(document, under: kids[2]) == [0])
    }

    @Test func editsThatKeepTheNumberingChangeNothing() throws {
        let (document, kids) = try Self.document(orders: [0, 1, 2])
        try document.moveItem(kids[2], under: document.root, at: 0)
        try document.insertItem("new", under: kids[1])
        #expect(try document.renumberChangedSiblings() == 0)
        #expect(document.context.undoActionName != "Renumber items")
    }

    /// Top-level items numbered from 1, or a nested list numbered 4.
    static let misnumbered: [(orders: [Int64], nested: Int64)] = [([1, 2, 3], 0), ([0, 1, 2], 4)]

    @Test(arguments: 0 ..< 2)
    func aDocumentOpenedMisnumberedIsRenumberedWhole(case number: Int) throws {
        let (orders, nestedOrder) = Self.misnumbered[number]
        let (document, kids) = try Self.document(orders: orders, nestedOrder: nestedOrder)
        #expect(!document.listsWereNumbered)
        #expect(try document.renumberChangedSiblings() == (orders == [0, 1, 2] ? 1 : 3))
        #expect(Self.orders(document) == [0, 1, 2] && Self.orders(document, under: kids[0]) == [0])
    }
}
