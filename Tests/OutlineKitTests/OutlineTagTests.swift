import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Tags on items (Outline 3's `Tag` entity), copies of subtrees, folding many items, and OPML's
/// `category` attribute as tags.
@Suite struct OutlineTagTests {
    static func sample() throws -> (OutlineDocument, a: ManagedObject, b: ManagedObject) {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("A")
        let b = try document.insertItem("B", under: a)
        return (document, a, b)
    }

    @Test func tagsAreSharedCountedAndRemovedWhenUnused() throws {
        let (document, a, b) = try Self.sample()
        #expect(try document.addTags(["work", "home"], to: [a, b]) == 4)
        #expect(try document.addTags(["work"], to: [a]) == 0)
        #expect(document.tags(of: a) == ["work", "home"])
        #expect(document.tagCounts().map { "\($0.name)=\($0.count)" } == ["home=2", "work=2"])
        #expect(document.context.graph.count(ofEntity: try #require(document.shape.tags).entity) == 2)
        #expect(try document.removeTags(["home"], from: [a, b]) == 2)
        #expect(document.tagCounts().map(\.name) == ["work"])  // an unused tag is gone
        #expect(try document.removeTags(nil, from: [b]) == 1)
        #expect(document.tags(of: b).isEmpty)
        // Each call was one undo step.
        document.context.undo()
        document.context.undo()
        #expect(document.tags(of: b) == ["work", "home"])
        #expect(document.context.validationIssues().isEmpty)
    }

    @Test func removingItemsRemovesTheTagsNoOtherItemHas() throws {
        let (document, a, b) = try Self.sample()
        let c = try document.insertItem("C")
        try document.addTags(["solo"], to: [b])
        try document.addTags(["shared"], to: [b, c])
        let tagEntity = try #require(document.shape.tags).entity
        try document.deleteItem(a)  // and B below it
        #expect(document.tagCounts().map { "\($0.name)=\($0.count)" } == ["shared=1"])
        #expect(document.context.graph.count(ofEntity: tagEntity) == 1)
        // One step: undoing it brings back the items and the tag.
        document.context.undo()
        #expect(document.tags(of: b) == ["solo", "shared"])
        #expect(document.tagCounts().map { "\($0.name)=\($0.count)" } == ["shared=2", "solo=1"])
        #expect(document.context.validationIssues().isEmpty)
    }

    @Test(arguments: ["", " a", "a ", "a,b", "a\u{1B}b", "a\nb"])
    func namesThatCannotBeTagsAreRefused(name: String) throws {
        let (document, a, _) = try Self.sample()
        #expect(throws: OutlineError.self) { try document.addTags([name], to: [a]) }
        #expect(document.tagCounts().isEmpty)
    }

    @Test func olderVersionsHaveNoTags() throws {
        let schema = try #require(try OutlineSchemas.version(named: "Outline 2"))
        let document = try OutlineDocument(context: EditingContext(schema: schema))
        let item = try document.insertItem("A")
        let error = #expect(throws: OutlineError.self) { try document.addTags(["x"], to: [item]) }
        #expect(error?.code == .notInThisVersion)
    }

    @Test func copyingASubtreeKeepsEverythingAndIsOneStep() throws {
        let (document, a, b) = try Self.sample()
        try document.setNote("note", of: b)
        try document.setDone(true, of: b)
        try document.addTags(["t"], to: [b])
        try document.setCollapsed(true, of: a)
        let copy = try document.copyItem(a, under: b)
        #expect(SampleOutlines.outline(document) == ["A", "  B", "    A", "      B"])
        let copiedB = document.children(of: copy)[0]
        #expect(document.note(of: copiedB) == "note" && document.isDone(copiedB) && document.tags(of: copiedB) == ["t"])
        #expect(document.isCollapsed(copy))
        #expect(document.context.undoActionName == "Copy item “A”")
        SampleOutlines.checkInvariants(document)
        document.context.undo()
        #expect(SampleOutlines.outline(document) == ["A", "  B"])
        #expect(throws: OutlineError.self) { try document.copyItem(document.root, under: a) }
    }

    @Test func copyingADeepChainNeedsNoRecursion() throws {
        let document = try SampleOutlines.chain(depth: 50_000)
        let top = document.children(of: document.root)[0]
        let copy = try document.copyItem(top, under: document.root)
        #expect(document.descendantCount(of: copy) == 49_999)
    }

    @Test func foldingManyItemsIsOneStep() throws {
        let (document, a, b) = try Self.sample()
        #expect(try document.setCollapsed(true, of: [a, b]) == 2)
        #expect(document.context.undoActionName == "Collapse 2 items")
        #expect(try document.setCollapsed(true, of: [a, b]) == 0)
        document.context.undo()
        #expect(!document.isCollapsed(a) && !document.isCollapsed(b))
    }

    @Test func opmlCategoriesAreTagsBothWays() throws {
        let data = try InterchangeFixtures.opml("Categories.opml")
        let imported = try OPMLImporter.read(data, file: "Categories.opml")
        let items = imported.document.children(of: imported.document.root)
        #expect(items.map { imported.document.tags(of: $0) } == [["work"], ["home", "errands"], ["/Boston/Weather"], ["a", "b"], [], []])
        #expect(
            imported.warnings.map(\.description) == [
                "Categories.opml: line 12: category=\"bad\\tname\" holds a name that cannot be a tag; kept as it is."
            ])
        // Written back as it was read: each spelling, the empty category and the kept one included.
        let written = try OPMLReader.read(OPMLExporter.write(imported.document, head: imported.head).data, file: "out.opml")
        #expect(written.outlines.map { $0["category"] } == ["work", "home, errands", "/Boston/Weather", "a,a,,b", "", "bad\tname"])
        // Tags changed since are written in the canonical spelling; removing every tag drops the attribute.
        try imported.document.addTags(["later"], to: [items[1]])
        try imported.document.removeTags(nil, from: [items[0]])
        let changed = try OPMLReader.read(OPMLExporter.write(imported.document, head: imported.head).data, file: "out.opml")
        #expect(changed.outlines.map { $0["category"] } == [nil, "home,errands,later", "/Boston/Weather", "a,a,,b", "", "bad\tname"])
    }

    @Test func importingIntoAVersionWithoutTagsKeepsTheCategory() throws {
        let schema = try #require(try OutlineSchemas.version(named: "Outline 2"))
        let imported = try OPMLImporter.read(
            try InterchangeFixtures.opml("Categories.opml"), file: "Categories.opml",
            options: ImportOptions(schema: schema))
        #expect(imported.document.tagCounts().isEmpty)
    }
}
