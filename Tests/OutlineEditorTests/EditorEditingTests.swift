import OutlineEditor
import OutlineEngine
import Testing

@Suite struct EditorEditingTests {
    @Test func oInsertsBelowAsOneNamedUndoStep() throws {
        let h = try EditorHarness(["Milk", "Eggs"], width: 90)
        h.press(.character("o"))
        #expect(h.editor.isEditingText)
        #expect(h.rows == ["• Milk", "•", "• Eggs"], "the new row is drawn while it is typed")
        h.type("Bread")
        h.press(.escape)
        #expect(h.outline == ["Milk", "Bread", "Eggs"])
        #expect(h.cursorText == "Bread")
        #expect(h.document.context.undoActionName == "Add item “Bread”")
        #expect(h.statusLine.contains("Undo: Add item “Bread”"))
    }

    @Test func capitalOInsertsAbove() throws {
        let h = try EditorHarness(["Milk", "Eggs"])
        h.press(.character("j"), .character("O"))
        h.type("Bread")
        h.press(.escape)
        #expect(h.outline == ["Milk", "Bread", "Eggs"])
    }

    @Test func oOnAnExpandedParentInsertsItsFirstChild() throws {
        let h = try EditorHarness([.node("Dairy", ["Milk"])])
        h.press(.character("o"))
        h.type("Cheese")
        h.press(.escape)
        #expect(h.outline == ["Dairy", "  Cheese", "  Milk"])
    }

    @Test func enterWhileTypingStartsTheNextItemAndEscapeEnds() throws {
        let h = try EditorHarness([])
        #expect(h.rows == ["  (no items yet: o adds one)"])
        h.press(.character("o"))
        h.type("One")
        h.press(.enter)
        h.type("Two")
        h.press(.enter)
        #expect(h.editor.isEditingText)
        h.press(.escape)
        #expect(h.outline == ["One", "Two"], "an empty new item is not inserted")
        #expect(!h.editor.isEditingText)
        #expect(h.cursorText == "Two")
    }

    @Test func enterEditsTheCurrentItem() throws {
        let h = try EditorHarness(["Milk"])
        h.press(.enter)
        #expect(h.editor.typedText == "Milk")
        h.press(.control("w"))
        h.type("Oat milk")
        h.press(.escape)
        #expect(h.outline == ["Oat milk"])
        #expect(h.document.context.undoActionName == "Edit text of “Milk”")
        h.press(.enter, .escape)
        #expect(h.document.context.undoActionName == "Edit text of “Milk”")
        h.press(.character("u"))
        #expect(h.outline == ["Milk"], "finishing without a change adds no step")
    }

    @Test func wideCharactersAreEditedAndDrawnWhole() throws {
        let h = try EditorHarness(["x"], width: 20)
        h.press(.character("o"))
        h.type("漢字👍🏽e")
        h.press(.character("\u{301}"), .left, .backspace, .escape)
        #expect(h.outline == ["x", "漢字é"], "Backspace took the emoji with its modifier")
        #expect(h.rows[1] == "• 漢字é")
        #expect(h.screen[1, 3].isContinuation, "漢 fills columns 2 and 3")
    }

    @Test func tabAndGreaterThanIndentShiftTabAndLessThanOutdent() throws {
        let h = try EditorHarness(["A", "B", "C"])
        h.press(.character("j"), .tab)
        #expect(h.outline == ["A", "  B", "C"])
        #expect(h.document.context.undoActionName == "Move item “B”")
        h.press(.character("j"), .character(">"))
        #expect(h.outline == ["A", "  B", "  C"])
        h.press(.backTab)
        #expect(h.outline == ["A", "  B", "C"])
        h.press(.character("k"), .character("<"))
        #expect(h.outline == ["A", "B", "C"])
        h.press(.character("<"))
        #expect(h.messageLine.contains("cannot be outdented"))
    }

    @Test func indentUnderACollapsedSiblingExpandsItInTheSameStep() throws {
        let h = try EditorHarness([.node("A", collapsed: true, ["A1"]), "B"])
        h.press(.character("j"), .tab)
        #expect(h.outline == ["A", "  A1", "  B"])
        #expect(!h.document.isCollapsed(try h.item("A")))
        #expect(h.cursorText == "B")
        h.press(.character("u"))
        #expect(h.outline == ["A", "  A1", "B"])
        #expect(h.document.isCollapsed(try h.item("A")), "one undo step took back both")
    }

    @Test func tabWhileTypingIndentsAndKeepsTyping() throws {
        let h = try EditorHarness(["A"])
        h.press(.character("o"))
        h.type("B")
        h.press(.tab)
        #expect(h.editor.isEditingText)
        h.type("!")
        h.press(.escape)
        #expect(h.outline == ["A", "  B!"])
    }

