import OutlineEngine
import OutlineKit

/// Edits: each goes through ``OutlineKit/OutlineDocument`` and is one undo step named by it.
extension OutlineEditor {
    /// `o` / `O`: starts typing a new item below (as the first child of an expanded item
    /// with children, else the next sibling) or above the cursor; it is inserted when typing
    /// ends, unless nothing was typed.
    func beginNewItem(above: Bool) {
        guard allowsEditing() else { return }
        let target: EditSession.Target
        if let item = cursor, let parent = document.parent(of: item) {
            if above {
                target = .new(parent: parent, position: document.position(of: item), anchor: item, above: true)
            } else if rows.showsChildren(of: item), !document.children(of: item).isEmpty {
                target = .new(parent: item, position: 0, anchor: item, above: false)
            } else {
                target = .new(parent: parent, position: document.position(of: item) + 1, anchor: item, above: false)
            }
        } else {
            let top = rows.topItem
            target = .new(parent: top, position: document.children(of: top).count, anchor: nil, above: false)
        }
        mode = .editing(EditSession(target: target, line: LineEditor(), original: ""))
    }

    /// Enter: starts typing the cursor item's text (a new item when the view is empty).
    func beginEditingCursor() {
        guard allowsEditing() else { return }
        guard let item = cursor else { return beginNewItem(above: false) }
        let text = document.text(of: item) ?? ""
        mode = .editing(EditSession(target: .existing(item), line: LineEditor(text), original: text))
    }

    /// Ends typing: inserts the new item or sets the text (one undo step), or does nothing when
    /// nothing changed. Returns the item typed, nil when there is none (an empty new item).
    func commitEdit() -> ManagedObject? {
        guard case .editing(let session) = mode else { return nil }
        mode = .browsing
        let text = session.line.text
        switch session.target {
        case .existing(let item):
            guard text != session.original else { return item }
            return perform { try document.setText(text, of: item) } ? item : nil
        case .new(let parent, let position, let anchor, let above):
            guard !text.isEmpty else { return nil }
            var made: ManagedObject?
            perform { made = try document.insertItem(text, under: parent, at: position) }
            guard let made else { return nil }
            if let anchor, !above { cursorRow += lineCount(of: anchor) }
            cursor = made
            return made
        }
    }

    /// Tab / `>`: makes the item the last child of its previous sibling, expanding that
    /// sibling if it was collapsed (in the same undo step).
    func indentCursor() {
        guard allowsEditing(), let item = cursor else { return }
        perform {
            try document.context.perform(nil) {
                try document.indent(item)
                if let parent = document.parent(of: item), document.isCollapsed(parent) {
                    try document.setCollapsed(false, of: parent)
                }
            }
        }
    }

    /// Shift-Tab / `<`: makes the item the next sibling of its parent (not out of a zoom).
    func outdentCursor() {
        guard allowsEditing(), let item = cursor else { return }
        if document.parent(of: item) == rows.topItem {
            return show(
                zoomPath.isEmpty ? "A top-level item cannot be outdented." : "The item is at the top of the zoom; Z backs out.", isError: true)
        }
        perform { try document.outdent(item) }
    }

    /// `J` / `K`: swaps the item with its next or previous sibling.
    func moveCursorItem(down: Bool) {
        guard allowsEditing(), let item = cursor else { return }
        let moved = perform { try down ? document.moveDown(item) : document.moveUp(item) }
        guard moved else { return }
        cursorRow += down ? 1 : -1
    }

    /// `x`: marks the item done or not done.
    func toggleDone() {
        guard allowsEditing(), let item = cursor else { return }
        perform { try document.setDone(!document.isDone(item), of: item) }
    }

    /// `dd`: deletes the item and its subtree; the cursor goes to the next row (or the previous).
    func deleteCursorItem() {
        guard allowsEditing(), let item = cursor else { return }
        let rows = self.rows
        let row = rows.nearestRow(to: item)
        let next = row.flatMap { rows.row(after: $0, skippingChildren: true) }?.item
        let previous = row.flatMap { rows.row(before: $0) }?.item
        guard perform({ try document.deleteItem(item) }) else { return }
        if let next {
            cursor = next
        } else {
            cursor = previous
            if let previous { cursorRow -= lineCount(of: previous) }
        }
    }

