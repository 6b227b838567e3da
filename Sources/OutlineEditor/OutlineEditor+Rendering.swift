import OutlineEngine
import OutlineKit

/// Drawing the editor into a ``ScreenBuffer``: the outline rows around the cursor, the status
/// line, the message line and the help overlay. Only the rows on the screen are visited, walked
/// by item through ``OutlineKit/VisibleRows``.
extension OutlineEditor {
    /// Draws the whole screen into `screen` at its size (resize it first when the terminal did).
    public func render(into screen: inout ScreenBuffer) {
        screen.clear(width: screen.width, height: screen.height)
        screenWidth = screen.width
        screenHeight = screen.height
        guard screen.height >= 3, screen.width >= 6 else {
            // No room for one outline row with a line to type in: say so instead of taking
            // keys blind.
            let text = "Window too small: make it at least 6 columns wide and 3 rows tall."
            screen.write(Self.fitted(text, width: screen.width), row: 0, column: 0, style: .reverse)
            if screen.height >= 2 { renderMessageLine(&screen, row: screen.height - 1) }
            screen.cursor = nil
            return
        }
        renderOutline(&screen)
        renderStatusLine(&screen, row: max(screen.height - 2, 0))
        if screen.height >= 2 { renderMessageLine(&screen, row: screen.height - 1) }
        if case .help = mode { renderHelp(&screen) }
    }

    /// A new item being typed: where it is drawn.
    private struct Phantom {
        var anchor: ManagedObject?
        var above: Bool
        var asChild: Bool
    }

    private func renderOutline(_ screen: inout ScreenBuffer) {
        let height = outlineHeight
        var phantom: Phantom?
        if case .editing(let session) = mode, case .new(let parent, _, let anchor, let above) = session.target {
            phantom = Phantom(anchor: anchor, above: above, asChild: anchor == parent)
        }
        if phantom == nil { keepCursorOnARow() }
        let rows = self.rows
        guard let focusItem = phantom.map({ $0.anchor }) ?? cursor, let focus = rows.nearestRow(to: focusItem) else {
            if phantom != nil {
                drawPhantom(&screen, row: 0, depth: 1)
            } else {
                screen.write(
                    zoomPath.isEmpty ? "(no items yet: o adds one)" : "(no items here: o adds one, Z backs out)",
                    row: 0, column: 2, style: .dim)
            }
            return
        }
        // Put the focus on the row asked for, as near as the rows above it allow.
        let span = lineCount(of: focus.item) + (phantom == nil ? 0 : 1)
        let desired = min(max(cursorRow, 0), max(height - span, 0))
        var top = focus
        var used = 0
        while used < desired, let previous = rows.row(before: top) {
            let lines = lineCount(of: previous.item)
            if used + lines > desired { break }
            top = previous
            used += lines
        }
        // Near the end of the outline, fill the screen from above rather than leave rows empty.
        var below = span
        var after = rows.row(after: focus)
        while used + below < height, let row = after {
            below += lineCount(of: row.item)
            after = rows.row(after: row)
        }
        while used + below < height, let previous = rows.row(before: top) {
            let lines = lineCount(of: previous.item)
            if used + lines + below > height { break }
            top = previous
            used += lines
        }
        cursorRow = used
        var row = 0
        var current: VisibleRow? = top
        while row < height, let shown = current {
            let item = shown.item
            if let phantom, phantom.anchor == item, phantom.above {
                drawPhantom(&screen, row: row, depth: shown.depth)
                row += 1
                if row >= height { break }
            }
            if let phantom, phantom.anchor == item, !phantom.above {
                // The new item is drawn below its anchor whatever the height: when only one row
                // is left, it takes the row (the line being typed is always on screen), and the
                // anchor's note lines leave it room.
                if row + 1 < height { row = drawItem(shown, row: row, into: &screen, limit: height - 1) }
            } else {
                row = drawItem(shown, row: row, into: &screen, limit: height)
            }
            if let phantom, phantom.anchor == item, !phantom.above, row < height {
                drawPhantom(&screen, row: row, depth: phantom.asChild ? shown.depth + 1 : shown.depth)
                row += 1
            }
            current = rows.row(after: shown)
        }
    }

    /// Moves a cursor that undo, a reload or a collapse left off the rows onto one.
    private func keepCursorOnARow() {
        if let item = cursor, document.context.exists(item), let row = rows.nearestRow(to: item) {
            cursor = row.item
        } else if cursor != nil || rows.firstRow != nil {
            repairCursor()
        }
    }

    /// The indentation of rows at `depth`, at most half the screen.
    private func indent(_ depth: Int) -> Int {
        // Never so deep that less than 2 columns are left for the text (and its cursor).
        min(2 * max(depth - 1, 0), screenWidth / 2, max(screenWidth - 4, 0))
    }

