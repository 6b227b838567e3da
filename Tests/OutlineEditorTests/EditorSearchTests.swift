import OutlineEditor
import Testing

@Suite struct EditorSearchTests {
    static let sample: [EditorHarness.Node] = [
        .node("Groceries", collapsed: true, ["Oat milk", .node("Cheese", collapsed: true, ["Milk powder"])]),
        .node("Work", ["Report"]),
        .node("Milk the cows", done: true),
    ]

    @Test func searchRevealsCollapsedAncestorsAndNextAndPreviousWrap() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("/"))
        h.type("milk")
        #expect(h.messageLine == "/milk")
        h.press(.enter)
        #expect(h.cursorText == "Oat milk")
        #expect(!h.document.isCollapsed(try h.item("Groceries")), "the collapsed parent was expanded")
        #expect(h.messageLine == "Match 1 of 3 for “milk”")
        h.press(.character("n"))
        #expect(h.cursorText == "Milk powder")
        #expect(!h.document.isCollapsed(try h.item("Cheese")))
        #expect(h.rows.contains("    • Milk powder"))
        h.press(.character("n"))
        #expect(h.cursorText == "Milk the cows")
        h.press(.character("n"))
        #expect(h.cursorText == "Oat milk")
        #expect(h.messageLine.hasSuffix("(wrapped around)"))
        h.press(.character("N"))
        #expect(h.cursorText == "Milk the cows")
    }

    @Test func searchStartsAfterTheCursor() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("j"))
        #expect(h.cursorText == "Work")
        h.press(.character("/"))
        h.type("milk")
        h.press(.enter)
        #expect(h.cursorText == "Milk the cows")
    }

    @Test func aPredicateSearchesAsOutlineFindDoes() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("/"))
        h.type("done == YES")
        h.press(.enter)
        #expect(h.cursorText == "Milk the cows")
        #expect(h.messageLine == "Match 1 of 1 for “done == YES”")
        h.press(.character("/"))
        h.type("text ==")
        h.press(.enter)
        #expect(h.messageLine.hasPrefix("Search: "), "a broken predicate says why: \(h.messageLine)")
    }

    @Test func noMatchSaysSo() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("/"))
        h.type("bread")
        h.press(.enter)
        #expect(h.messageLine == "No match for “bread”.")
        #expect(h.cursorText == "Groceries")
    }

    @Test func revealingIsOneUndoStepNamedByTheLibrary() throws {
        let h = try EditorHarness(Self.sample)
        h.press(.character("/"))
        h.type("powder")
        h.press(.enter)
        #expect(h.document.context.undoActionName == "Expand “Groceries”")
        h.press(.character("u"))
        #expect(h.document.isCollapsed(try h.item("Groceries")))
        #expect(h.document.isCollapsed(try h.item("Cheese")))
        #expect(h.cursorText == "Groceries", "the cursor moves to the row that hides the match again")
    }
}
