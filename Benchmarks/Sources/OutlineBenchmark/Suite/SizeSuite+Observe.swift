import Foundation
import OutlineEngine
import OutlineKit
import OutlineTool

/// `observe.one-edit` and `observe.expand`: results that follow the document (issue 14).
extension SizeSuite {
    /// The rows of the observed list: 100,000 at 1,000,000 items (a tenth of the document).
    static func observedRows(items: Int) -> Int { max(10, min(100_000, items / 10)) }
    /// The children of the item expanded by `observe.expand`: 10,000 (fewer for small runs).
    static func expandedChildren(items: Int) -> Int { max(10, min(10_000, items / 10)) }

    /// Opens the document, adds a list of ``observedRows(items:)`` items and an item with
    /// ``expandedChildren(items:)`` children (collapsed), and measures:
    /// - `observe.one-edit`: one text edit of a row of a controller over the list sorted by
    ///   text (the row moves), from the edit to the delivered batch; the peer makes the same
    ///   edit, fetches the list again and diffs it with `CollectionDifference` (moves inferred).
    /// - `observe.expand`: expanding the item in the document's visible rows, from the edit to
    ///   the delivered batch (collapsing it again between runs is not timed).
    func measureObserve(_ paths: Paths, into samples: inout [String: Sample]) throws {
        let file = try OutlineFile.open(paths.binary)
        let document = file.document
        let context = document.context
        let rowCount = Self.observedRows(items: items)
        let childCount = Self.expandedChildren(items: items)
        var random = SplitMix64(seed: seed ^ 0x0B5E_97E5)
        func word() -> String { "row \(random.next() % 1_000_000_007)" }
        var list = document.root
        var big = document.root
        try context.perform("Benchmark lists") {
            list = try document.insertItem("Observed list")
            for _ in 0 ..< rowCount { try document.insertItem(word(), under: list) }
            big = try document.insertItem("Big item")
            for index in 0 ..< childCount { try document.insertItem("child \(index)", under: big) }
            try document.setCollapsed(true, of: big)
        }
        var request = try FetchRequest(entityName: "Item", format: "parent == %@", .object(list))
        request.sortDescriptors = [FetchSortDescriptor("text")]
        let rows = document.children(of: list)

        let controller = try ResultsController(context: context, request: request)
        guard controller.count == rowCount else { throw BenchmarkError("the controller has \(controller.count) rows, not \(rowCount)") }
        var delivered = 0
        controller.onChange { delivered += $0.changes.count }
        samples["observe.one-edit"] = try measurer.measure("observe.one-edit (\(rowCount.formatted()) rows)") {
            try document.setText(word(), of: rows[Int(random.next() % UInt64(rows.count))])
        }
        guard delivered > 0 else { throw BenchmarkError("observe.one-edit delivered no change") }

        var previous = try context.fetch(request)
        samples["peer.observe-refetch-diff"] = try measurer.measure("peer: re-fetch + CollectionDifference") {
            try document.setText(word(), of: rows[Int(random.next() % UInt64(rows.count))])
            let fetched = try context.fetch(request)
            let difference = fetched.difference(from: previous).inferringMoves()
            guard !difference.isEmpty else { throw BenchmarkError("the peer found no difference") }
            previous = fetched
        }
        guard controller.fetchedObjects == previous else { throw BenchmarkError("the controller's rows differ from a fetch") }

        let visible = VisibleRows(document: document)
        var shown = 0
        visible.onChange { shown += $0.changes.count }
        samples["observe.expand"] = try measurer.measure(
            "observe.expand (\(childCount.formatted()) children)",
            prepare: {
                try document.setCollapsed(true, of: big)
                shown = 0
            },
            run: {
                try document.setCollapsed(false, of: big)
            })
        guard shown == childCount + 1 else { throw BenchmarkError("expanding showed \(shown) changes, not \(childCount + 1)") }
    }
}