    /// Draws the row `shown` (and its note lines) from `row`; returns the screen row after them.
    private func drawItem(_ shown: VisibleRow, row: Int, into screen: inout ScreenBuffer, limit: Int) -> Int {
        let item = shown.item
        let x = indent(shown.depth)
        let isCursor = item == cursor
        let marker = shown.hasChildren ? (shown.isCollapsed ? "▸" : "▾") : "•"
        screen.write(marker, row: row, column: x, style: options.usesColor ? .markerColor : [])
        var style: CellStyle = []
        if document.isDone(item) { style.formUnion([.dim, .strike]) }
        if let search, search.matchSet.contains(item) { style.formUnion(options.usesColor ? .matchColor : .underline) }
        let textColumn = x + 2
        if case .editing(var session) = mode, session.target == .existing(item) {
            let (shown, column) = session.line.visible(width: screenWidth - textColumn)
            mode = .editing(session)
            screen.write(shown, row: row, column: textColumn, style: .underline)
            screen.cursor = (row, textColumn + column)
        } else {
            let text = Self.firstLine(document.text(of: item) ?? "")
            screen.write(Self.fitted(text, width: screenWidth - textColumn), row: row, column: textColumn, style: style)
            if isCursor {
                screen.addStyle(.reverse, row: row, from: x)
                screen.cursor = (row, x)
            }
        }
        var next = row + 1
        for line in noteLines(of: item) where next < limit {
            screen.write(Self.fitted(Self.firstLine(String(line)), width: screenWidth - textColumn), row: next, column: textColumn, style: .dim)
            next += 1
        }
        return next
    }

    private func drawPhantom(_ screen: inout ScreenBuffer, row: Int, depth: Int) {
        guard case .editing(var session) = mode else { return }
        let x = indent(depth)
        screen.write("•", row: row, column: x, style: options.usesColor ? .markerColor : [])
        let (shown, column) = session.line.visible(width: screenWidth - x - 2)
        mode = .editing(session)
        screen.write(shown, row: row, column: x + 2, style: .underline)
        screen.cursor = (row, x + 2 + column)
    }

    private func renderStatusLine(_ screen: inout ScreenBuffer, row: Int) {
        var left = " \(options.fileName) · \(options.formatName) · \(Self.grouped(max(document.itemCount - 1, 0))) items · "
        left += options.isReadOnly ? "Read-only" : shownSaveStatus.label
        if let zoom = zoomPath.last { left += " · Zoom: \(Self.shortText(document.text(of: zoom) ?? ""))" }
        let right = document.context.undoActionName.map { "Undo: \($0) " } ?? ""
        let end = screen.write(Self.fitted(left, width: screen.width), row: row, column: 0)
        if !right.isEmpty, end + 2 < screen.width {
            let room = screen.width - end - 2
            let shown = Self.fitted(right, width: room)
            screen.write(shown, row: row, column: screen.width - TextWidth.columns(of: shown))
        }
        screen.addStyle(.reverse, row: row)
    }

    private func renderMessageLine(_ screen: inout ScreenBuffer, row: Int) {
        switch mode {
        case .searching(var line):
            screen.write("/", row: row, column: 0)
            let (shown, column) = line.visible(width: screen.width - 1)
            mode = .searching(line)
            screen.write(shown, row: row, column: 1)
            screen.cursor = (row, 1 + column)
            return
        case .askingAboutExternalChange:
            let question = "Another program changed the file. Take its version (y) or keep your edits (n)?"
            screen.write(Self.fitted(question, width: screen.width), row: row, column: 0, style: options.usesColor ? [.bold, .errorColor] : .bold)
            return
        default:
            break
        }
        if let message {
            let style: CellStyle = messageIsError ? (options.usesColor ? [.bold, .errorColor] : .bold) : []
            screen.write(Self.fitted(message, width: screen.width), row: row, column: 0, style: style)
        } else if isEditingText {
            screen.write(
                Self.fitted("Enter: next item · Esc: done · Tab / Shift-Tab: indent / outdent", width: screen.width),
                row: row, column: 0, style: .dim)
        } else {
            let hints = options.isReadOnly ? "? help · q quit" : "? help · q save and quit"
            screen.write(Self.fitted(hints, width: screen.width), row: row, column: 0, style: .dim)
        }
    }

    private func renderHelp(_ screen: inout ScreenBuffer) {
        let lines = shownHelpLines
        let width = min(screen.width, (lines.map { TextWidth.columns(of: $0) }.max() ?? 0) + 4)
        let left = (screen.width - width) / 2
        let shown = min(lines.count, max(screen.height - 4, 0))
        let topRow = max((screen.height - 1 - (shown + 2)) / 2, 0)
        let title = " Keys (any key closes this) "
        for index in 0 ..< shown + 2 {
            let row = topRow + index
            guard row < screen.height - 1 else { break }
            let text = index == 0 ? title : index <= shown ? "  " + lines[index - 1] : ""
            let padded = text + String(repeating: " ", count: max(width - TextWidth.columns(of: text), 0))
            screen.write(Self.fitted(padded, width: width), row: row, column: left, style: .reverse)
        }
        screen.cursor = nil
    }

    /// `text` cut to `width` columns with `…` at the end, never splitting a character.
    public static func fitted(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.columns(of: text) <= width { return text }
        var shown = ""
        var used = 0
        for character in text {
            let columns = TextWidth.columns(of: character)
            if used + columns > width - 1 { break }
            shown.append(character)
            used += columns
        }
        return shown + "…"
    }

    static func firstLine(_ text: String) -> String {
        guard let end = text.firstIndex(where: \.isNewline) else { return text }
        return String(text[..<end]) + " …"
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
