import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

@Suite struct VisibleRowsTests {
    /// Records every batch and checks, after each, that applying it gives a fresh flattening.
    final class Recorder {
        var batches: [VisibleRowsBatch] = []
        var rows: [VisibleRow]
        init(_ visible: VisibleRows) {
            rows = visible.rows
            visible.onChange { [unowned self] batch in
                batches.append(batch)
                batch.apply(to: &rows)
                #expect(rows == VisibleRows.flatten(visible.document))
                #expect(rows == visible.rows)
            }
        }
    }

    func texts(_ visible: VisibleRows) -> [String] {
        visible.rows.map { String(repeating: "  ", count: $0.depth - 1) + (visible.document.text(of: $0.item) ?? "") }
    }

    @Test func rowsSkipTheChildrenOfCollapsedItems() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        try document.insertItem("a1", under: a)
        let b = try document.insertItem("b")
        try document.insertItem("b1", under: b)
        try document.setCollapsed(true, of: b)
        let visible = VisibleRows(document: document)
        #expect(texts(visible) == ["a", "  a1", "b"])
        #expect(visible[2] == VisibleRow(item: b, depth: 1, hasChildren: true, isCollapsed: true))
        #expect(visible.index(of: b) == 2)
        #expect(visible.rows(in: 1 ..< 3).map(\.depth) == [2, 1])
    }

    @Test func expandingInsertsOnlyTheShownRowsAndUpdatesTheItem() throws {
        let document = try SampleOutlines.emptyDocument()
        let big = try document.insertItem("big")
        let children = try (0 ..< 300).map { try document.insertItem("c\($0)", under: big) }
        try document.insertItem("grandchild", under: children[5])
        try document.setCollapsed(true, of: children[5])
        try document.insertItem("after")
        try document.setCollapsed(true, of: big)
        let visible = VisibleRows(document: document)
        let recorder = Recorder(visible)
        #expect(visible.count == 2)
        try document.setCollapsed(false, of: big)
        let changes = try #require(recorder.batches.last).changes
        #expect(changes.count == 301)
        #expect(
            changes.last
                == .updated(VisibleRow(item: big, depth: 1, hasChildren: true, isCollapsed: false), at: 0, now: 0, changedKeys: ["collapsed"]))
        #expect(changes[5] == .inserted(VisibleRow(item: children[5], depth: 2, hasChildren: true, isCollapsed: true), at: 6))
        try document.setCollapsed(true, of: big)
        #expect(recorder.batches.last?.changes.count == 301)
        #expect(visible.count == 2)
    }

    @Test func indentAndOutdentMoveTheRowsWithTheirNewDepth() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let b = try document.insertItem("b")
        try document.insertItem("b1", under: b)
        let visible = VisibleRows(document: document)
        let recorder = Recorder(visible)
        try document.indent(b)
        #expect(texts(visible) == ["a", "  b", "    b1"])
        #expect(visible[0].hasChildren)
        #expect(
            recorder.batches.last?.changes.contains(
                .updated(VisibleRow(item: a, depth: 1, hasChildren: true, isCollapsed: false), at: 0, now: 0, changedKeys: [])) == true)
        try document.outdent(b)
        #expect(texts(visible) == ["a", "b", "  b1"])
        document.context.undo()
        #expect(texts(visible) == ["a", "  b", "    b1"])
        document.context.undo()
        document.context.redo()
        #expect(recorder.batches.map(\.reason) == [.edit, .edit, .undo, .undo, .redo])
    }

    @Test func editsUnderACollapsedItemShowNothingButItsFlag() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        try document.setCollapsed(true, of: a)
        let visible = VisibleRows(document: document)
        let recorder = Recorder(visible)
        try document.insertItem("hidden", under: a)
        #expect(
            recorder.batches.last?.changes == [
                .updated(VisibleRow(item: a, depth: 1, hasChildren: true, isCollapsed: true), at: 0, now: 0, changedKeys: [])
            ])
        try document.setText("renamed", of: a)
        #expect(recorder.batches.last?.changes == [.updated(visible[0], at: 0, now: 0, changedKeys: ["text"])])
    }

    @Test func pausedChangesArriveAsOneCatchUpBatch() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let visible = VisibleRows(document: document)
        let recorder = Recorder(visible)
        visible.pause()
        let b = try document.insertItem("b", under: a)
        try document.insertItem("c", under: b)
        try document.setCollapsed(true, of: b)
        try document.moveItem(b, under: document.root, at: 0)
        #expect(recorder.batches.isEmpty)
        visible.resume()
        #expect(recorder.batches.count == 1 && recorder.batches[0].isCatchUp)
        #expect(texts(visible) == ["b", "a"])
    }

    /// 10,000 levels by default; `OUTLINE_LARGE_ITEMS=1000000` runs a million.
    @Test func aDeepChainIsFlattenedAndEditedWithoutRecursion() throws {
        let depth = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap { Int($0) } ?? 10_000
        let document = try SampleOutlines.chain(depth: depth)
        let visible = VisibleRows(document: document)
        #expect(visible.count == depth)
        #expect(visible[depth - 1].depth == depth)
        var deepest = document.root
        while let child = document.children(of: deepest).first { deepest = child }
        var batches: [VisibleRowsBatch] = []
        visible.onChange { batches.append($0) }
        let leaf = try document.insertItem("leaf", under: deepest)
        #expect(batches.last?.changes.first == .inserted(VisibleRow(item: leaf, depth: depth + 1, hasChildren: false, isCollapsed: false), at: depth))
        let top = document.children(of: document.root)[0]
        try document.setCollapsed(true, of: top)
        #expect(visible.count == 1)
        try document.setCollapsed(false, of: top)
        #expect(visible.count == depth + 1)
    }
}
