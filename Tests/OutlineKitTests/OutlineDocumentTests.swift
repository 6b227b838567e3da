import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct OutlineDocumentTests {
    typealias Support = SampleOutlines

    @Test func rootIsCreatedOnceAndFoundAgain() throws {
        let context = EditingContext(schema: try Support.currentSchema())
        let first = try OutlineDocument(context: context)
        #expect(!context.hasChanges, "creating the root of a new document is not an edit")
        let second = try OutlineDocument(context: context)
        #expect(first.root == second.root)
        #expect(first.itemCount == 1)
        #expect(first.parent(of: first.root) == nil && first.text(of: first.root) == nil)
    }

    @Test func insertKeepsOrderZeroToNMinusOne() throws {
        let document = try Support.emptyDocument()
        let b = try document.insertItem("B")
        try document.insertItem("A", at: 0)
        try document.insertItem("C")
        try document.insertItem("B1", under: b)
        try document.insertItem("A½", at: 1)
        #expect(Support.outline(document) == ["A", "A½", "B", "  B1", "C"])
        Support.checkInvariants(document)
        #expect(document.path(of: document.children(of: b)[0]) == [3, 1])
    }

    @Test func deleteRemovesTheSubtreeAndRenumbers() throws {
        let document = try Support.emptyDocument()
        let a = try document.insertItem("A")
        try document.insertItem("A1", under: a)
        try document.insertItem("A2", under: a)
        try document.insertItem("B")
        try document.insertItem("C")
        try document.deleteItem(a)
        #expect(Support.outline(document) == ["B", "C"])
        #expect(document.itemCount == 3)
        Support.checkInvariants(document)
    }

    @Test func undoAndRedoOfAddAndDelete() throws {
        let document = try Support.emptyDocument()
        let milk = try document.insertItem("Buy milk")
        try document.insertItem("Soy", under: milk)
        #expect(document.context.undoActionName == "Add item “Soy”")
        try document.deleteItem(milk)
        #expect(document.context.undoActionName == "Delete item “Buy milk”")
        document.context.undo()
        #expect(Support.outline(document) == ["Buy milk", "  Soy"])
        document.context.undo()
        #expect(Support.outline(document) == ["Buy milk"])
        document.context.undo()
        #expect(Support.outline(document).isEmpty)
        #expect(!document.context.hasChanges)
        document.context.redo()
        document.context.redo()
        document.context.redo()
        #expect(Support.outline(document).isEmpty)
        document.context.undo()
        #expect(Support.outline(document) == ["Buy milk", "  Soy"])
        Support.checkInvariants(document)
    }

    @Test func moveIndentOutdentUpDown() throws {
        let document = try Support.emptyDocument()
        let a = try document.insertItem("A")
        let b = try document.insertItem("B")
        let c = try document.insertItem("C")
        try document.indent(b)
        #expect(Support.outline(document) == ["A", "  B", "C"])
        try document.indent(c)
        try document.indent(c)
        #expect(Support.outline(document) == ["A", "  B", "    C"])
        try document.outdent(c)
        #expect(Support.outline(document) == ["A", "  B", "  C"])
        try document.moveUp(c)
        #expect(Support.outline(document) == ["A", "  C", "  B"])
        try document.moveDown(c)
        try document.outdent(b)
        #expect(Support.outline(document) == ["A", "  C", "B"])
        try document.moveItem(a, under: document.root, at: 1)
        #expect(Support.outline(document) == ["B", "A", "  C"])
        #expect(document.context.undoActionName == "Move item “A”")
        Support.checkInvariants(document)
        for _ in 0 ..< 8 { document.context.undo() }
        #expect(Support.outline(document) == ["A", "B", "C"])
        Support.checkInvariants(document)
        for _ in 0 ..< 8 { document.context.redo() }
        #expect(Support.outline(document) == ["B", "A", "  C"])
        Support.checkInvariants(document)
    }

    @Test func invalidEditsAreRefusedWithReasons() throws {
        let document = try Support.emptyDocument()
        let a = try document.insertItem("A")
        let a1 = try document.insertItem("A1", under: a)
        #expect(throws: OutlineError.self) { try document.indent(a) }
        #expect(throws: OutlineError.self) { try document.outdent(a) }
        #expect(throws: OutlineError.self) { try document.moveItem(a, under: a1) }
        #expect(throws: OutlineError.self) { try document.deleteItem(document.root) }
        let missing = #expect(throws: OutlineError.self) { try document.item(at: try ItemReference(parsing: "1.3")) }
        #expect(missing?.description == "1.3: there is no item 1.3. The nearest existing item is 1, which has 1 child.")
        #expect(try document.item(at: ItemReference(parsing: "1.1")) == a1)
        #expect(try document.item(at: ItemReference(parsing: "/")) == document.root)
        #expect(try document.item(at: ItemReference(parsing: "#\(document.context.objectID(of: a1).rawValue)")) == a1)
        #expect(throws: OutlineError.self) { try ItemReference(parsing: "1..2") }
        #expect(Support.outline(document) == ["A", "  A1"])
    }

    @Test func childrenAreReadInOrderEvenWhenStoredOtherwise() throws {
        let schema = try Support.currentSchema()
        let index = Support.indices(schema)
        let children = schema.info(named: "Item")!.relationshipIndex(named: "children")!
        var loader = GraphLoader(schema: schema)
        let root = loader.appendObject(entity: 0, id: ObjectID(1))
        var kids: [ManagedObject] = []
        for (i, order) in [2, 0, 1].enumerated() {
            let kid = loader.appendObject(entity: 0, id: ObjectID(UInt64(i + 2)))
            loader.setAttribute(kid, index.order, .integer(Int64(order)))
            loader.setAttribute(kid, index.text, .string("order \(order)"))
            kids.append(kid)
        }
        loader.setRelated(root, children, kids)
        let document = try OutlineDocument(context: EditingContext(graph: try loader.finish()))
        #expect(Support.outline(document) == ["order 0", "order 1", "order 2"])
        #expect(!document.context.hasChanges)
    }

    @Test func aMillionLevelsDeepWithoutRecursion() throws {
        let depth = 1_000_000
        let document = try Support.chain(depth: depth)
        var deepest = document.root
        var visited = 0
        document.walk { item, _ in
            visited += 1
            deepest = item
            return true
        }
        #expect(visited == depth)
        #expect(document.path(of: deepest).count == depth)
        let top = document.children(of: document.root)[0]
        try document.deleteItem(top)
        #expect(document.itemCount == 1)
        document.context.undo()
        #expect(document.itemCount == depth + 1)
        try document.insertItem("leaf", under: deepest)
        #expect(document.path(of: document.children(of: deepest)[0]).count == depth + 1)
    }

    @Test func aMillionItemsEditedInPlace() throws {
        let document = try Support.wide(count: 1_000_000, fanOut: 20)
        #expect(document.itemCount == 1_000_001)
        let target = try document.item(at: ItemReference(parsing: "3.4.5"))
        try document.insertItem("new", under: target, at: 0)
        try document.moveItem(target, under: document.root, at: 0)
        try document.deleteItem(try document.item(at: ItemReference(parsing: "2")))
        Support.checkInvariants(document)
        document.context.undo()
        document.context.undo()
        document.context.undo()
        #expect(!document.context.hasChanges)
        Support.checkInvariants(document)
    }
}

