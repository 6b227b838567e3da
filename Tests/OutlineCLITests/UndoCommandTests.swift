import Foundation
import OutlineKit
import OutlineStorage
import OutlineTool
import Testing

/// `outline undo`, `redo` and `history`: undo kept in the document, across separate runs of the binary.
@Suite struct UndoCommandTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    /// Runs `arguments`, expects success, and returns stdout.
    @discardableResult
    static func ok(_ box: CLISandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try ok(box, arguments, sourceLocation: sourceLocation)
    }

    @discardableResult
    static func ok(_ box: CLISandbox, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try box.run(arguments)
        #expect(result.status == 0 && !result.crashed, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// The tree with ids, notes and done state: what must come back exactly.
    static func state(_ box: CLISandbox, _ file: String) throws -> String {
        try ok(box, "show", file, "--ids", "--json")
    }

    @Test(arguments: formats)
    func everyEditingCommandUndoesAndRedoesInLaterRuns(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let file = "todo.outline"
        try Self.ok(box, "create", file, "--format", format.rawValue)
        var states = [try Self.state(box, file)]
        let edits: [([String], String)] = [
            (["add", file, "Groceries"], "Add item “Groceries”"),
            (["add", file, "Buy milk", "--under", "1", "--note", "Oat, not soy."], "Add item “Buy milk”"),
            (["add", file, "Call Ann"], "Add item “Call Ann”"),
            (["add", file, "Bread", "--under", "1", "--at", "1"], "Add item “Bread”"),
            (["edit", file, "1.2", "--text", "Buy oat milk", "--done"], "Edit text of “Buy milk” and 1 more change"),
            (["move", file, "2", "--under", "1", "--at", "1"], "Move item “Call Ann”"),
            (["remove", file, "1"], "Delete item “Groceries”"),
        ]
        for (arguments, _) in edits {
            try Self.ok(box, arguments)
            states.append(try Self.state(box, file))
        }
        #expect(try box.run("show", file).stdout == "")
        for (index, (_, name)) in edits.enumerated().reversed() {
            #expect(try Self.ok(box, "undo", file) == "Undid: \(name)\n")
            #expect(try Self.state(box, file) == states[index], "after undoing \(name)")
        }
        for (index, (_, name)) in edits.enumerated() {
            #expect(try Self.ok(box, "redo", file) == "Redid: \(name)\n")
            #expect(try Self.state(box, file) == states[index + 1], "after redoing \(name)")
        }
    }

    @Test func undoingARemoveBringsTheSubtreeBackWithItsIDs() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "d.outline")
        try Self.ok(box, "add", "d.outline", "Groceries")
        for item in ["Milk", "Bread", "Eggs"] { try Self.ok(box, "add", "d.outline", item, "--under", "1") }
        try Self.ok(box, "add", "d.outline", "Whole", "--under", "1.1")
        let before = try Self.ok(box, "show", "d.outline", "--ids")
        try Self.ok(box, "remove", "d.outline", "1")
        try Self.ok(box, "undo", "d.outline")
        #expect(try Self.ok(box, "show", "d.outline", "--ids") == before)
        // A new item after the undo gets a new id, never one of the removed ones.
        try Self.ok(box, "add", "d.outline", "Later")
        #expect(try Self.ok(box, "show", "d.outline", "--ids").hasSuffix("2 Later  #108\n"))
    }

    @Test func historyListsTheStepsAsTextAndJSON() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "h.outline")
        try Self.ok(box, "add", "h.outline", "Buy milk")
        try Self.ok(box, "add", "h.outline", "Call \u{1B}]0;Ann")
        try Self.ok(box, "undo", "h.outline")
        #expect(
            try Self.ok(box, "history", "h.outline") == """
                h.outline: 1 step to undo, 1 step to redo (the document keeps the last 100).
                > 1  Add item “Buy milk”
                  2  Add item “Call \\e]0;Ann” (undone)

                """)
        let json = try box.run("history", "h.outline", "--json").jsonObject()
        #expect(json["usable"] as? Bool == true)
        #expect(json["limit"] as? Int == 100)
        #expect(json["undo"] as? Int == 1 && json["redo"] as? Int == 1)
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["Add item “Buy milk”", "Add item “Call \u{1B}]0;Ann”"])
        #expect(steps.map { $0["undone"] as? Bool } == [false, true])
    }

    @Test(arguments: formats)
    func nothingToUndoOrRedoExitsOne(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "n.outline", "--format", format.rawValue)
        let undo = try box.run("undo", "n.outline")
        #expect(undo.status == 1 && undo.stdout == "")
        #expect(
            undo.stderr == "Error: n.outline: there is nothing to undo. The document keeps no undo history: it was last saved "
                + "by a program that does not keep one, saved with --no-history, or its history was cleared.\n")
        try Self.ok(box, "add", "n.outline", "One")
        let redo = try box.run("redo", "n.outline")
        #expect(redo.status == 1)
        #expect(redo.stderr.hasPrefix("Error: n.outline: there is nothing to redo. Only undone steps can be redone"))
        try Self.ok(box, "undo", "n.outline")
        let again = try box.run("undo", "n.outline")
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "Error: n.outline: there is nothing to undo. Every step the document keeps is undone already; `outline redo` makes them again.\n")
    }

    @Test func noHistoryAndClearDropTheHistory() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "c.outline")
        try Self.ok(box, "add", "c.outline", "One")
        try Self.ok(box, "add", "c.outline", "Two", "--no-history")
        let undo = try box.run("undo", "c.outline")
        #expect(undo.status == 1 && undo.stderr.contains("keeps no undo history"), "\(undo)")
        #expect(try Self.ok(box, "show", "c.outline") == "1 One\n2 Two\n")

        try Self.ok(box, "add", "c.outline", "Three")
        #expect(try Self.ok(box, "history", "c.outline").contains("> 1  Add item “Three”"))
        #expect(
            try Self.ok(box, "history", "c.outline", "--clear")
                == "c.outline keeps no undo history (it keeps the last 100 steps once there are some).\n")
        #expect(try box.run("undo", "c.outline").status == 1)
        #expect(try Self.ok(box, "show", "c.outline") == "1 One\n2 Two\n3 Three\n")
    }

    @Test func theHistoryKeepsTheLast100StepsOrAsManyAsItIsTold() throws {
        let box = try CLISandbox()
        let path = box.path("b.outline")
        try Self.ok(box, "create", "b.outline")
        // 100 edits made through the tool's own layer (one save each, as 100 runs would).
        let file = try OutlineFile.openForEditing(path)
        for i in 1 ... 100 {
            try file.document.insertItem("Item \(i)")
            try file.save()
        }
        file.release()
        try Self.ok(box, "add", "b.outline", "Item 101")
        let json = try box.run("history", "b.outline", "--json").jsonObject()
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.count == 100)
        #expect(steps.first?["name"] as? String == "Add item “Item 2”")
        #expect(steps.last?["name"] as? String == "Add item “Item 101”")

        let limited = try box.run("history", "b.outline", "--limit", "3")
        #expect(limited.status == 0)
        #expect(limited.stderr == "Note: b.outline: keeping the last 3 dropped the 97 steps to undo furthest back.\n", "\(limited)")
        try Self.ok(box, "add", "b.outline", "Item 102")
        #expect(
            try Self.ok(box, "history", "b.outline") == """
                b.outline: 3 steps to undo, nothing to redo (the document keeps the last 3).
                  1  Add item “Item 100”
                  2  Add item “Item 101”
                > 3  Add item “Item 102”

                """)
        for _ in 0 ..< 3 { try Self.ok(box, "undo", "b.outline") }
        #expect(try box.run("undo", "b.outline").status == 1)
        let bad = try box.run("history", "b.outline", "--limit", "0")
        #expect(bad.status == 1 && bad.stderr.contains("a document keeps 1 to 10000 undo steps, not 0"), "\(bad)")
    }

    /// A smaller limit keeps the nearest steps, those to undo first, and says what it dropped;
    /// redo then names the limit among the reasons.
    @Test func aSmallerLimitSaysWhatItDropped() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "h.outline")
        try Self.ok(box, "add", "h.outline", "a")
        try Self.ok(box, "add", "h.outline", "b")
        try Self.ok(box, "undo", "h.outline")
        let limited = try box.run("history", "h.outline", "--limit", "1")
        #expect(limited.stderr == "Note: h.outline: keeping the last 1 dropped 1 step that could be redone.\n", "\(limited)")
        let redo = try box.run("redo", "h.outline")
        #expect(redo.status == 1 && redo.stderr.contains("and so does a smaller `outline history --limit`"), "\(redo)")
    }

    @Test(arguments: formats)
    func conversionBetweenTheStoreFormatsKeepsTheHistory(from format: DocumentFormat) throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "a.outline", "--format", format.rawValue)
        try Self.ok(box, "add", "a.outline", "Buy milk")
        try Self.ok(box, "add", "a.outline", "Call Ann")
        try Self.ok(box, "undo", "a.outline")
        let other = format == .binary ? "xml" : "binary"
        try Self.ok(box, "convert", "a.outline", "b.outline", "--to", other)
        try Self.ok(box, "convert", "b.outline", "c.outline", "--to", format.rawValue)
        for copy in ["b.outline", "c.outline"] {
            #expect(try Self.ok(box, "history", copy).hasPrefix("\(copy): 1 step to undo, 1 step to redo"))
            #expect(try Self.ok(box, "redo", copy) == "Redid: Add item “Call Ann”\n")
            #expect(try Self.ok(box, "undo", copy) == "Undid: Add item “Call Ann”\n")
            #expect(try Self.ok(box, "undo", copy) == "Undid: Add item “Buy milk”\n")
            #expect(try Self.ok(box, "show", copy) == "")
        }
    }

    @Test func undoRefusesAfterACoreDataAppChangedTheStore() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "s.xml", "--format", "xml")
        try Self.ok(box, "add", "s.xml", "Buy milk")
        try Self.ok(box, "add", "s.xml", "Call Ann")
        // Another app renames an item and saves, keeping the metadata dictionary as it was.
        let text = String(decoding: try box.bytes("s.xml"), as: UTF8.self)
        try Data(text.replacingOccurrences(of: ">Call Ann<", with: ">Call Bob<").utf8).write(to: URL(fileURLWithPath: box.path("s.xml")))

        let undo = try box.run("undo", "s.xml")
        #expect(undo.status == 1 && undo.stdout == "")
        #expect(
            undo.stderr == "Error: s.xml: the document was changed by a program that does not keep its undo history; undoing "
                + "the recorded steps could undo the wrong things. The document itself is fine: `outline history s.xml --clear` drops "
                + "the undo history, and the next change starts a new one.\n")
        #expect(try box.run("redo", "s.xml").status == 1)
        #expect(try Self.ok(box, "show", "s.xml") == "1 Buy milk\n2 Call Bob\n")
        let json = try box.run("history", "s.xml", "--json").jsonObject()
        #expect(json["usable"] as? Bool == false)

        // An edit goes on with a new history and says so once.
        let add = try box.run("add", "s.xml", "Bread")
        #expect(add.status == 0 && add.stderr.hasPrefix("Note: s.xml: the undo history it kept could not be used"), "\(add)")
        #expect(try Self.ok(box, "undo", "s.xml") == "Undid: Add item “Bread”\n")
        #expect(try box.run("undo", "s.xml").status == 1)
        #expect(try Self.ok(box, "show", "s.xml") == "1 Buy milk\n2 Call Bob\n")
    }

    @Test func undoRefusesAfterAProgramWithoutHistoryChangedTheDocument() throws {
        let box = try CLISandbox()
        try Self.ok(box, "create", "p.outline")
        try Self.ok(box, "add", "p.outline", "Buy milk")
        // A program that does not keep histories (the libraries' default) edits and saves.
        let store = try PersistentStore.open(box.path("p.outline"))
        let document = try OutlineDocument(context: store.context)
        try document.insertItem("Elsewhere")
        try store.save()
        let undo = try box.run("undo", "p.outline")
        #expect(undo.status == 1 && undo.stderr.contains("there is nothing to undo. The document keeps no undo history"), "\(undo)")
        #expect(try Self.ok(box, "show", "p.outline") == "1 Buy milk\n2 Elsewhere\n")
    }
}
