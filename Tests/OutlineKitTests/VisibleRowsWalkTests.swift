import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// The rows read by item (the walk) and flattened only on demand: what the editor draws from.
@Suite struct VisibleRowsWalkTests {
    /// Every row by walking forward from ``VisibleRows/firstRow``.
    static func walkForward(_ visible: VisibleRows) -> [VisibleRow] {
        var rows: [VisibleRow] = []
        var current = visible.firstRow
        while let row = current {
            rows.append(row)
            current = visible.row(after: row)
        }
        return rows
    }

    /// Every row by walking back from ``VisibleRows/lastRow``, in document order.
    static func walkBackward(_ visible: VisibleRows) -> [VisibleRow] {
        var rows: [VisibleRow] = []
        var current = visible.lastRow
        while let row = current {
            rows.append(row)
            current = visible.row(before: row)
        }
        return rows.reversed()
    }

    /// The rows under `top` computed from scratch (the whole outline's when `top` is the root).
    static func flatten(_ document: OutlineDocument, under top: ManagedObject) -> [VisibleRow] {
        var rows: [VisibleRow] = []
        VisibleRows.appendDescendants(of: top, depth: 0, in: document, to: &rows)
        return rows
    }

    /// What is wrong with the walk of `visible` against a fresh flattening, nil when nothing.
    static func mismatch(_ visible: VisibleRows, expected: [VisibleRow]) -> String? {
        let forward = walkForward(visible)
        guard forward == expected else { return "walking forward gives \(forward.count) rows, not the \(expected.count) expected" }
        guard walkBackward(visible) == expected else { return "walking backward differs" }
        for row in expected {
            guard visible.row(of: row.item) == row else { return "row(of:) differs for \(row.item)" }
            guard visible.nearestRow(to: row.item) == row else { return "nearestRow(to:) differs for \(row.item)" }
            if let skipped = visible.row(after: row, skippingChildren: true) {
                guard skipped.depth <= row.depth else { return "skipping children lands deeper than \(row.item)" }
            }
        }
        return nil
    }