    /// `u`: undoes the last step, naming it (refused in a read-only session, as other edits are).
    func undo() {
        guard allowsEditing() else { return }
        let context = document.context
        guard let name = context.undoActionName ?? (context.canUndo ? "the last change" : nil) else {
            let older = olderUndoSteps()
            guard older > 0 else { return show("Nothing to undo.") }
            return show("Nothing more to undo here: \(older) older \(older == 1 ? "step is" : "steps are") kept in the file for `outline undo`.")
        }
        context.undo()
        moveCursorToRestoredItem()
        repairCursor()
        show("Undid “\(name)”")
    }

    /// Ctrl-R: redoes the last undone step, naming it (refused in a read-only session).
    func redo() {
        guard allowsEditing() else { return }
        let context = document.context
        guard let name = context.redoActionName ?? (context.canRedo ? "the last change" : nil) else {
            return show("Nothing to redo.")
        }
        context.redo()
        moveCursorToRestoredItem()
        repairCursor()
        show("Redid “\(name)”")
    }

    /// The most items one paste adds; the lines after them are left out (and the message
    /// says how many).
    static let pasteItemLimit = 1_000

    /// A paste while not typing: each non-blank line of `text` becomes a new item after the
    /// cursor item (its next siblings, in order), all in one undo step; the cursor goes to
    /// the last. Pasted text is never taken as commands. `leftOut` counts characters the
    /// terminal layer dropped past ``PasteBuffer/limit``.
    func pasteItems(_ text: String, leftOut: Int) {
        guard allowsEditing() else { return }
        let lines = PasteBuffer.lines(of: text).filter { !$0.allSatisfy(\.isWhitespace) }
        guard !lines.isEmpty else { return show("Nothing pasted: the text has no lines.") }
        let kept = lines.prefix(Self.pasteItemLimit)
        let parent: ManagedObject
        let position: Int
        if let item = cursor, let itemParent = document.parent(of: item) {
            parent = itemParent
            position = document.position(of: item) + 1
        } else {
            parent = rows.topItem
            position = document.children(of: parent).count
        }
        var last: ManagedObject?
        let name = kept.count == 1 ? nil : "Paste \(kept.count) items"
        let pasted = perform {
            try document.context.perform(name) {
                for (offset, line) in kept.enumerated() {
                    last = try document.insertItem(line, under: parent, at: position + offset)
                }
            }
        }
        guard pasted, let last else { return }
        if let item = cursor { cursorRow += lineCount(of: item) }
        cursor = last
        var message = kept.count == 1 ? "Pasted 1 item." : "Pasted \(Self.grouped(kept.count)) items."
        if lines.count > kept.count {
            let limit = Self.grouped(Self.pasteItemLimit)
            message += " \(Self.grouped(lines.count - kept.count)) more lines were left out (at most \(limit) items a paste)."
        }
        if leftOut > 0 { message += " " + Self.pasteCutMessage(leftOut) }
        show(message, isError: lines.count > kept.count || leftOut > 0)
    }

    /// Says that a paste was cut at ``PasteBuffer/limit`` and `leftOut` characters dropped.
    static func pasteCutMessage(_ leftOut: Int) -> String {
        "The paste was cut at \(grouped(PasteBuffer.limit)) characters; \(grouped(leftOut)) more were left out."
    }

    /// After undo or redo: when the step brought items back, the cursor goes to the topmost.
    private func moveCursorToRestoredItem() {
        let context = document.context
        var restored = Set<ManagedObject>()
        for change in lastChanges {
            if case .inserted(let object) = change, context.exists(object) { restored.insert(object) }
        }
        guard !restored.isEmpty else { return }
        for change in lastChanges {
            guard case .inserted(let object) = change, restored.contains(object) else { continue }
            if let parent = document.parent(of: object), restored.contains(parent) { continue }
            if let row = rows.nearestRow(to: object) {
                cursor = row.item
                return
            }
        }
    }
}
