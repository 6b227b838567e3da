import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Rows of one item's subtree (an outliner zoomed into it), following the document's changes.
@Suite struct VisibleRowsZoomTests {
    func texts(_ visible: VisibleRows) -> [String] {
        visible.rows.map { String(repeating: "  ", count: $0.depth - 1) + (visible.document.text(of: $0.item) ?? "") }
    }

    @Test func aSubtreesRowsStartAtItsChildrenEvenWhenItIsCollapsed() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let a1 = try document.insertItem("a1", under: a)
        try document.insertItem("a1x", under: a1)
        try document.insertItem("a2", under: a)
        try document.insertItem("b")
        try document.setCollapsed(true, of: a)
        let visible = VisibleRows(document: document, under: a)
        #expect(visible.top == a)
        #expect(texts(visible) == ["a1", "  a1x", "a2"])
        #expect(visible.index(of: a) == nil)
        #expect(VisibleRows(document: document).top == nil)
    }

    @Test func editsInsideTheSubtreeArriveAndEditsOutsideShowNothing() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let a1 = try document.insertItem("a1", under: a)
        let b = try document.insertItem("b")
        let visible = VisibleRows(document: document, under: a)
        var rows = visible.rows
        var batches = 0
        visible.onChange { batch in
            batches += 1
            batch.apply(to: &rows)
        }
        try document.insertItem("a0", under: a, at: 0)
        try document.insertItem("a1x", under: a1)
        #expect(texts(visible) == ["a0", "a1", "  a1x"])
        #expect(rows == visible.rows)
        let before = batches
        try document.insertItem("b1", under: b)
        try document.setCollapsed(true, of: a)
        #expect(batches == before, "edits outside the subtree and the top's own flag change no row")
        #expect(texts(visible) == ["a0", "a1", "  a1x"])
        try document.setCollapsed(true, of: a1)
        #expect(texts(visible) == ["a0", "a1"])
        try document.indent(b)
        #expect(texts(visible) == ["a0", "a1", "b", "  b1"], "an item moved into the subtree gets a row")
        try document.outdent(b)
        #expect(texts(visible) == ["a0", "a1"], "an item moved out of it loses its row")
        document.context.undo()
        #expect(texts(visible) == ["a0", "a1", "b", "  b1"])
        #expect(rows == visible.rows)
        #expect(rows == VisibleRows.flatten(document, under: a))
    }
}
