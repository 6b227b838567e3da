import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `outline edit FILE` in a real terminal (tmux): keys typed, the screen read, the file checked.
@Suite(
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the full-screen tests need it (.ci/setup installs it)"),
    .timeLimit(.minutes(2)))
struct FullScreenEditorTests {
    /// A sandbox holding a new document `name` with `items` at its top level, added in order.
    static func sandbox(_ name: String, items: [String]) throws -> CLISandbox {
        let box = try CLISandbox()
        #expect(try box.run("create", name).status == 0)
        for item in items { #expect(try box.run("add", name, item).status == 0) }
        return box
    }

    /// `shared.outline` open in the editor with an item typed and not saved, and another
    /// program's change to it: the editor asks which version to keep.
    static func editorAskingAboutAnotherProgramsChange() throws -> (CLISandbox, TmuxSession) {
        let box = try Self.sandbox("shared.outline", items: ["First"])
        // An autosave before the tool's change would leave nothing unsaved to ask about: it
        // waits longer than any machine takes to get there.
        let session = try TmuxSession(box, ["edit", "shared.outline"], environment: ["OUTLINE_AUTOSAVE_SECONDS": "600"])
        try session.waitFor("• First")
        try session.send("o")
        try session.type("Typed here")
        try session.send("Escape")
        try session.waitFor("• Typed here")
        #expect(try box.run("add", "shared.outline", "Added by the tool").status == 0)
        try session.waitFor("Take its version (y) or keep your edits (n)?")
        return (box, session)
    }

    /// The file's items as `outline show --json` prints them.
    static func items(_ box: CLISandbox, _ name: String) throws -> [[String: Any]] {
        let shown = try box.run("show", name, "--json")
        #expect(shown.status == 0, "\(shown)")
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        return try #require(object?["items"] as? [[String: Any]])
    }

    @Test func aSessionAddsIndentsMarksDoneUndoesSavesAndQuits() throws {
        let box = try Self.sandbox("list.outline", items: ["Groceries"])
        let session = try TmuxSession(box, ["edit", "list.outline"])
        try session.waitFor("• Groceries")
        try session.send("o")
        try session.type("Milk 漢字")
        try session.send("Enter")
        try session.type("Bread")
        try session.send("Escape")
        try session.waitFor("• Bread")
        try session.send("Tab")
        try session.waitFor("Undo: Move item “Bread”")
        try session.send("k", "Tab")
        try session.waitFor("  ▾ Milk 漢字")
        try session.send("x")
        try session.waitFor("Undo: Mark “Milk 漢字” done")
        try session.send("j", "x")
        try session.waitFor("Undo: Mark “Bread” done")
        try session.send("u")
        try session.waitFor("Undid “Mark “Bread” done”")
        try session.send("C-s")
        try session.waitFor("Saved")
        try session.send("q")
        try session.waitFor("[exit 0]")

        // Groceries > Milk 漢字 (done) > Bread (its done undone).
        let items = try Self.items(box, "list.outline")
        #expect(items.map { $0["text"] as? String } == ["Groceries"])
        let milk = try #require((items.first?["children"] as? [[String: Any]])?.first)
        #expect(milk["text"] as? String == "Milk 漢字")
        #expect(milk["done"] as? Bool == true)
        let bread = try #require((milk["children"] as? [[String: Any]])?.first)
        #expect(bread["text"] as? String == "Bread")
        #expect(bread["done"] as? Bool == false, "the second done was undone")
    }

    @Test func undoReachesTheCommandsStepsAndTheCommandLineUndoesTheSessions() throws {
        let box = try Self.sandbox("list.outline", items: ["One", "Two"])
        let session = try TmuxSession(box, ["edit", "list.outline"])
        try session.waitFor("Undo: Add item “Two”")
        // The steps `outline add` saved are undone in the editor.
        try session.send("u")
        try session.waitFor("Undid “Add item “Two””")
        try session.send("x")
        try session.waitFor("Undo: Mark “One” done")
        try session.send("q")
        try session.waitFor("[exit 0]")
        // And the editor's step is kept in the file, above the command's it did not undo.
        let history = try box.run("history", "list.outline")
        #expect(history.stdout.contains("  1  Add item “One”\n> 2  Mark “One” done\n"), "\(history)")
        #expect(try box.run("undo", "list.outline").stdout == "Undid: Mark “One” done\n")
        #expect(try box.run("show", "list.outline").stdout == "1 One\n")
    }

    @Test func aSessionKilledBySighupKeepsItsEdits() throws {
        let box = try Self.sandbox("notes.outline", items: [])
        let session = try TmuxSession(box, ["edit", "notes.outline"])
        try session.waitFor("0 items")
        try session.send("o")
        try session.type("Kept")
        try session.send("Escape", "o")
        try session.type("Typed when the terminal closed")
        try session.waitFor("Typed when the terminal closed")
        try session.hangUp()
        // The editor saves before it exits; poll the file rather than sleep.
        let deadline = ContinuousClock.now + .seconds(15)
        var texts: [String?] = []
        while ContinuousClock.now < deadline {
            texts = try Self.items(box, "notes.outline").map { $0["text"] as? String }
            if texts.count == 2 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(texts == ["Kept", "Typed when the terminal closed"])
    }

    @Test func aMissingFileIsCreatedAfterAsking() throws {
        let box = try CLISandbox()
        let session = try TmuxSession(box, ["edit", "new.outline"])
        try session.waitFor("does not exist. Create it? [y/N]")
        try session.type("y")
        try session.send("Enter")
        try session.waitFor("0 items")
        try session.send("q")
        try session.waitFor("[exit 0]")
        #expect(box.exists("new.outline"))
        #expect(try Self.items(box, "new.outline").isEmpty)
    }

    @Test func anotherProgramsChangeIsReloadedWhenThereAreNoEdits() throws {
        let box = try Self.sandbox("shared.outline", items: ["First"])
        let session = try TmuxSession(box, ["edit", "shared.outline"])
        try session.waitFor("• First")
        #expect(try box.run("add", "shared.outline", "Added by the tool").status == 0)
        try session.waitFor("• Added by the tool")
        try session.send("q")
        try session.waitFor("[exit 0]")
    }

    /// A pause in typing saves on its own, after OUTLINE_AUTOSAVE_SECONDS: the file holds the
    /// edit while the editor is still open.
    @Test func aPauseInTypingSavesOnItsOwn() throws {
        let box = try Self.sandbox("doc.outline", items: [])
        let session = try TmuxSession(box, ["edit", "doc.outline"], environment: ["OUTLINE_AUTOSAVE_SECONDS": "0.3"])
        try session.waitFor("0 items")
        try session.send("o")
        try session.type("Saved without asking")
        try session.send("Escape")
        try session.waitFor("“1 items · Saved”") { $0.contains(" 1 items · Saved") }
        #expect(try Self.items(box, "doc.outline").map { $0["text"] as? String } == ["Saved without asking"])
        try session.send("q")
        try session.waitFor("[exit 0]")
    }

    /// With an edit not saved yet, another program's change is a question: `y` reads the
    /// other version (the local edit is gone), `n` keeps the local edit and the next save wins.
    @Test(arguments: [true, false])
    func anotherProgramsChangeDuringUnsavedEditsAsksWhichVersionToKeep(takeTheirs: Bool) throws {
        let (box, session) = try Self.editorAskingAboutAnotherProgramsChange()
        if takeTheirs {
            try session.send("y")
            try session.waitFor("• Added by the tool")
            try session.waitFor("the screen without the local item") { !$0.contains("Typed here") }
        } else {
            try session.send("n")
            try session.waitFor("Kept the edits made here")
            try session.send("C-s")
            try session.waitFor("“Saved”") { $0.contains(" · Saved") }
        }
        try session.send("q")
        try session.waitFor("[exit 0]")
        let texts = try Self.items(box, "shared.outline").map { $0["text"] as? String }
        #expect(texts == (takeTheirs ? ["First", "Added by the tool"] : ["First", "Typed here"]))
    }

    /// A line still being typed is an edit too: another program's change does not read the
    /// file over it but asks once the line ends, and the status line does not say Saved meanwhile.
    @Test func textBeingTypedIsKeptWhenAnotherProgramChangesTheFile() throws {
        let box = try Self.sandbox("p.outline", items: ["Alpha"])
        let session = try TmuxSession(box, ["edit", "p.outline"], environment: ["OUTLINE_AUTOSAVE_SECONDS": "600"])
        try session.waitFor("• Alpha")
        try session.send("Enter")
        try session.type(" beta")
        try session.waitFor("Alpha beta")
        try session.waitFor("“Not saved” while typing") { $0.contains(" · Not saved") }
        #expect(try box.run("add", "p.outline", "Other").status == 0)
        // Typing goes on: the letters typed are not taken as the question's answer.
        try session.waitFor("Another program changed the file: end the line")
        try session.type(" yes")
        try session.waitFor("Alpha beta yes")
        try session.send("Escape")
        try session.waitFor("Take its version (y) or keep your edits (n)?")
        #expect(try session.screen().contains("Alpha beta yes"))
        try session.send("n")
        try session.waitFor("Kept the edits made here")
        try session.send("C-s")
        try session.waitFor("“Saved”") { $0.contains(" · Saved") }
        try session.send("q")
        try session.waitFor("[exit 0]")
        #expect(try Self.items(box, "p.outline").map { $0["text"] as? String } == ["Alpha beta yes"])
    }

    /// Ctrl-S while typing saves the text and typing goes on (the next keys are text, not
    /// commands); with nothing to save it says so, and the message goes as usual.
    @Test func ctrlSWhileTypingSavesAndTypingGoesOnAndNothingToSaveSaysSo() throws {
        let box = try Self.sandbox("p.outline", items: ["Alpha", "Second"])
        let session = try TmuxSession(box, ["edit", "p.outline"], environment: ["OUTLINE_AUTOSAVE_SECONDS": "600"])
        try session.waitFor("• Alpha")
        try session.send("C-s")
        try session.waitFor("Nothing to save")
        try session.send("j")
        try session.waitFor("the message gone") { !$0.contains("Nothing to save") && !$0.contains("Saving") }
        try session.send("k", "Enter")
        try session.type(" beta")
        try session.send("C-s")
        try session.waitFor("Saved.")
        #expect(try Self.items(box, "p.outline").map { $0["text"] as? String } == ["Alpha beta", "Second"])
        try session.type(" gamma")
        try session.waitFor("Alpha beta gamma")
        try session.send("Escape", "q")
        try session.waitFor("[exit 0]")
        let items = try Self.items(box, "p.outline")
        #expect(items.map { $0["text"] as? String } == ["Alpha beta gamma", "Second"])
        #expect(items.map { $0["done"] as? Bool } == [false, false], "no key typed ran as a command")
    }

    /// `q` never throws edits away: after a failed save it tries again and stays open; only
    /// `Q`, which the message offers, quits without saving.
    @Test func qAfterAFailedSaveTriesAgainAndOnlyCapitalQQuitsWithoutSaving() throws {
        let box = try CLISandbox()
        try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
        #expect(try box.run("create", "sub/s.outline").status == 0)
        let session = try TmuxSession(
            box, ["edit", "sub/s.outline"], width: 200, environment: ["OUTLINE_AUTOSAVE_SECONDS": "60"])
        try session.waitFor("0 items")
        try session.send("o")
        try session.type("precious")
        try session.send("Escape")
        try session.waitFor("• precious")
        try FileManager.default.removeItem(atPath: box.path("sub"))
        try session.send("q")
        try session.waitFor("q tries again, Q quits without saving them")
        try session.send("j", "q")
        try session.waitFor("the message again") { $0.contains("Not saved: ") && $0.contains("Q quits without saving") }
        #expect(try !session.screen().contains("[exit"), "still open")
        // With the folder back, q saves and quits.
        try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
        try session.send("q")
        try session.waitFor("[exit 0]")
        #expect(try Self.items(box, "sub/s.outline").map { $0["text"] as? String } == ["precious"])

        // Q, once offered, quits without saving, and says so.
        let second = try TmuxSession(
            box, ["edit", "sub/s.outline"], width: 200, environment: ["OUTLINE_AUTOSAVE_SECONDS": "60"])
        try second.waitFor("• precious")
        try second.send("Q")
        try second.waitFor("[exit 0]")
        let third = try TmuxSession(
            box, ["edit", "sub/s.outline"], width: 200, environment: ["OUTLINE_AUTOSAVE_SECONDS": "60"])
        try third.waitFor("• precious")
        try third.send("x")
        try third.waitFor("Undo: Mark “precious” done")
        try FileManager.default.removeItem(atPath: box.path("sub"))
        try third.send("Q")
        try third.waitFor("q tries again, Q quits without saving them")
        try third.send("Q")
        try third.waitFor("[exit 1]")
        #expect(try third.screen().contains("quit without saving, as asked (Q)"))
    }

    /// The terminal closing while the question about another program's change is open: the
    /// edits go to a recovery copy beside the file, which is not replaced, and the message
    /// says so and why (no word of permissions or room).
    @Test func aHangupDuringTheFileChangeQuestionWritesARecoveryCopy() throws {
        let box = try Self.sandbox("c.outline", items: ["First"])
        #expect(try box.run("create", "c.recovered.outline").status == 0)
        let session = try TmuxSession(
            box, ["edit", "c.outline"], width: 250, environment: ["OUTLINE_AUTOSAVE_SECONDS": "600"])
        try session.waitFor("• First")
        try session.send("o")
        try session.type("Typed here")
        try session.send("Escape")
        try session.waitFor("• Typed here")
        #expect(try box.run("add", "c.outline", "Added by the tool").status == 0)
        try session.waitFor("Take its version (y) or keep your edits (n)?")
        try session.signalProgram(SIGHUP)
        let screen = try session.waitFor("[exit 1]")
        #expect(screen.contains("the edits were written to c.recovered.1.outline instead; c.outline was not replaced"), "\(screen)")
        #expect(screen.contains("another program changed it"))
        #expect(!screen.contains("writable") && !screen.contains("room"))
        #expect(try Self.items(box, "c.recovered.1.outline").map { $0["text"] as? String } == ["First", "Typed here"])
        #expect(try Self.items(box, "c.outline").map { $0["text"] as? String } == ["First", "Added by the tool"])
        #expect(try Self.items(box, "c.recovered.outline").isEmpty, "an existing file is not replaced")
    }

    /// Keeping the local edits over another program's, then undoing them: the screen shows
    /// the session's version, so the file must too; the status does not say Saved before.
    @Test func undoingTheKeptEditsStillReplacesTheOtherVersion() throws {
        let (box, session) = try Self.editorAskingAboutAnotherProgramsChange()
        try session.send("n")
        try session.waitFor("Kept the edits made here")
        try session.send("u")
        try session.waitFor("Undid “Add item “Typed here””")
        #expect(try session.screen().contains(" · Not saved"))
        try session.send("q")
        try session.waitFor("[exit 0]")
        #expect(try Self.items(box, "shared.outline").map { $0["text"] as? String } == ["First"])
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.unavailableReason ?? ""))
    func aFailedSaveKeepsTheEditsSaysWhyAndTheNextSaveRetries() throws {
        let box = try Self.sandbox("doc.outline", items: [])
        try box.handToUnprivilegedUser()
        let session = try TmuxSession(box, ["edit", "doc.outline"], width: 120, launcher: try Unprivileged.launcher.get())
        try session.waitFor("0 items")
        try box.setMode(0o555, of: ".")
        defer { try? box.setMode(0o755, of: ".") }
        try session.send("o")
        try session.type("Typed while the folder is read-only")
        try session.send("Escape", "C-s")
        try session.waitFor("“Not saved: ”") { $0.contains("Not saved: ") }
        try session.waitFor("• Typed while the folder is read-only")
        try box.setMode(0o755, of: ".")
        try session.send("C-s")
        try session.waitFor("“Saved”") { $0.contains(" · Saved") }
        try session.send("q")
        try session.waitFor("[exit 0]")
        let items = try Self.items(box, "doc.outline")
        #expect(items.map { $0["text"] as? String } == ["Typed while the folder is read-only"])
    }

    @Test func pastedTextIsTextWhileTypingAndNewItemsWhileBrowsingNeverCommands() throws {
        let box = try Self.sandbox("paste.outline", items: ["Groceries"])
        let session = try TmuxSession(box, ["edit", "paste.outline"])
        try session.waitFor("• Groceries")
        // While typing: one line, its breaks and tab as spaces (no new item, no indent).
        try session.send("Enter", "End")
        try session.paste(" line1\nline2\tTAB\nline3")
        try session.waitFor("Groceries line1 line2 TAB line3")
        try session.send("Escape")
        try session.waitFor("Undo: Edit text of “Groceries”")
        // While browsing: the letters are not commands (dd would delete, x mark done, q quit).
        try session.paste("dd\nx\nq")
        try session.waitFor("Pasted 3 items.")
        try session.send("u")
        try session.waitFor("Undid “Paste 3 items”")
        try session.send("C-r")
        try session.waitFor("Redid “Paste 3 items”")
        try session.send("q")
        try session.waitFor("[exit 0]")
        let items = try Self.items(box, "paste.outline")
        #expect(items.map { $0["text"] as? String } == ["Groceries line1 line2 TAB line3", "dd", "x", "q"])
        #expect(items.allSatisfy { $0["done"] as? Bool != true })

        // Bracketed paste mode is off again: the shell after the editor gets plain text.
        try session.paste("AFTER")
        let screen = try session.waitFor("AFTER")
        #expect(!screen.contains("200~") && !screen.contains("201~"), "\(screen)")
    }

    @Test func pasteModeIsTurnedOffWhenASignalEndsTheSession() throws {
        let box = try Self.sandbox("sig.outline", items: ["Only"])
        let session = try TmuxSession(box, ["edit", "sig.outline"])
        try session.waitFor("• Only")
        try session.signalProgram(SIGTERM)
        try session.waitFor("[exit")
        try session.paste("AFTER")
        let screen = try session.waitFor("AFTER")
        #expect(!screen.contains("200~"), "\(screen)")
    }

    @Test func theLineBeingTypedStaysOnScreenAtThreeRowsAndAfterWidening() throws {
        let box = try Self.sandbox("small.outline", items: ["First"])
        let session = try TmuxSession(box, ["edit", "small.outline"], width: 30, height: 3)
        try session.waitFor("• First")
        try session.send("g", "o")
        let text = String(repeating: "漢字测试", count: 8)
        try session.type(text)
        // One outline row: the new item is on it, scrolled to its end, not "First".
        var screen = try session.waitFor("the new item") { $0.hasPrefix("• ") && $0.contains("漢字测试漢字测试") }
        #expect(!screen.contains("First"), "\(screen)")
        try session.resize(width: 80, height: 5)
        screen = try session.waitFor("the whole line") { $0.contains("• " + text) }
        try session.send("Escape", "q")
        try session.waitFor("[exit 0]")
        let items = try Self.items(box, "small.outline")
        #expect(items.map { $0["text"] as? String } == ["First", text])
    }

    @Test func readOnlyBrowsesWithoutSaving() throws {
        let box = try Self.sandbox("ro.outline", items: ["Only"])
        let before = try box.bytes("ro.outline")
        let session = try TmuxSession(box, ["edit", "ro.outline", "--read-only"], environment: ["NO_COLOR": "1"])
        try session.waitFor("Read-only")
        try session.waitFor("? help · q quit")
        try session.send("x")
        try session.waitFor("Read-only: this session does not change the document.")
        // Undo and redo are edits too: refused the same way, nothing undone on screen.
        try session.send("Escape", "u")
        try session.waitFor("Read-only: this session does not change the document.")
        try session.send("C-r")
        let screen = try session.waitFor("Read-only: this session does not change the document.")
        #expect(!screen.contains("Undid") && !screen.contains("Redid"), "\(screen)")
        try session.send("q")
        try session.waitFor("[exit 0]")
        #expect(try box.bytes("ro.outline") == before)
    }
}

/// `outline edit FILE` without a terminal says what to do instead of drawing into a pipe.
@Suite struct FullScreenEditorWithoutTerminalTests {
    @Test func withoutATerminalTheEditorExplainsAndExitsWithUsage() throws {
        let box = try FullScreenEditorTests.sandbox("doc.outline", items: [])
        let result = try box.run("edit", "doc.outline")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("The full-screen editor needs a terminal on standard input and output"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anItemChangeWithoutAPathIsRefused() throws {
        let box = try FullScreenEditorTests.sandbox("doc.outline", items: [])
        let result = try box.run("edit", "doc.outline", "--text", "x")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("Give the item to change"), "\(result)")
    }
}
