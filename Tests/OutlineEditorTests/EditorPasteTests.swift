import OutlineEditor
import OutlineEngine
import Testing

/// Pasted text (a bracketed paste, ``EditorKey/paste(_:leftOut:)``) is text, never keys.
@Suite struct EditorPasteTests {
    @Test func aPasteWhileTypingGoesIntoTheLineWithBreaksAndTabsAsSpaces() throws {
        let h = try EditorHarness(["Milk", "Eggs"])
        h.press(.enter, .home)
        h.press(.paste("line1\nline2\tTAB\r\nline3\u{1B}[2J\u{7} "))
        #expect(h.editor.isEditingText, "the line breaks did not end the line")
        #expect(h.editor.typedText == "line1 line2 TAB line3[2J Milk", "control characters are dropped")
        h.press(.escape)
        #expect(h.outline == ["line1 line2 TAB line3[2J Milk", "Eggs"], "no item made, none indented")
        #expect(h.document.context.undoActionName == "Edit text of “Milk”")
    }

    @Test func aPasteWhileBrowsingAddsItsLinesAsItemsInOneUndoStepAndRunsNoCommand() throws {
        let h = try EditorHarness(["Milk", "Eggs"])
        h.press(.paste("dd\r\n\nx u\tq\rZ\n"))
        #expect(h.outline == ["Milk", "dd", "x u q", "Z", "Eggs"], "blank lines are skipped, nothing deleted")
        #expect(h.cursorText == "Z")
        #expect(!h.editor.isEditingText)
        #expect(h.messageLine.hasPrefix("Pasted 3 items."))
        #expect(h.document.context.undoActionName == "Paste 3 items")
        h.press(.character("u"))
        #expect(h.outline == ["Milk", "Eggs"], "one undo removes the whole paste")
    }

    @Test func aPasteIntoTheSearchPromptIsItsText() throws {
        let h = try EditorHarness(["Milk", "Eggs"])
        h.press(.character("/"), .paste("Eg\ngs"))
        #expect(h.editor.typedText == "Eg gs")
    }

    @Test func aPasteIsRefusedInAReadOnlySessionAndIgnoredByTheQuestion() throws {
        let h = try EditorHarness(["Milk"], readOnly: true)
        h.press(.paste("dd"))
        #expect(h.outline == ["Milk"])
        #expect(h.messageLine.hasPrefix("Read-only"))
        let w = try EditorHarness(["Milk"])
        w.editor.askAboutExternalChange()
        #expect(w.press(.paste("y")) == .none, "a pasted y does not answer")
        #expect(w.editor.isAskingAboutExternalChange)
    }

    @Test func aPasteBufferKeepsAtMostItsLimitAndCountsTheRest() {
        var buffer = PasteBuffer(capacity: 4)
        for scalar in "ab\u{1B}c\u{9B}\tdefg".unicodeScalars { buffer.append(scalar) }
        #expect(buffer.key == .paste("abc\t", leftOut: 4))
        #expect(PasteBuffer.limit == 65_536)
    }

    @Test func aHugePasteIsCutAndTheMessageSaysSo() throws {
        let h = try EditorHarness(["Milk"], width: 200)
        let lines = (1 ... 1_200).map { "item \($0)" }.joined(separator: "\n")
        h.press(.paste(lines, leftOut: 7))
        #expect(h.document.children(of: h.document.root).count == 1_001)
        #expect(h.messageLine.contains("200 more lines were left out"))
        #expect(h.messageLine.contains("7 more were left out"))
        h.press(.character("u"))
        #expect(h.outline == ["Milk"])
    }
}
