import Foundation
import OutlineStorage
import Testing

/// Tags, folding, copies, `edit --where`, `remove` and `outline batch` keep their undo steps in
/// the document, as add, move and edit do: each run of the binary is one named step, a batch
/// one step per line, and undo/redo in later runs bring back every state exactly.
@Suite struct EditingHistoryTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    @discardableResult
    static func ok(
        _ box: CLISandbox, _ arguments: [String], input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try box.run(arguments, standardInput: input.map { Data($0.utf8) })
        #expect(result.status == 0 && !result.crashed, "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// The tree with ids, notes, done, collapsed state and tags: what undo must bring back exactly.
    static func state(_ box: CLISandbox, _ file: String) throws -> String {
        try ok(box, ["show", file, "--ids", "--json", "--expand-all"]) + ok(box, ["tags", file])
    }

    static func groceries(_ box: CLISandbox, _ file: String, _ format: DocumentFormat) throws {
        try ok(box, ["create", file, "--format", format.rawValue])
        try ok(
            box, ["batch", file, "--no-history"],
            input: """
                add Groceries
                add Milk --under 1
                add Bread --under 1
                add Work
                """)
    }

    @Test(arguments: formats)
    func everyCommandIsOneNamedStepUndoneAndRedoneInLaterRuns(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let file = "g.outline"
        try Self.groceries(box, file, format)
        var states = [try Self.state(box, file)]
        let edits: [([String], String, String)] = [
            (["tag", file, "1.1", "dairy", "cold"], "", "Tag “Milk” with “dairy”, “cold”"),
            (["untag", file, "1.1", "cold"], "", "Remove “cold” from “Milk”"),
            (["collapse", file, "1"], "", "Collapse “Groceries”"),
            (["expand", file, "1"], "", "Expand “Groceries”"),
            (["collapse", file, "--all"], "", "Collapse “Groceries”"),
            (["copy", file, "1", "--under", "2"], "2.1\n", "Copy item “Groceries”"),
            (["edit", file, "--where", "text BEGINSWITH \"B\"", "--done"], "Changed 2 items.\n", "Edit 2 items"),
            (["edit", file, "2", "--recursive", "--not-done"], "Changed 4 items.\n", "Edit 4 items"),
            (["edit", file, "1.2", "--text", "Rye bread", "--note", "Sliced"], "", "Edit text of “Bread” and 1 more change"),
            (["remove", file, "1"], "Removed “Groceries” and 2 items below it.\n", "Delete item “Groceries”"),
        ]
        for (arguments, output, _) in edits {
            #expect(try Self.ok(box, arguments) == output, "\(arguments)")
            states.append(try Self.state(box, file))
        }
        for (index, (_, _, name)) in edits.enumerated().reversed() {
            #expect(try Self.ok(box, ["undo", file]) == "Undid: \(name)\n")
            #expect(try Self.state(box, file) == states[index], "after undoing \(name)")
        }
        for (index, (_, _, name)) in edits.enumerated() {
            #expect(try Self.ok(box, ["redo", file]) == "Redid: \(name)\n")
            #expect(try Self.state(box, file) == states[index + 1], "after redoing \(name)")
        }
    }

    @Test(arguments: formats)
    func aBatchKeepsOneStepPerLineInTheDocument(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let file = "b.outline"
        try Self.groceries(box, file, format)
        let before = try Self.state(box, file)
        #expect(
            try Self.ok(
                box, ["batch", file],
                input: """
                    add Eggs --under 1   # a comment
                    tag 1.3 dairy
                    collapse 1
                    remove 2
                    """) == "1.3\nRemoved “Work”.\n")
        #expect(
            try Self.ok(box, ["history", file]) == """
                \(file): 4 steps to undo, nothing to redo (the document keeps the last 100).
                  1  Add item “Eggs”
                  2  Tag “Eggs” with “dairy”
                  3  Collapse “Groceries”
                > 4  Delete item “Work”

                """)
        for name in ["Delete item “Work”", "Collapse “Groceries”", "Tag “Eggs” with “dairy”", "Add item “Eggs”"] {
            #expect(try Self.ok(box, ["undo", file]) == "Undid: \(name)\n")
        }
        #expect(try Self.state(box, file) == before)
    }

    @Test(arguments: formats)
    func aFailedBatchLeavesTheDocumentAndItsHistoryAsTheyWere(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let file = "f.outline"
        try Self.groceries(box, file, format)
        try Self.ok(box, ["add", file, "Call Ann"])
        let bytes = try box.bytes(file)
        let result = try box.run(["batch", file], standardInput: Data("add Eggs --under 1\ntag 9 dairy\n".utf8))
        #expect(result.status == 1 && result.stdout == "", "\(result)")
        #expect(result.stderr.hasPrefix("Error: standard input: line 2 (tag 9 dairy): "), "\(result)")
        #expect(try box.bytes(file) == bytes)
        #expect(try Self.ok(box, ["undo", file]) == "Undid: Add item “Call Ann”\n")
    }

    @Test func noHistoryOnALineOfABatchIsRefusedForTheWholeBatch() throws {
        let box = try CLISandbox()
        try Self.groceries(box, "n.outline", .binary)
        let result = try box.run(["batch", "n.outline"], standardInput: Data("add Eggs --no-history\n".utf8))
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: standard input: line 1 (add Eggs --no-history): --no-history applies to the whole batch: "
                + "give it to `outline batch`, not to a line. Nothing was changed: the document is as it was.\n")
    }

    @Test(arguments: formats)
    func noHistoryWorksOnEveryEditingCommand(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let file = "h.outline"
        try Self.groceries(box, file, format)
        try Self.ok(box, ["tag", file, "1", "x"])
        try Self.ok(box, ["collapse", file, "1", "--no-history"])
        let undo = try box.run("undo", file)
        #expect(undo.status == 1 && undo.stderr.contains("keeps no undo history"), "\(undo)")
    }
}
