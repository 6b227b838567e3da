import Foundation
import OutlineKit
import OutlineStorage
import OutlineTool
import Testing

@testable import OutlineCLI

/// `outline batch`: many edits, one open and one save, all or nothing.
@Suite struct BatchTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    static let script = """
        # Groceries first
        add "Groceries"
        add 'Milk' --under 1 --note "Oat, \\"barista\\" kind"
        add Bread --under 1     # a comment after a command
        add "Eggs \\
        and more" --under 1 --at 1
        tag 1.2 dairy "this week"
        move 1.3 --up
        copy 1 --under /
        edit 2.1 --text 'Eggs (copy)' --done
        collapse 2
        add "A note
        over two lines" --id

        remove 2.3
        """

    /// Runs `outline batch doc.outline` with `script` on standard input.
    static func runBatch(_ box: CLISandbox, _ script: String, arguments: [String] = []) throws -> CLIResult {
        try box.run(["batch", "doc.outline"] + arguments, standardInput: Data(script.utf8))
    }

    @Test(arguments: formats)
    func aScriptAppliesEveryLineAndSavesOnce(format: DocumentFormat) throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline", "--format", format.rawValue).status == 0)
        let result = try Self.runBatch(box, Self.script)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(6)) == ["1", "1.1", "1.2", "1.1", "1.2", "2"])
        #expect(lines.count == 8 && lines[6].hasPrefix("#") && lines[7] == "Removed “Milk”.", "\(lines)")
        let shown = try box.run("show", "doc.outline", "--expand-all")
        #expect(
            shown.stdout == """
                1 Groceries
                  1.1 Eggs and more
                  1.2 Bread
                  1.3 Milk  @dairy @"this week"
                      Oat, "barista" kind
                2 Groceries
                  2.1 [x] Eggs (copy)
                  2.2 Bread
                3 A note\\nover two lines

                """, "\(shown)")
        #expect(try box.run("show", "doc.outline").stdout.contains("2 Groceries [+2]\n"))
        let info = try box.run("info", "doc.outline", "--json").jsonObject()
        #expect(info["format"] as? String == format.rawValue)
    }

    @Test func aScriptComesFromAFileWithScript() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline").status == 0)
        try Data("add One\nadd Two --under 1\n".utf8).write(to: URL(fileURLWithPath: box.path("changes.txt")))
        let result = try box.run("batch", "doc.outline", "--script", "changes.txt")
        #expect(result.status == 0 && result.stdout == "1\n1.1\n", "\(result)")
        #expect(try box.run("show", "doc.outline").stdout == "1 One\n  1.1 Two\n")
    }

    static let badLines: [(line: String, message: String)] = [
        ("move 9 --up", "stdin:3 (move 9 --up): doc.outline: 9: there is no item 9. The nearest existing item is /, which has 2 children."),
        ("edit 1 --txt x", "stdin:3 (edit 1 --txt x): Unknown option '--txt'. Did you mean '--text'?"),
        ("show", "stdin:3 (show): show is not a command a batch can run; use add, collapse, copy, edit, expand, move, remove, tag, untag."),
        ("edit 1 --done --not-done", "stdin:3 (edit 1 --done --not-done): --done and --not-done cannot be combined; give one of them."),
        (
            "remove ' 1'",
            "stdin:3 (remove ' 1'): doc.outline: \" 1\" begins with a space. Write the path without spaces, such as 2.1.3, / for the root, or #ID."
        ),
        (
            "add --help",
            "stdin:3 (add --help): --help is not an edit: run `outline add --help` to read how add is written; "
                + "on a batch line leave out FILE, which the batch gives."
        ),
        // An #ID left unquoted is a comment; the message says so.
        (
            "move 2 --under #103",
            "stdin:3 (move 2 --under #103): Missing value for '--under <path>'. (# starts a comment here; quote an #ID, as in '#103'.)"
        ),
        (
            "add \"never closed",
            "standard input: line 3: the double quote opened on this line is never closed. Close the quote; a quoted text may span lines, but must end."
        ),
    ]

    @Test(arguments: formats, badLines)
    func oneBadLineLeavesTheDocumentUntouchedAndIsNamed(format: DocumentFormat, bad: (line: String, message: String)) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", format: format, items: [("Groceries", []), ("Work", [])])
        let before = try box.bytes("doc.outline")
        let result = try Self.runBatch(box, "add First --under 1\n\n\(bad.line)\nadd Last\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        let expected =
            bad.message.hasPrefix("stdin:")
            ? "Error: standard input: line 3 (" + bad.message.dropFirst("stdin:3 (".count) + " Nothing was changed: the document is as it was.\n"
            : "Error: " + bad.message + "\n"
        #expect(result.stderr == expected, "\(result)")
        #expect(try box.bytes("doc.outline") == before)
        #expect(try box.temporaries().isEmpty)
    }

    @Test func aQueryErrorKeepsItsCaretDiagramBelowTheSentence() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline").status == 0)
        let result = try Self.runBatch(box, "add One\nedit --where 'text CONTIANS 1' --done\n")
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Error: standard input: line 2 (edit --where 'text CONTIANS 1' --done): doc.outline: column 6 of the query: \
                unknown operator "CONTIANS". Did you mean CONTAINS? Compare with ==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, \
                ENDSWITH, LIKE, MATCHES, IN or BETWEEN. Nothing was changed: the document is as it was.
                  text CONTIANS 1
                       ^

                """, "\(result)")
    }

    @Test func aByteOrderMarkBeforeTheFirstLineIsSkipped() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline").status == 0)
        let result = try Self.runBatch(box, "\u{FEFF}add One\nadd Two --under 1\n")
        #expect(result.status == 0 && result.stdout == "1\n1.1\n", "\(result)")
        #expect(try box.run("show", "doc.outline").stdout == "1 One\n  1.1 Two\n")
    }

    /// Lines are parsed while the document opens, yet a line that fails when applied is named
    /// before a later line that cannot be parsed.
    @Test func theFirstFailingLineIsNamedWhenALaterOneCannotBeParsed() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", [])])
        let before = try box.bytes("doc.outline")
        let result = try Self.runBatch(box, "add First --under 1\nremove 1.2\nedit 1 --txt x\n")
        #expect(result.status == 1 && result.stdout == "", "\(result)")
        #expect(
            result.stderr
                == "Error: standard input: line 2 (remove 1.2): doc.outline: 1.2: there is no item 1.2. The nearest existing item is 1, "
                + "which has 1 child. Nothing was changed: the document is as it was.\n", "\(result)")
        #expect(try box.bytes("doc.outline") == before)
    }

    /// Each line is one step of the document's undo history, named as the command alone would name it.
    @Test func eachLineIsOneUndoStep() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk"])])
        let file = try OutlineFile.openForEditing(box.path("doc.outline"))
        let script = try BatchScript(
            parsing: """
                add Bread --under 1 --note "Rye"
                edit 1.1 --text "Oat milk" --note "Big" --done
                tag 1.1 dairy work
                copy 1 --under /
                edit 1 --done --recursive
                """, name: "script")
        for command in script.commands { _ = try Batch.parse(command, document: box.path("doc.outline")).apply(to: file) }
        let context = file.document.context
        var names: [String] = []
        while let name = context.undoActionName {
            names.append(name)
            context.undo()
        }
        #expect(
            names == [
                "Edit 3 items", "Copy item “Groceries”", "Tag “Oat milk” with “dairy”, “work”", "Edit text of “Milk” and 2 more changes",
                "Add item “Bread”",
            ])
        #expect(file.document.renderText() == "1 Groceries\n  1.1 Milk\n")
    }

    @Test func aScriptOfCommentsOnlyChangesNothing() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", [])])
        let before = try box.bytes("doc.outline")
        let result = try Self.runBatch(box, "# nothing yet\n\n   # still nothing\n")
        #expect(result.status == 0 && result.stdout == "" && result.stderr == "", "\(result)")
        #expect(try box.bytes("doc.outline") == before)
    }
}
