import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Items not under the root (issue 21: a second root or a cycle of parents was silently left out
/// of `show`, `find` and every export, which then succeeded).
@Suite struct DetachedItemsTests {
    /// Root -> A, B; C with no parent (a second root) holding D; E and F each other's parent.
    static func detached() throws -> OutlineDocument {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("A")
        try document.insertItem("B")
        let c = try document.insertItem("C")
        try document.insertItem("D", under: c)
        let e = try document.insertItem("E")
        let f = try document.insertItem("F", under: e)
        let context = document.context
        try context.setObject(nil, forKey: "parent", of: c)
        try context.setObject(f, forKey: "parent", of: e)
        #expect(document.parent(of: f) == e && document.parent(of: e) == f)
        return try OutlineDocument(context: context)
    }

    @Test func detachedItemsAreCountedWithWhereEachPartStarts() throws {
        let document = try Self.detached()
        let (count, heads) = document.detachedItems()
        #expect(count == 4)
        #expect(heads.compactMap { document.text(of: $0) } == ["C", "E"])
    }

    @Test func everyWholeOutlineViewAndExportRefusesToLeaveThemOut() throws {
        let document = try Self.detached()
        for format in InterchangeFormat.allCases {
            let error = #expect(throws: OutlineError.self) { try Interchange.write(document, format: format) }
            #expect(error?.code == .invalidDocument)
            #expect(
                error?.message.hasPrefix("4 of the 7 items are not under the root (#105 has no parent, #107 is in a cycle of parents)") == true,
                "\(String(describing: error))")
        }
        #expect(throws: OutlineError.self) { try document.find("text != nil") }
        #expect(throws: OutlineError.self) { try OPMLExporter.write(document) }
        let error = #expect(throws: OutlineError.self) { try document.requireEveryItemUnderRoot() }
        #expect(
            error?.description
                == "4 of the 7 items are not under the root (#105 has no parent, #107 is in a cycle of parents); the whole outline cannot be shown or exported without leaving them out. Move each of those items under the root by its id, or restore the document from a backup; validating the document lists every problem."
        )
    }

    @Test func aDocumentWithEveryItemUnderTheRootPasses() throws {
        let document = try SampleOutlines.emptyDocument()
        try document.insertItem("B.1", under: try document.insertItem("B"))
        #expect(document.detachedItems().count == 0)
        try document.requireEveryItemUnderRoot()
    }

    @Test func thePathOfAnItemInACycleEnds() throws {
        let document = try Self.detached()
        let e = try #require(document.context.graph.object(with: ObjectID(107)))
        #expect(document.path(of: e).count <= document.itemCount)
    }
}
