import OutlineEditor
import Testing

@Suite struct LineEditorTests {
    @Test func cursorMovesByWholeGraphemes() {
        var line = LineEditor("e\u{301}漢👍🏽x")
        #expect(line.characters.count == 4)
        _ = line.handle(.left)
        _ = line.handle(.backspace)
        #expect(line.text == "e\u{301}漢x", "one Backspace removes the emoji with its skin tone")
        _ = line.handle(.home)
        _ = line.handle(.delete)
        #expect(line.text == "漢x", "one Delete removes the letter with its accent")
    }

    @Test func combiningMarkTypedAfterItsLetterJoinsIt() {
        var line = LineEditor()
        _ = line.handle(.character("e"))
        _ = line.handle(.character("\u{301}"))
        #expect(line.characters == ["e\u{301}"])
        #expect(line.cursor == 1)
    }

    @Test func homeEndAndWordDeletion() {
        var line = LineEditor("buy oat milk  ")
        _ = line.handle(.control("w"))
        #expect(line.text == "buy oat ")
        _ = line.handle(.home)
        _ = line.handle(.character(">"))
        _ = line.handle(.end)
        _ = line.handle(.character("!"))
        #expect(line.text == ">buy oat !")
        _ = line.handle(.control("u"))
        #expect(line.text == "")
    }

    @Test func enterAndEscapeAreNotLineEditorKeys() {
        var line = LineEditor("x")
        let tookEnter = line.handle(.enter)
        let tookEscape = line.handle(.escape)
        #expect(!tookEnter && !tookEscape)
        #expect(line.text == "x")
    }

    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TextWidth.columns(of: "漢字") == 4)
        #expect(TextWidth.columns(of: "👍🏽") == 2)
        #expect(TextWidth.columns(of: "e\u{301}") == 1)
        #expect(TextWidth.columns(of: "한국어") == 6)
        #expect(TextWidth.columns(of: "ｗｉｄｅ") == 8)
        #expect(TextWidth.columns(of: "abc") == 3)
    }

    @Test func aLongLineScrollsWithoutSplittingAWideCharacter() {
        var line = LineEditor("漢字漢字漢字漢字")
        let (shown, column) = line.visible(width: 7)
        #expect(TextWidth.columns(of: shown) <= 7)
        #expect(shown.allSatisfy { $0 == "漢" || $0 == "字" })
        #expect(column == TextWidth.columns(of: shown) || column == 6, "the cursor at the end stays inside the field")
        _ = line.handle(.home)
        let start = line.visible(width: 7)
        #expect(start.text == "漢字漢", "a fourth ideograph would need columns 7 and 8: left out, not split")
        #expect(start.cursorColumn == 0)
    }

    @Test func truncationEndsWithAnEllipsisOnACharacterBoundary() {
        #expect(OutlineEditor.fitted("漢字漢字", width: 6) == "漢字…")
        #expect(OutlineEditor.fitted("漢字漢字", width: 5) == "漢字…")
        #expect(OutlineEditor.fitted("short", width: 10) == "short")
        var screen = ScreenBuffer(width: 5, height: 1)
        let end = screen.write("ab漢字", row: 0, column: 0)
        #expect(end == 4, "字 would need columns 5 and 6 of a 5-column row")
        #expect(screen.line(0) == "ab漢")
        #expect(screen[0, 3].isContinuation)
    }

    @Test func aWiderFieldScrollsBackToShowAsMuchAsFits() {
        var line = LineEditor("abcdefghij")
        let narrow = line.visible(width: 4)
        #expect(narrow.text == "hij" && narrow.cursorColumn == 3)
        let wide = line.visible(width: 20)
        #expect(wide.text == "abcdefghij" && wide.cursorColumn == 10, "widened: shown from the start")
        _ = line.handle(.home)
        let home = line.visible(width: 4)
        #expect(home.text == "abcd")
        _ = line.handle(.end)
        _ = line.visible(width: 4)
        for _ in 0 ..< 3 { _ = line.handle(.backspace) }
        let shorter = line.visible(width: 4)
        #expect(shorter.text == "efg" && shorter.cursorColumn == 3, "text deleted at the end: the field fills from the left")
    }

    @Test func aPasteIsInsertedAsOneLineInOneGo() {
        var line = LineEditor("ac")
        _ = line.handle(.left)
        let taken = line.handle(.paste("\u{301}x\ny\tz\u{1B}"))
        #expect(taken)
        #expect(line.text == "a\u{301}x y zc")
        #expect(line.cursor == 6)
    }

    @Test(.timeLimit(.minutes(1))) func aHugePastedLineIsShownInTimeOfTheFieldsWidth() {
        var line = LineEditor()
        _ = line.handle(.paste(String(repeating: "漢", count: PasteBuffer.limit)))
        for _ in 0 ..< 200 {
            let end = line.visible(width: 80)
            #expect(end.text.count == 39 && end.cursorColumn == 78)
        }
        _ = line.handle(.home)
        #expect(line.visible(width: 80).text.count == 40)
    }
}