    @Test func makingTheRowsAndEditingFlattenNothingUntilReadByIndex() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        try document.insertItem("a1", under: a)
        let visible = VisibleRows(document: document)
        try document.insertItem("b")
        try document.setCollapsed(true, of: a)
        #expect(!visible.isMaterialized)
        #expect(visible.firstRow == VisibleRow(item: a, depth: 1, hasChildren: true, isCollapsed: true))
        #expect(Self.walkForward(visible).map { document.text(of: $0.item) } == ["a", "b"])
        #expect(!visible.isMaterialized, "walking does not flatten")
        #expect(visible.count == 2)
        #expect(visible.isMaterialized)
        // From then on the rows follow each step.
        try document.setCollapsed(false, of: a)
        #expect(visible.rows == VisibleRows.flatten(document))
    }

    @Test func aSubscriptionFlattensOnceAndItsBatchesFollowTheEditsAfterIt() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let visible = VisibleRows(document: document)
        try document.insertItem("a1", under: a)
        var shown: [VisibleRow] = []
        visible.onChange { $0.apply(to: &shown) }
        #expect(visible.isMaterialized)
        shown = visible.rows
        try document.insertItem("b")
        try document.indent(try #require(document.children(of: document.root).last))
        #expect(shown == VisibleRows.flatten(document))
    }

    @Test func hiddenItemsHaveNoRowButTheirOutermostCollapsedAncestorIsTheNearest() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let a1 = try document.insertItem("a1", under: a)
        let a11 = try document.insertItem("a11", under: a1)
        try document.setCollapsed(true, of: a1)
        try document.setCollapsed(true, of: a)
        let visible = VisibleRows(document: document)
        #expect(visible.row(of: a11) == nil)
        #expect(visible.row(of: document.root) == nil)
        #expect(visible.nearestRow(to: a11) == VisibleRow(item: a, depth: 1, hasChildren: true, isCollapsed: true))
        #expect(visible.depth(of: a11) == 3)
        #expect(visible.collapsedAncestors(of: a11) == [a, a1])
    }

    @Test func aZoomedViewShowsTheSubtreeOfItsTopEvenWhenTheTopIsCollapsed() throws {
        let document = try SampleOutlines.emptyDocument()
        let a = try document.insertItem("a")
        let a1 = try document.insertItem("a1", under: a)
        try document.insertItem("a11", under: a1)
        let b = try document.insertItem("b")
        try document.setCollapsed(true, of: a)
        let zoomed = VisibleRows(document: document, under: a)
        #expect(zoomed.topItem == a)
        #expect(Self.walkForward(zoomed).map { "\($0.depth) \(document.text(of: $0.item) ?? "")" } == ["1 a1", "2 a11"])
        #expect(zoomed.row(of: b) == nil)
        #expect(zoomed.rows.map(\.item) == Self.walkForward(zoomed).map(\.item))
        var shown = zoomed.rows
        zoomed.onChange { $0.apply(to: &shown) }
        try document.insertItem("a2", under: a)
        try document.insertItem("c")
        try document.setCollapsed(true, of: a1)
        #expect(shown == Self.flatten(document, under: a))
        #expect(shown == Self.walkForward(zoomed))
        try document.deleteItem(a)
        #expect(shown.isEmpty)
        #expect(zoomed.firstRow == nil)
    }

    /// Random edits (inserts, moves, deletes, collapses, undo, redo, groups): after each the
    /// walk, forward and backward, and `row(of:)` agree with a fresh flattening, for the whole
    /// outline and a zoomed view; rows materialized half-way keep agreeing too.
    @Test(arguments: 0 ..< 2)
    func theWalkAgreesWithAFreshFlatteningAfterRandomEdits(slice: Int) throws {
        for sequence in 0 ..< ObservationPropertyTests.sequences / 2 {
            let seed = UInt64(200_000 + slice * ObservationPropertyTests.sequences + sequence)
            guard try run(seed: seed) else { return }
        }
    }

    func run(seed: UInt64) throws -> Bool {
        var random = SeededRandom(seed: seed)
        let document = try SampleOutlines.emptyDocument()
        let editor = RandomOutlineEditor(document: document)
        try editor.grow(count: random.next(upTo: 25) + 3, random: &random)
        let visible = VisibleRows(document: document)
        let materializeAt = random.next(upTo: ObservationPropertyTests.steps)
        let top = editor.someItem(&random)
        let zoomed = VisibleRows(document: document, under: top)
        for step in 0 ..< ObservationPropertyTests.steps {
            let what = try editor.step(&random)
            if step == materializeAt { _ = visible.count }
            var problem = Self.mismatch(visible, expected: VisibleRows.flatten(document)).map { "outline: \($0)" }
            if problem == nil, visible.isMaterialized, visible.rows != VisibleRows.flatten(document) {
                problem = "the materialized rows differ"
            }
            if problem == nil {
                let expected = document.context.exists(top) ? Self.flatten(document, under: top) : []
                problem = Self.mismatch(zoomed, expected: expected).map { "zoom: \($0)" }
            }
            if let problem {
                Issue.record("seed \(seed), step \(step) (\(what)): \(problem)")
                return false
            }
        }
        return true
    }

    /// 10,000 levels by default; `OUTLINE_LARGE_ITEMS=1000000` runs a million.
    @Test func aDeepChainIsWalkedBothWaysWithoutFlattening() throws {
        let depth = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap { Int($0) } ?? 10_000
        let document = try SampleOutlines.chain(depth: depth)
        let visible = VisibleRows(document: document)
        let last = try #require(visible.lastRow)
        #expect(last.depth == depth)
        #expect(visible.row(after: last) == nil)
        #expect(visible.row(of: last.item) == last)
        let first = try #require(visible.firstRow)
        #expect(visible.row(after: first, skippingChildren: true) == nil)
        var previous = visible.row(before: last)
        var steps = 1
        while let row = previous, steps < 5 {
            #expect(row.depth == depth - steps)
            previous = visible.row(before: row)
            steps += 1
        }
        #expect(!visible.isMaterialized)
    }
}
