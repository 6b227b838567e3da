import OutlineEngine
import OutlineKit

/// The rows shown, from ``OutlineKit/VisibleRows``: the outline's rows, or those of the
/// innermost zoom. Rows are found by index, so moving and drawing cost what the screen shows.
extension OutlineEditor {
    /// The item whose subtree is shown: the innermost zoom, or the document's root.
    var zoomTop: ManagedObject { zoomPath.last ?? document.root }

    /// The first row.
    var firstRow: ManagedObject? { rows.count > 0 ? rows[0].item : nil }

    /// The last row.
    var lastRow: ManagedObject? { rows.count > 0 ? rows[rows.count - 1].item : nil }

    /// `item` when it is a row, else its nearest ancestor that is (the outermost collapsed
    /// one); nil when it is not under the zoom.
    ///
    /// - Complexity: O(depth); stops after as many steps as there are items (a damaged
    ///   document's cycle of parents).
    func nearestRow(to item: ManagedObject) -> ManagedObject? {
        var current = item
        var steps = 0
        let limit = document.itemCount
        while rows.index(of: current) == nil {
            guard current != zoomTop, let parent = document.parent(of: current), steps < limit else { return nil }
            current = parent
            steps += 1
        }
        return current
    }

    /// Whether `item` is under the document's root (O(depth)).
    func isInOutline(_ item: ManagedObject) -> Bool {
        var current = item
        var steps = 0
        let limit = document.itemCount
        while current != document.root {
            guard let parent = document.parent(of: current), steps < limit else { return false }
            current = parent
            steps += 1
        }
        return true
    }

    /// The rows of the outline, or of the innermost zoom, made again after a zoom or a reload.
    func makeRows() {
        if outlineRows.document !== document { outlineRows = VisibleRows(document: document) }
        if let top = zoomPath.last {
            if zoomRows?.top != top || zoomRows?.document !== document { zoomRows = VisibleRows(document: document, under: top) }
        } else {
            zoomRows = nil
        }
    }
}
