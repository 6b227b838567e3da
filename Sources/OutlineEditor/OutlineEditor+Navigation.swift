import OutlineEngine
import OutlineKit

/// Moving the cursor, collapsing and expanding, zooming.
extension OutlineEditor {
    /// The screen rows the outline gets (all but the status and message lines).
    var outlineHeight: Int { max(screenHeight - 2, 1) }

    /// The most note lines shown beneath an item.
    static let maxNoteLines = 3

    /// The note lines shown beneath `item`.
    func noteLines(of item: ManagedObject) -> [Substring] {
        guard showsNotes, let note = document.note(of: item), !note.isEmpty else { return [] }
        return Array(
            note.split(separator: "\n", maxSplits: Self.maxNoteLines, omittingEmptySubsequences: false)
                .prefix(Self.maxNoteLines))
    }

    /// The screen lines `item` takes: its own and its note's.
    func lineCount(of item: ManagedObject) -> Int { 1 + noteLines(of: item).count }

    /// Moves the cursor `offset` rows down (up when negative), stopping at the first and last row.
    func moveCursor(by offset: Int) {
        let rows = self.rows
        guard let item = cursor, var row = rows.nearestRow(to: item) else {
            cursor = rows.firstRow?.item
            return
        }
        if offset > 0 {
            for _ in 0 ..< offset {
                guard let next = rows.row(after: row) else { break }
                cursorRow += lineCount(of: row.item)
                row = next
            }
        } else {
            for _ in 0 ..< -offset {
                guard let previous = rows.row(before: row) else { break }
                row = previous
                cursorRow -= lineCount(of: row.item)
            }
        }
        cursor = row.item
    }

    func goToFirst() {
        cursor = rows.firstRow?.item
        cursorRow = 0
    }

    func goToLast() {
        cursor = rows.lastRow?.item
        cursorRow = outlineHeight
    }

    /// `h`: collapses an expanded item with children, else goes to the parent.
    func collapseOrGoToParent() {
        guard let item = cursor else { return }
        if !document.children(of: item).isEmpty, !document.isCollapsed(item) {
            perform { try document.setCollapsed(true, of: item) }
        } else if let previous = parentRow(of: item) {
            moveCursor(toAncestor: previous)
        }
    }

    /// `l`: expands a collapsed item, else goes to its first child.
    func expandOrGoToFirstChild() {
        guard let item = cursor, let first = document.children(of: item).first else { return }
        if document.isCollapsed(item) {
            perform { try document.setCollapsed(false, of: item) }
        } else {
            cursor = first
            cursorRow += lineCount(of: item)
        }
    }

    /// The parent of `item` when it is a row (not the zoom root).
    private func parentRow(of item: ManagedObject) -> ManagedObject? {
        guard let parent = document.parent(of: item), parent != rows.topItem else { return nil }
        return parent
    }

    /// Moves the cursor up to `ancestor`, counting the rows passed so the screen scrolls little.
    private func moveCursor(toAncestor ancestor: ManagedObject) {
        guard let item = cursor else { return }
        let rows = self.rows
        var steps = 0
        var row = rows.nearestRow(to: item)
        while let current = row, current.item != ancestor, steps < outlineHeight, let previous = rows.row(before: current) {
            row = previous
            cursorRow -= lineCount(of: previous.item)
            steps += 1
        }
        if row?.item != ancestor { cursorRow = 0 }
        cursor = ancestor
    }

    /// `z`: shows only the cursor item's subtree.
    func zoomIn() {
        guard let item = cursor else { return }
        zoomPath.append(item)
        cursor = document.children(of: item).first
        cursorRow = 0
        show("Zoomed into “\(Self.shortText(document.text(of: item) ?? ""))”; Z goes back out.")
    }

    /// `Z`: back out of the innermost zoom, the cursor on the item zoomed into.
    func zoomOut() {
        guard let item = zoomPath.popLast() else { return show("Not zoomed in.") }
        cursor = (rows.nearestRow(to: item) ?? rows.firstRow)?.item
        cursorRow = outlineHeight / 3
    }

    func toggleNotes() {
        showsNotes.toggle()
        show(showsNotes ? "Notes shown." : "Notes hidden.")
    }

    /// After undo, redo or a reload: drops zooms into items no longer in the outline and puts
    /// the cursor on a row, preferring the item the last batch of changes brought back.
    func repairCursor() {
        let context = document.context
        while let top = zoomPath.last, !(context.exists(top) && isInOutline(top)) { zoomPath.removeLast() }
        let rows = self.rows
        if let item = cursor, context.exists(item), let row = rows.nearestRow(to: item) {
            cursor = row.item
            return
        }
        for change in lastChanges {
            guard case .inserted(let object) = change, context.exists(object) else { continue }
            if let row = rows.nearestRow(to: object) {
                cursor = row.item
                return
            }
        }
        for change in lastChanges {
            guard case .memberRemoved(let owner, _, _, let index) = change, context.exists(owner) else { continue }
            let siblings = document.children(of: owner)
            let candidate = siblings.isEmpty ? owner : siblings[min(index, siblings.count - 1)]
            if let row = rows.nearestRow(to: candidate) {
                cursor = row.item
                return
            }
        }
        cursor = rows.firstRow?.item
        cursorRow = 0
    }

    /// Whether `item` is under the document's root (O(depth); stops after as many steps as
    /// there are items, a damaged document's cycle of parents).
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

    /// The first line of `text`, at most 40 characters.
    static func shortText(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return line.count > 40 ? String(line.prefix(39)) + "…" : line
    }
}