    @Test func capitalJAndKMoveAmongSiblings() throws {
        let h = try EditorHarness(["A", "B", "C"])
        h.press(.character("J"))
        #expect(h.outline == ["B", "A", "C"])
        #expect(h.cursorText == "A")
        h.press(.character("J"), .character("J"))
        #expect(h.outline == ["B", "C", "A"])
        #expect(h.messageLine.contains("already last"))
        h.press(.character("K"), .character("K"))
        #expect(h.outline == ["A", "B", "C"])
    }

    @Test func xTogglesDoneAndDoneItemsAreDimmed() throws {
        let h = try EditorHarness(["Milk", "Eggs"])
        h.press(.character("x"))
        #expect(h.document.isDone(try h.item("Milk")))
        #expect(h.document.context.undoActionName == "Mark “Milk” done")
        h.press(.character("j"))
        #expect(h.screen[0, 2].style.contains(.dim), "the done item's text is dim")
        #expect(!h.screen[1, 2].style.contains(.dim))
        h.press(.character("k"), .character("x"))
        #expect(!h.document.isDone(try h.item("Milk")))
    }

    @Test func ddDeletesTheSubtreeAndUndoBringsItBack() throws {
        let h = try EditorHarness([.node("A", ["A1", "A2"]), "B"])
        h.press(.character("d"))
        #expect(h.outline.count == 4, "one d does nothing")
        h.press(.character("d"))
        #expect(h.outline == ["B"])
        #expect(h.cursorText == "B")
        h.press(.character("u"))
        #expect(h.outline == ["A", "  A1", "  A2", "B"])
        #expect(h.messageLine == "Undid “Delete item “A””")
        #expect(h.cursorText == "A", "the cursor goes to the item brought back")
        h.press(.control("r"))
        #expect(h.outline == ["B"])
        #expect(h.messageLine == "Redid “Delete item “A””")
    }

    @Test func undoReachesBackThroughTheWholeSession() throws {
        let h = try EditorHarness(["A"])
        h.press(.character("o"))
        h.type("B")
        h.press(.escape, .tab, .character("x"), .character("k"), .character("h"))
        #expect(h.outline == ["A", "  B"])
        var names: [String] = []
        for _ in 0 ..< 4 {
            h.press(.character("u"))
            names.append(h.messageLine)
        }
        #expect(names == ["Undid “Collapse “A””", "Undid “Mark “B” done”", "Undid “Move item “B””", "Undid “Add item “B””"])
        #expect(h.outline == ["A"])
        h.press(.character("u"))
        #expect(h.messageLine == "Nothing to undo.")
        h.press(.control("r"), .control("r"))
        #expect(h.outline == ["A", "  B"])
        #expect(h.messageLine == "Redid “Move item “B””")
    }

    @Test func undoAtTheEndOfTheSessionSaysWhenTheFileKeepsOlderSteps() throws {
        let h = try EditorHarness(["A"], width: 100)
        h.editor.olderUndoSteps = { 3 }
        h.press(.character("u"))
        #expect(h.messageLine == "Nothing more to undo here: 3 older steps are kept in the file for `outline undo`.")
        h.editor.olderUndoSteps = { 1 }
        h.press(.character("u"))
        #expect(h.messageLine == "Nothing more to undo here: 1 older step is kept in the file for `outline undo`.")
    }

    @Test func saveAndQuitAreEffectsForTheProgram() throws {
        let h = try EditorHarness(["A"])
        #expect(h.press(.control("s")) == .save)
        #expect(h.press(.character("q")) == .quit)
        h.press(.enter)
        h.type("x")
        #expect(h.press(.control("s")) == .save, "Ctrl-S while typing keeps the text and saves")
        #expect(h.outline == ["Ax"])
    }

    /// A line being typed is an unsaved edit: the program is told (so another program's
    /// change does not replace it), and the status line does not say Saved meanwhile.
    @Test func typedTextNotYetInTheDocumentIsAnUnsavedEdit() throws {
        let h = try EditorHarness(["Alpha"])
        #expect(h.statusLine.contains("Saved"))
        h.press(.enter)
        #expect(!h.editor.hasUncommittedText, "nothing typed yet")
        #expect(h.statusLine.contains("Saved"))
        h.type(" beta")
        #expect(h.editor.hasUncommittedText)
        #expect(h.statusLine.contains("Not saved") && !h.statusLine.contains(" Saved"), "\(h.statusLine)")
        // Another program's change: typing goes on (letters are not taken as the answer), and
        // the question comes when the line ends, its text in the document.
        h.editor.askAboutExternalChange()
        h.editor.render(into: &h.screen)
        #expect(h.editor.isEditingText && h.editor.isAskingAboutExternalChange)
        #expect(h.messageLine.hasPrefix("Another program changed the file: end the line"))
        h.type(" yrn")
        #expect(h.editor.typedText == "Alpha beta yrn")
        h.press(.escape)
        #expect(!h.editor.isEditingText && h.editor.isAskingAboutExternalChange)
        #expect(h.messageLine.hasPrefix("Another program changed the file. Take its version (y)"))
        #expect(h.outline == ["Alpha beta yrn"])
        #expect(h.document.context.hasChanges)
        #expect(h.press(.character("n")) == .reloadExternalChange(false))
        #expect(!h.editor.isAskingAboutExternalChange)
        // With nothing typed, the question is asked at once.
        h.press(.enter)
        h.editor.askAboutExternalChange()
        #expect(!h.editor.isEditingText && h.editor.isAskingAboutExternalChange)
        #expect(h.press(.character("y")) == .reloadExternalChange(true))
        // A new item counts once it has text.
        h.press(.character("o"))
        #expect(!h.editor.hasUncommittedText)
        h.type("G")
        #expect(h.editor.hasUncommittedText)
        h.press(.backspace)
        #expect(!h.editor.hasUncommittedText)
    }

