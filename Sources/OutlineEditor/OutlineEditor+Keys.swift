/// What each key does, by mode. The help overlay (``OutlineEditor/helpLines``) lists them.
extension OutlineEditor {
    /// Handles one key and says what the program must do next (then call ``render(into:)``).
    @discardableResult
    public func handle(_ key: EditorKey) -> EditorEffect {
        if key == .resize { return .none }
        switch mode {
        case .browsing: return browse(key)
        case .editing(var session):
            return edit(key, &session)
        case .searching(var line):
            searchPrompt(key, &line)
            return .none
        case .help:
            mode = .browsing
            return .none
        case .askingAboutExternalChange:
            switch key {
            case .character("y"), .character("Y"), .character("r"):
                mode = .browsing
                return .reloadExternalChange(true)
            case .character("n"), .character("N"), .character("k"), .escape:
                mode = .browsing
                show("Kept the edits made here; the next save replaces the other program's version.")
                return .reloadExternalChange(false)
            default:
                return .none
            }
        }
    }

    private func browse(_ key: EditorKey) -> EditorEffect {
        let wasPendingDelete = pendingDelete
        pendingDelete = false
        if key != .character("d") || !wasPendingDelete { message = nil }
        switch key {
        case .up, .character("k"): moveCursor(by: -1)
        case .down, .character("j"): moveCursor(by: 1)
        case .left, .character("h"): collapseOrGoToParent()
        case .right, .character("l"): expandOrGoToFirstChild()
        case .home, .character("g"): goToFirst()
        case .end, .character("G"): goToLast()
        case .pageUp, .control("b"): moveCursor(by: -max(outlineHeight - 1, 1))
        case .pageDown, .control("f"): moveCursor(by: max(outlineHeight - 1, 1))
        case .character("o"): beginNewItem(above: false)
        case .character("O"): beginNewItem(above: true)
        case .enter, .character("i"), .character("a"): beginEditingCursor()
        case .tab, .character(">"): indentCursor()
        case .backTab, .character("<"): outdentCursor()
        case .character("J"): moveCursorItem(down: true)
        case .character("K"): moveCursorItem(down: false)
        case .character("x"), .character(" "): toggleDone()
        case .character("d"):
            if wasPendingDelete { deleteCursorItem() } else { pendingDelete = true }
        case .character("u"): undo()
        case .control("r"): redo()
        case .character("/"): mode = .searching(LineEditor())
        case .character("n"): goToMatch(forward: true)
        case .character("N"): goToMatch(forward: false)
        case .character("z"): zoomIn()
        case .character("Z"): zoomOut()
        case .character("v"): toggleNotes()
        case .character("?"): mode = .help
        case .control("s"):
            return options.isReadOnly ? refuseSave() : .save
        case .character("q"): return .quit
        case .character("Q"): return .quitWithoutSaving
        case .control("c"): show(options.isReadOnly ? "Press q to quit." : "Press q to save and quit.")
        case .paste(let text, let leftOut): pasteItems(text, leftOut: leftOut)
        default: break
        }
        return .none
    }

    private func refuseSave() -> EditorEffect {
        show("Read-only: nothing is saved in this session.", isError: true)
        return .none
    }

    private func edit(_ key: EditorKey, _ session: inout EditSession) -> EditorEffect {
        if questionWaits, [.enter, .escape, .tab, .backTab, .control("s")].contains(key) {
            // The line ends: its text goes in, then the question held back is asked.
            mode = .editing(session)
            _ = commitEdit()
            questionWaits = false
            message = nil
            mode = .askingAboutExternalChange
            return .none
        }
        switch key {
        case .enter:
            mode = .editing(session)
            guard let item = commitEdit() else { return .none }
            cursor = item
            beginNewItem(above: false)
        case .escape:
            mode = .editing(session)
            _ = commitEdit()
        case .tab, .backTab:
            mode = .editing(session)
            guard let item = commitEdit() else { return .none }
            cursor = item
            if key == .tab { indentCursor() } else { outdentCursor() }
            beginEditingCursor()
        case .control("s"):
            return saveWhileTyping(session)
        case .paste(_, let leftOut):
            // Pasted into the line as text (line breaks and tabs become spaces), never as keys.
            _ = session.line.handle(key)
            mode = .editing(session)
            if leftOut > 0 { show(Self.pasteCutMessage(leftOut), isError: true) }
        default:
            _ = session.line.handle(key)
            mode = .editing(session)
        }
        return .none
    }

    /// Ctrl-S while typing: the text goes into the document as it is (one undo step), and
    /// typing goes on in the same item with the cursor where it was.
    private func saveWhileTyping(_ session: EditSession) -> EditorEffect {
        mode = .editing(session)
        guard hasUncommittedText else { return .save }
        guard let item = commitEdit() else {
            // The edit was refused (its error is on the message line): keep typing it.
            mode = .editing(session)
            return .none
        }
        let text = session.line.text
        mode = .editing(EditSession(target: .existing(item), line: session.line, original: text))
        return .save
    }

    private func searchPrompt(_ key: EditorKey, _ line: inout LineEditor) {
        switch key {
        case .enter:
            mode = .browsing
            runSearch(line.text)
        case .escape:
            mode = .browsing
        default:
            _ = line.handle(key)
            mode = .searching(line)
        }
    }

    /// The keys for the help overlay: ``helpLines``, with `q` saying it only quits in a
    /// read-only session.
    public var shownHelpLines: [String] {
        guard options.isReadOnly else { return Self.helpLines }
        return Self.helpLines.map {
            $0.replacingOccurrences(of: "q  save and quit", with: "q  quit (read-only)")
        }
    }

    /// The keys, for the help overlay.
    public static let helpLines: [String] = [
        "Moving",
        "  ↑ k / ↓ j        previous / next item",
        "  ← h              collapse, or go to the parent",
        "  → l              expand, or go to the first child",
        "  g Home / G End   first / last item",
        "  PgUp / PgDn      a screen up / down",
        "Editing",
        "  o / O            new item below / above",
        "  Enter            edit the item (Enter: next item, Esc: done)",
        "  Tab > / ⇧Tab <   indent / outdent",
        "  J / K            move the item down / up",
        "  x Space          done / not done",
        "  dd               delete the item and its children",
        "  u / Ctrl-R       undo / redo",
        "  paste            typing: into the line; else: its lines as new items",
        "Viewing",
        "  /  n  N          search (text or predicate), next, previous",
        "  z / Z            zoom into the item / back out",
        "  v                show or hide notes",
        "  Ctrl-S           save        q  save and quit",
        "  Q                quit without saving (offered when a save failed)",
        "  ?                this help (any key closes it)",
    ]
}
