import OutlineEditor
import Testing

@Suite struct EditorRenderingTests {
    @Test func theStatusLineNamesFileFormatCountSaveStateAndLastStep() throws {
        let h = try EditorHarness(["Milk", "Eggs"], width: 90)
        #expect(h.statusLine.hasPrefix(" test.outline · binary · 2 items · Saved"))
        h.press(.character("x"))
        #expect(h.statusLine.contains("Not saved"))
        #expect(h.statusLine.hasSuffix("Undo: Mark “Milk” done"))
        h.editor.saveStatus = { .saving }
        h.press(.resize)
        #expect(h.statusLine.contains("Saving…"))
        h.editor.saveStatus = { .failed("the disk is full") }
        h.press(.resize)
        #expect(h.statusLine.contains("Not saved: the disk is full"))
        #expect(h.screen[h.screen.height - 2, 0].style.contains(.reverse))
    }

    @Test func notesShowBeneathTheirItemAndToggle() throws {
        let h = try EditorHarness([.node("Milk", note: "Oat, not soy.\nTwo cartons."), "Eggs"])
        #expect(h.rows == ["• Milk", "  Oat, not soy.", "  Two cartons.", "• Eggs"])
        #expect(h.screen[1, 2].style.contains(.dim))
        h.press(.character("j"))
        #expect(h.cursorText == "Eggs")
        h.press(.character("v"))
        #expect(h.rows == ["• Milk", "• Eggs"])
        h.press(.character("v"))
        #expect(h.rows.count == 4)
    }

    @Test func noColorUsesNoColourStyles() throws {
        let nodes: [EditorHarness.Node] = [.node("A", ["milk"]), .node("B", done: true)]
        for color in [true, false] {
            let h = try EditorHarness(nodes, color: color)
            h.press(.character("/"))
            h.type("milk")
            h.press(.enter)
            let styles = h.screen.cells.reduce(CellStyle()) { $0.union($1.style) }
            #expect(styles.isDisjoint(with: .colors) == !color)
            #expect(h.screen[1, 4].style.contains(color ? .matchColor : .underline), "matches stand out either way")
        }
        #expect(EditorOptions.colorAllowed(environment: ["NO_COLOR": "1"]) == false)
        #expect(EditorOptions.colorAllowed(environment: ["NO_COLOR": ""]) == true)
        #expect(EditorOptions.colorAllowed(environment: [:]) == true)
    }

    @Test func helpListsTheKeysAndAnyKeyClosesIt() throws {
        let h = try EditorHarness(["A"], width: 70, height: 30)
        h.press(.character("?"))
        #expect(h.editor.isShowingHelp)
        let text = h.screen.lines.joined(separator: "\n")
        for key in ["dd", "u / Ctrl-R", "z / Z", "Ctrl-S", "Tab", "J / K", "PgUp"] {
            #expect(text.contains(key), "help names \(key)")
        }
        h.press(.character("j"))
        #expect(!h.editor.isShowingHelp)
        #expect(h.cursorText == "A", "the key that closes help does nothing else")
    }

    @Test func theCursorRowIsReversedAndLongTextIsCutWhole() throws {
        let h = try EditorHarness(["漢字漢字漢字漢字漢字漢字", "B"], width: 12)
        #expect(h.rows[0] == "• 漢字漢字…")
        #expect(h.screen[0, 3].style.contains(.reverse))
        #expect(!h.screen[1, 3].style.contains(.reverse))
    }

    @Test func aDeepItemIsIndentedAtMostHalfTheScreen() throws {
        var node = EditorHarness.Node(text: "leaf")
        for level in (1 ... 50).reversed() { node = .node("level \(level)", [node]) }
        let h = try EditorHarness([node], width: 40)
        h.press(.character("G"))
        #expect(h.cursorText == "leaf")
        let row = try #require(h.rows.last)
        #expect(row.hasPrefix(String(repeating: " ", count: 20) + "• leaf"))
    }