@Suite struct OutlineDocumentVersionTests {
    @Test func version1DocumentsUseTitleAndRefuseNotes() throws {
        let v1 = try #require(try OutlineSchemas.version(named: "Outline"))
        let document = try OutlineDocument(context: EditingContext(schema: v1))
        let item = try document.insertItem("Groceries")
        #expect(document.text(of: item) == "Groceries")
        #expect(!document.supportsNotes && !document.supportsDone)
        let error = #expect(throws: OutlineError.self) { try document.setNote("x", of: item) }
        #expect(error?.description == "Outline: this schema version has no notes. Migrate the document to the current version first.")
    }

    @Test func aSchemaWithoutItemsIsNotAnOutline() throws {
        let schema = try Schema(name: "Other", entities: [Entity(name: "Thing")])
        let error = #expect(throws: OutlineError.self) { try OutlineDocument(context: EditingContext(schema: schema)) }
        #expect(error?.code == .notAnOutline)
    }
}

@Suite struct OutlineFindTests {
    @Test func findReturnsMatchesInDocumentOrder() throws {
        let document = try SampleOutlines.emptyDocument()
        let shop = try document.insertItem("Shopping")
        try document.insertItem("Oat milk", under: shop, done: true)
        try document.insertItem("Milk chocolate", under: shop)
        try document.insertItem("milkshake", at: 0)
        let found = try document.find("text CONTAINS[c] \"milk\" AND done == NO")
        #expect(found.map { document.text(of: $0) ?? "" } == ["milkshake", "Milk chocolate"])
        #expect(found.map(document.path(of:)) == [[1], [2, 2]])
        let error = #expect(throws: EngineError.self) { try document.find("txt == 'x'") }
        #expect(error?.location == "column 1 of the query")
    }
}