    /// Ctrl-S while typing puts the text in the document as it is and saves; typing goes on
    /// in the same item, the cursor where it was, so the next keys are text, not commands.
    @Test func ctrlSWhileTypingSavesAndTypingGoesOn() throws {
        let h = try EditorHarness(["Alpha", "Beta"])
        h.press(.enter)
        h.type(" beta")
        h.press(.left, .left)
        #expect(h.press(.control("s")) == .save)
        #expect(h.outline == ["Alpha beta", "Beta"])
        #expect(h.editor.isEditingText && !h.editor.hasUncommittedText)
        h.type("x")
        #expect(h.editor.typedText == "Alpha bexta")
        h.press(.end)
        h.type(" gamma")
        h.press(.escape)
        #expect(h.outline == ["Alpha bexta gamma", "Beta"])
        #expect(!h.document.isDone(try h.item("Alpha bexta gamma")), "no key ran as a command")
        #expect(h.cursorText == "Alpha bexta gamma")
        h.press(.character("u"))
        #expect(h.outline == ["Alpha beta", "Beta"], "the save's text is an undo step of its own")

        // A new item is inserted at Ctrl-S and typing goes on in it; with nothing typed
        // there is nothing to put in and typing simply goes on.
        h.press(.character("o"))
        #expect(h.press(.control("s")) == .save)
        #expect(h.editor.isEditingText && h.outline == ["Alpha beta", "Beta"])
        h.type("New")
        #expect(h.press(.control("s")) == .save)
        #expect(h.outline == ["Alpha beta", "New", "Beta"])
        h.type("er")
        h.press(.escape)
        #expect(h.outline == ["Alpha beta", "Newer", "Beta"])
    }

    /// `q` saves and quits; `Q` asks the program to quit without saving, which it offers
    /// only after a save failed (the effect says what was asked, not what happens).
    @Test func capitalQAsksToQuitWithoutSaving() throws {
        let h = try EditorHarness(["A"])
        #expect(h.press(.character("Q")) == .quitWithoutSaving)
        h.press(.enter)
        #expect(h.press(.character("Q")) == .none, "typed, while editing")
        #expect(h.editor.typedText == "AQ")
    }

    @Test func readOnlyRefusesEditsButBrowses() throws {
        let h = try EditorHarness([.node("A", ["A1"]), "B"], readOnly: true)
        h.press(.character("o"))
        #expect(!h.editor.isEditingText)
        #expect(h.messageLine.hasPrefix("Read-only"))
        h.press(.character("x"), .character("d"), .character("d"), .tab)
        #expect(h.outline == ["A", "  A1", "B"])
        #expect(!h.document.isDone(try h.item("A")))
        #expect(h.press(.control("s")) == .none)
        #expect(h.statusLine.contains("Read-only"))
        h.press(.character("j"))
        #expect(h.cursorText == "A1")
        #expect(h.press(.character("q")) == .quit)
    }

    @Test func readOnlyRefusesUndoAndRedoAsOtherEdits() throws {
        let h = try EditorHarness(["Milk"])
        h.press(.character("x"), .character("u"))
        let document = h.document
        // The same document in a read-only session, a step to undo and one to redo.
        document.context.redo()
        let readOnly = OutlineEditor(
            document: document, options: EditorOptions(fileName: "t", formatName: "binary", isReadOnly: true, usesColor: false))
        var screen = ScreenBuffer(width: 90, height: 10)
        readOnly.handle(.character("u"))
        readOnly.render(into: &screen)
        #expect(readOnly.message == "Read-only: this session does not change the document.")
        #expect(document.isDone(try h.item("Milk")), "undo changed nothing")
        readOnly.handle(.control("r"))
        #expect(readOnly.message == "Read-only: this session does not change the document.")
        #expect(document.context.canUndo)
    }
}