    @Test func theScreenIsDrawnFromTheVisibleRowsWithoutFlatteningThem() throws {
        let items = (1 ... 200).map { EditorHarness.Node(text: "Item \($0)", children: [.init(text: "child of \($0)")]) }
        let h = try EditorHarness(items, height: 8)
        h.press(.character("j"), .character("h"), .pageDown, .character("o"))
        h.type("new")
        h.press(.escape, .tab, .character("z"), .character("Z"), .character("G"), .character("u"), .character("g"))
        #expect(h.rows.first == "▾ Item 1")
        #expect(h.rows.count == 6)
        #expect(!h.editor.rows.isMaterialized, "the editor walks the rows on the screen, by item")
    }

    @Test func anotherProgramsChangeIsAskedAbout() throws {
        let h = try EditorHarness(["A"])
        h.press(.enter)
        h.type("B")
        h.editor.askAboutExternalChange()
        h.press(.resize)
        #expect(h.editor.isEditingText, "typing goes on until the line ends")
        h.press(.escape)
        #expect(h.outline == ["AB"], "what was being typed is kept")
        #expect(h.messageLine.hasPrefix("Another program changed the file."))
        #expect(h.press(.character("x")) == .none)
        #expect(h.press(.character("n")) == .reloadExternalChange(false))
        h.editor.askAboutExternalChange()
        #expect(h.press(.character("y")) == .reloadExternalChange(true))
    }

    @Test func theLineBeingTypedIsOnScreenAtTheSmallestHeight() throws {
        let h = try EditorHarness([.node("First", note: "A note"), "Second"], width: 30, height: 3)
        h.press(.character("g"), .character("o"))
        h.type("New")
        #expect(h.rows == ["• New"], "the new item takes the one outline row")
        #expect(h.screen.cursor?.row == 0)
        #expect(h.screen.cursor?.column == 5)
        h.resize(width: 30, height: 4)
        #expect(h.rows == ["• First", "• New"], "the anchor's note gives way to the new item")
        #expect(h.screen.cursor?.row == 1)
        h.press(.escape)
        h.resize(width: 30, height: 3)
        h.press(.character("O"))
        h.type("Above")
        #expect(h.rows == ["• Above"])
        #expect(h.screen.cursor?.row == 0)
    }

    @Test func belowThreeRowsTheScreenSaysItIsTooSmall() throws {
        let h = try EditorHarness(["First"], width: 60, height: 2)
        #expect(h.screen.line(0).hasPrefix("Window too small"))
        #expect(h.screen.cursor == nil)
        h.resize(width: 60, height: 1)
        #expect(h.screen.line(0).hasPrefix("Window too small"))
        h.resize(width: 5, height: 10)
        #expect(h.screen.line(0).hasPrefix("Wind"))
        #expect(h.screen.cursor == nil)
    }

    @Test func aDeepItemTypedInANarrowWindowKeepsItsCursorOnScreen() throws {
        let h = try EditorHarness([.node("A", [.node("B", [.node("C", [.node("D", ["E"])])])])], width: 6, height: 8)
        h.press(.character("G"), .enter, .end)
        #expect(h.cursorText == "E")
        let cursor = try #require(h.screen.cursor)
        #expect(cursor.column < 6 && cursor.row < 6)
        h.type("xyz")
        let typed = try #require(h.screen.cursor)
        #expect(typed.column < 6)
    }

    @Test func wideningWhileTypingShowsAsMuchOfTheLineAsFits() throws {
        let text = String(repeating: "漢字测试", count: 8)
        let h = try EditorHarness([.init(text: text)], width: 30, height: 5)
        h.press(.enter)
        #expect(h.screen.line(0).count < 16, "at width 30 the line is scrolled to its end")
        h.resize(width: 80, height: 5)
        #expect(h.screen.line(0) == "• " + text, "the whole line fits again and is shown from its start")
        #expect(h.screen.cursor?.column == 2 + 2 * text.count)
    }

    @Test func readOnlyHintsSayQuitAndTheHelpToo() throws {
        let h = try EditorHarness(["Milk"], width: 90, height: 30, readOnly: true)
        #expect(h.messageLine == "? help · q quit")
        h.press(.character("?"))
        #expect(h.screen.lines.contains { $0.contains("q  quit (read-only)") })
        let w = try EditorHarness(["Milk"], width: 90)
        #expect(w.messageLine == "? help · q save and quit")
    }
}
