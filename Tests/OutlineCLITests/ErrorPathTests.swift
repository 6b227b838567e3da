import Foundation
import OutlineKit
import Testing

/// Every way a command can fail: exit 1 with `Error: FILE: where: what. What to do.` on stderr
/// and the file unchanged, or exit 64 for bad usage; never a crash.
@Suite struct ErrorPathTests {
    /// A document with Groceries (Milk, Bread) and Work.
    static func sample() throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        return box
    }

    static let missingFileCommands: [[String]] = [
        ["show", "missing.outline"], ["add", "missing.outline", "X"], ["edit", "missing.outline", "1", "--text", "x"],
        ["remove", "missing.outline", "1"], ["move", "missing.outline", "1", "--up"],
        ["find", "missing.outline", "done == NO"], ["info", "missing.outline"], ["validate", "missing.outline"],
        ["convert", "missing.outline", "out.outline"], ["migrate", "missing.outline"],
        ["migrate", "missing.outline", "--dry-run"],
    ]

    @Test(arguments: missingFileCommands)
    func aMissingFileIsAnErrorNamingIt(arguments: [String]) throws {
        let box = try CLISandbox()
        let result = try box.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(!result.crashed)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: missing.outline: cannot open: no such file or folder. Check the path.\n")
        #expect(!box.exists("out.outline"))
    }

    static let missingPaths: [(arguments: [String], error: String)] = [
        (["show", "doc.outline", "--under", "4.2"], "4.2: there is no item 4.2. The nearest existing item is /, which has 2 children."),
        (["edit", "doc.outline", "1.5", "--done"], "1.5: there is no item 1.5. The nearest existing item is 1, which has 2 children."),
        (["remove", "doc.outline", "1.1.1"], "1.1.1: there is no item 1.1.1. The nearest existing item is 1.1, which has no children."),
        (["add", "doc.outline", "X", "--under", "2.1"], "2.1: there is no item 2.1. The nearest existing item is 2, which has no children."),
        (["move", "doc.outline", "1", "--under", "3"], "3: there is no item 3. The nearest existing item is /, which has 2 children."),
        (["move", "doc.outline", "1.3", "--up"], "1.3: there is no item 1.3. The nearest existing item is 1, which has 2 children."),
        (["edit", "doc.outline", "#999", "--done"], "#999: there is no item with id 999. Run `outline show FILE --ids` to see the ids."),
        (
            ["edit", "doc.outline", "#abc", "--done"],
            "#abc: \"#abc\" is not an item id. Write an id as # followed by the number `outline show --ids` prints, such as #102."
        ),
        (
            ["edit", "doc.outline", "1.x", "--done"],
            "1.x: \"1.x\" is not an item path. Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID."
        ),
    ]

    @Test(arguments: missingPaths)
    func aPathThatDoesNotExistNamesTheNearestParent(arguments: [String], error: String) throws {
        let box = try Self.sample()
        let before = try box.bytes("doc.outline")
        let result = try box.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: doc.outline: \(error)\n")
        #expect(try box.bytes("doc.outline") == before)
    }

    static let refusedEdits: [(arguments: [String], error: String)] = [
        (
            ["edit", "doc.outline", "/", "--text", "x"],
            "/: the root item cannot be edited. Edit the top-level items (1, 2, ...) instead, or all of them with --where 'TRUEPREDICATE'."
        ),
        // Paths are strict: an item that only looks like the one named is never touched.
        (["remove", "doc.outline", " 1"], "\" 1\" begins with a space. Write the path without spaces, such as 2.1.3, / for the root, or #ID."),
        (["remove", "doc.outline", "1 "], "\"1 \" ends with a space. Write the path without spaces, such as 2.1.3, / for the root, or #ID."),
        (
            ["remove", "doc.outline", "+1"],
            "+1: \"+1\" is not an item path. Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID."
        ),
        (
            ["remove", "doc.outline", "01"],
            "01: \"01\" is not an item path. Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID."
        ),
        (
            ["edit", "doc.outline", "1. 1", "--done"],
            "1. 1: \"1. 1\" is not an item path. Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID."
        ),
        (["remove", "doc.outline", "/"], "/: the root item cannot be removed. Remove its children instead."),
        (["move", "doc.outline", "1", "--up"], "1: the item is already first among its siblings."),
        (["move", "doc.outline", "2", "--down"], "2: the item is already last among its siblings."),
        (
            ["move", "doc.outline", "1.1", "--indent"],
            "1.1: the first item among its siblings cannot be indented. Only an item with a previous sibling can become that sibling's child."
        ),
        (["move", "doc.outline", "1", "--outdent"], "1: a top-level item cannot be outdented."),
        (
            ["move", "doc.outline", "1", "--under", "1.2"],
            "1: an item cannot be moved under itself or one of its descendants. Choose a destination outside the item's subtree."
        ),
        (["add", "doc.outline", "X", "--under", "1", "--at", "4"], "1: position 4 is outside 1...3. Give a position between 1 and 3."),
        // Past the end of the destination: named by the destination, not the item moved or copied.
        (["move", "doc.outline", "2", "--under", "1", "--at", "5"], "1: position 5 is outside 1...3. Give a position between 1 and 3."),
        (["move", "doc.outline", "1.1", "--under", "1", "--at", "3"], "1: position 3 is outside 1...2. Give a position between 1 and 2."),
        (["copy", "doc.outline", "2", "--under", "1", "--at", "5"], "1: position 5 is outside 1...3. Give a position between 1 and 3."),
        (
            ["find", "doc.outline", "texts CONTAINS \"m\""],
            "column 1 of the query: \"texts\" is not a property of entity Item. Did you mean \"text\"?\n  texts CONTAINS \"m\"\n  ^"
        ),
    ]

    @Test(arguments: refusedEdits)
    func aRefusedEditLeavesTheFileAsItWas(arguments: [String], error: String) throws {
        let box = try Self.sample()
        let before = try box.bytes("doc.outline")
        let result = try box.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: doc.outline: \(error)\n")
        #expect(try box.bytes("doc.outline") == before)
        #expect(!box.exists("doc.outline.bak"))
    }

    static let badUsage: [(arguments: [String], error: String)] = [
        (["frobnicate"], "Unexpected argument 'frobnicate'"),
        (["show"], "Missing expected argument '<file>'"),
        (["show", "doc.outline", "--depth", "0"], "--depth must be 1 or more (got 0)."),
        (["show", "doc.outline", "--bogus"], "Unknown option '--bogus'"),
        // An unknown option wins over what the command checks itself, and says what was meant.
        (["edit", "doc.outline", "1", "--txt", "x"], "Unknown option '--txt'. Did you mean '--text'?"),
        (["add", "doc.outline", "--txt"], "Unknown option '--txt'. Did you mean '--text-file'?"),
        (["move", "doc.outline", "1", "--undr", "2", "--up"], "Unknown option '--undr'. Did you mean '--under'?"),
        (["show", "doc.outline", "--dept", "0"], "Unknown option '--dept'. Did you mean '--depth'?"),
        // An option that names a format: convert takes it with --to; show prints text already.
        (["convert", "doc.outline", "out.txt", "--txt"], "Unknown option '--txt'. Did you mean '--to text'?"),
        (["show", "doc.outline", "--txt"], "Unknown option '--txt'. show prints text already; leave the option out."),
        (
            ["show", "doc.outline", "--md"],
            "Unknown option '--md'. To write the outline as markdown, use `outline convert FILE OUTPUT --to markdown` (- as OUTPUT writes to standard output)."
        ),
        (["add", "doc.outline"], "Give the item's text, or --text-file FILE (- for standard input)."),
        (["add", "doc.outline", "X", "--at", "0"], "--at must be 1 or more (got 0)."),
        (["add", "doc.outline", "X", "--at", "two"], "The value 'two' is invalid for '--at <n>'"),
        (["edit", "doc.outline", "1"], "Nothing to change: give --text, --note, --done or --not-done."),
        (["edit", "doc.outline", "1", "--done", "--not-done"], "--done and --not-done cannot be combined; give one of them."),
        (["move", "doc.outline", "1"], "Say where to: give --under PATH, --up, --down, --indent or --outdent."),
        (["move", "doc.outline", "1", "--up", "--down"], "--up and --down cannot be combined; give one of them."),
        (["move", "doc.outline", "1", "--under", "2", "--indent"], "--under and --indent cannot be combined; give one of them."),
        (["move", "doc.outline", "1", "--up", "--at", "2"], "--at needs --under."),
        (["create", "new.outline", "--format", "pdf"], "The value 'pdf' is invalid for '--format <format>'"),
        (["convert", "doc.outline", "out.pdf"], "out.pdf: the extension .pdf names no format this tool writes."),
        (["convert", "doc.outline", "out"], "out: the output has no file name extension to choose its format by."),
        (["convert", "doc.outline", "out.outline", "--to", "pdf"], "--to pdf is not a format; use one of"),
        (["convert", "doc.outline", "out.outline", "--level", "10"], "--level must be between 0 and 9 (got 10)."),
        (["convert", "doc.outline", "out.md", "--level", "3"], "--level applies only to binary output."),
        (["convert", "doc.outline", "out.md", "--flavor", "omni"], "--flavor applies only to OPML output."),
        (
            ["migrate", "doc.outline", "--dry-run", "--output", "x.outline"],
            "--dry-run writes nothing; it cannot be combined with --output or --no-backup."
        ),
        (["schema", "diff", "model", "--from", "A"], "Missing expected argument '--to <name>'"),
    ]

    @Test(arguments: badUsage)
    func badUsageExitsWith64(arguments: [String], error: String) throws {
        let box = try Self.sample()
        let before = try box.bytes("doc.outline")
        let result = try box.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(error)"), "\(result)")
        #expect(result.stderr.contains("Usage: outline") || result.stderr.contains("USAGE: outline"), "\(result)")
        #expect(try box.bytes("doc.outline") == before)
        #expect(!box.exists("out.outline") && !box.exists("new.outline"))
    }

    @Test func createRefusesToReplaceAFileWithoutForce() throws {
        let box = try Self.sample()
        let before = try box.bytes("doc.outline")
        let refused = try box.run("create", "doc.outline")
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: doc.outline: the file already exists. Choose another name, or pass --force to replace it.\n")
        #expect(try box.bytes("doc.outline") == before)

        let forced = try box.run("create", "doc.outline", "--force")
        #expect(forced.status == 0 && forced.stdout == "" && forced.stderr == "", "\(forced)")
        let shown = try box.run("show", "doc.outline", "--json")
        #expect(try shown.shownOutline() == ShownOutline(schemaVersion: "Outline 3", items: []))
    }

    @Test func aFolderIsNotADocument() throws {
        let box = try CLISandbox()
        try FileManager.default.createDirectory(atPath: box.path("folder.outline"), withIntermediateDirectories: false)
        let shown = try box.run("show", "folder.outline")
        #expect(shown.status == 1)
        #expect(shown.stderr == "Error: folder.outline: cannot open: it is a folder. Choose a file, not a folder.\n")
        let created = try box.run("create", "folder.outline", "--force")
        #expect(created.status == 1)
        #expect(created.stderr == "Error: folder.outline: a folder with this name exists. Choose another name.\n")
    }

    static let damagedFixtures: [(fixture: String, error: String)] = [
        ("truncated-body.outline", "byte 1132: the compressed body ends early (expected 40 more bytes)."),
        ("flipped-body-bit.outline", "byte 1030: the body (bytes 1030 to 1171) fails its checksum"),
        ("not-an-outline.outline", "byte 0: not an Outline document: it is UTF-8 text, neither binary nor XML"),
        ("future-version.outline", "byte 8: the file has format version 2.0; this version reads 1.x."),
    ]

    @Test(arguments: damagedFixtures)
    func aDamagedFileIsReportedWithItsPlace(fixture: String, error: String) throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/\(fixture)", as: "bad.outline")
        let before = try box.bytes("bad.outline")
        for arguments in [["show", "bad.outline"], ["add", "bad.outline", "X"], ["convert", "bad.outline", "out.outline"]] {
            let result = try box.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(!result.crashed)
            #expect(result.stderr.hasPrefix("Error: bad.outline: \(error)"), "\(result)")
        }
        #expect(try box.bytes("bad.outline") == before)
        #expect(!box.exists("out.outline"))
    }

    @Test(arguments: [
        ["show", "notes.outline"], ["add", "notes.outline", "Milk"], ["move", "notes.outline", "1", "--down"],
        ["find", "notes.outline", "text == 'x'"],
    ])
    func outlineCommandsOnADocumentOfAnotherModelSaySoAndPointToDump(arguments: [String]) throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook", notes: [("Plan", 3)])
        let before = try box.bytes("notes.outline")
        let result = try box.run(arguments)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: notes.outline: Notebook: the document is not an outline: its model has the entity Note and no "
                + "outline Item (an entity with order, text or title, children and parent). Run `outline dump notes.outline` to list its "
                + "objects; info, validate, migrate and convert (to binary or XML) work on it too.\n")
        #expect(try box.bytes("notes.outline") == before)
    }

    @Test func aClosedPipeDoesNotKillTheTool() throws {
        let box = try Self.sample()
        let process = Process()
        process.executableURL = try CLI.binary()
        process.arguments = ["show", box.path("doc.outline")]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try pipe.fileHandleForReading.close()
        try process.runToEnd()
        #expect(process.terminationReason == .exit)
    }
}
