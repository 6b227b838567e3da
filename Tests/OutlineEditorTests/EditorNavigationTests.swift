import OutlineEditor
import Testing

@Suite struct EditorNavigationTests {
    static let sample: [EditorHarness.Node] = [
        .node("Groceries", ["Milk", "Bread"]),
        .node("Work", collapsed: true, ["Report", "Mail"]),
        "Home",
    ]

    @Test func arrowsAndViKeysMoveThroughShownRows() throws {
        let h = try EditorHarness(Self.sample)
        #expect(h.rows == ["▾ Groceries", "  • Milk", "  • Bread", "▸ Work", "• Home"])
        #expect(h.cursorText == "Groceries")
        h.press(.down, .character("j"))
        #expect(h.cursorText == "Bread")
        h.press(.character("j"))
        #expect(h.cursorText == "Work", "the children of a collapsed item are skipped")
        h.press(.down, .down)
        #expect(h.cursorText == "Home", "the last row stays the cursor's")
        h.press(.up, .character("k"))
        #expect(h.cursorText == "Bread")
    }

    @Test func leftCollapsesThenGoesToTheParent() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("j"), .character("h"))
        #expect(h.cursorText == "Groceries", "a leaf goes to its parent")
        h.press(.left)
        #expect(h.document.isCollapsed(try h.item("Groceries")))
        #expect(h.rows.prefix(2) == ["▸ Groceries", "▸ Work"])
        #expect(h.document.context.undoActionName == "Collapse “Groceries”", "collapsing is the document's attribute, one undo step")
    }

    @Test func rightExpandsThenGoesToTheFirstChild() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("j"), .character("j"), .character("j"))
        #expect(h.cursorText == "Work")
        h.press(.character("l"))
        #expect(!h.document.isCollapsed(try h.item("Work")))
        #expect(h.rows.contains("  • Report"))
        h.press(.right)
        #expect(h.cursorText == "Report")
    }

    @Test func topBottomAndPages() throws {
        let nodes = (1 ... 40).map { EditorHarness.Node(text: "Item \($0)") }
        let h = try EditorHarness(nodes, height: 12)
        h.press(.character("G"))
        #expect(h.cursorText == "Item 40")
        #expect(h.rows.last == "• Item 40", "the last item is on the last outline row")
        h.press(.character("g"))
        #expect(h.cursorText == "Item 1")
        h.press(.end)
        #expect(h.cursorText == "Item 40")
        h.press(.home)
        #expect(h.cursorText == "Item 1")
        h.press(.pageDown)
        #expect(h.cursorText == "Item 10", "a page is the outline's height less one row")
        #expect(h.rows.contains("• Item 10"))
        h.press(.pageDown, .pageUp)
        #expect(h.cursorText == "Item 10")
        h.press(.pageUp)
        #expect(h.cursorText == "Item 1")
    }

    @Test func theScreenScrollsToKeepTheCursorVisible() throws {
        let nodes = (1 ... 30).map { EditorHarness.Node(text: "Item \($0)") }
        let h = try EditorHarness(nodes, height: 8)
        h.press(Array(repeating: .down, count: 12))
        #expect(h.cursorText == "Item 13")
        #expect(h.rows.count == 6)
        #expect(h.rows.last == "• Item 13")
        h.press(Array(repeating: .up, count: 8))
        #expect(h.rows.first == "• Item 5")
    }

    @Test func zoomShowsOnlyTheSubtreeAndBacksOut() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("z"))
        #expect(h.rows == ["• Milk", "• Bread"])
        #expect(h.statusLine.contains("Zoom: Groceries"))
        #expect(h.cursorText == "Milk")
        h.press(.character("G"), .character("j"))
        #expect(h.cursorText == "Bread", "the zoom bounds movement")
        h.press(.character("Z"))
        #expect(h.rows.count == 5)
        #expect(h.cursorText == "Groceries")
    }

    @Test func zoomIntoACollapsedItemShowsItsChildren() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("j"), .character("j"), .character("j"), .character("z"))
        #expect(h.rows == ["• Report", "• Mail"])
        #expect(h.document.isCollapsed(try h.item("Work")), "zooming changes nothing in the document")
    }

    @Test func resizeRedrawsAtTheNewSize() throws {
        let h = try EditorHarness(Self.sample, width: 60, height: 12)
        h.resize(width: 20, height: 5)
        #expect(h.screen.width == 20 && h.screen.height == 5)
        #expect(h.rows == ["▾ Groceries", "  • Milk", "  • Bread"])
        #expect(TextWidth.columns(of: h.statusLine) <= 20)
        h.resize(width: 80, height: 20)
        #expect(h.rows.count == 5)
    }
}
