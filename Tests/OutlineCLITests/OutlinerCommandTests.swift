import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// What outliner users expect from the command line, in both store formats: tags, folding,
/// copying subtrees, editing every match or a whole subtree, new ids, counting and narrowing
/// finds.
@Suite struct OutlinerCommandTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    /// Groceries (Milk, Bread (Rye)), Work (Report), in `format`.
    static func sample(_ format: DocumentFormat) throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument(
            "doc.outline", version: "Outline 3", format: format,
            items: [("Groceries", ["Milk", "Bread"]), ("Work", ["Report"])])
        try expect(box, ["add", "doc.outline", "Rye", "--under", "1.2"], prints: "1.2.1\n")
        return box
    }

    /// Runs `arguments`, expecting success, `stdout` and an empty stderr.
    @discardableResult
    static func expect(
        _ box: CLISandbox, _ arguments: [String], prints stdout: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        let result = try box.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        if let stdout { #expect(result.stdout == stdout, "\(arguments): \(result)", sourceLocation: sourceLocation) }
        #expect(result.stderr == "", "\(arguments): \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// The document's format did not change by editing it.
    static func expectFormat(_ box: CLISandbox, _ format: DocumentFormat, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let info = try box.run("info", "doc.outline", "--json").jsonObject()
        #expect(info["format"] as? String == format.rawValue, sourceLocation: sourceLocation)
    }

    @Test(arguments: formats)
    func tagsAreAddedShownCountedAndRemoved(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["tag", "doc.outline", "1.1", "dairy", "this week"], prints: "")
        try Self.expect(box, ["tag", "doc.outline", "1.2.1", "dairy"], prints: "")
        try Self.expect(box, ["tag", "doc.outline", "2", "work"], prints: "")
        let again = try box.run("tag", "doc.outline", "2", "work")
        #expect(again.status == 0 && again.stderr == "Note: doc.outline: 2 has this tag already; nothing changed.\n", "\(again)")
        try Self.expect(
            box, ["show", "doc.outline"],
            prints: """
                1 Groceries
                  1.1 Milk  @dairy @"this week"
                  1.2 Bread
                    1.2.1 Rye  @dairy
                2 Work  @work
                  2.1 Report

                """)
        try Self.expect(box, ["tags", "doc.outline"], prints: "dairy  2 items\nthis week  1 item\nwork  1 item\n")
        try Self.expect(
            box, ["tags", "doc.outline", "--json"],
            prints: """
                [
                  {"name": "dairy", "count": 2},
                  {"name": "this week", "count": 1},
                  {"name": "work", "count": 1}
                ]

                """)
        let json = try box.run("show", "doc.outline", "--json").shownOutline()
        #expect(json.items[0].children[0].tags == ["dairy", "this week"])
        try Self.expect(box, ["find", "doc.outline", "text == \"Rye\""], prints: "1.2.1 Rye  @dairy\n")

        try Self.expect(box, ["untag", "doc.outline", "1.1", "dairy"], prints: "")
        try Self.expect(box, ["untag", "doc.outline", "2", "--all"], prints: "")
        try Self.expect(box, ["tags", "doc.outline"], prints: "dairy  1 item\nthis week  1 item\n")
        let none = try box.run("untag", "doc.outline", "2", "--all")
        #expect(none.status == 0 && none.stderr == "Note: doc.outline: 2 has no tags; nothing changed.\n", "\(none)")
        try Self.expectFormat(box, format)
    }

    @Test func badTagNamesAndOldVersionsAreRefused() throws {
        let box = try Self.sample(.binary)
        let comma = try box.run("tag", "doc.outline", "1", "a,b")
        #expect(comma.status == 1)
        #expect(
            comma.stderr == "Error: doc.outline: 1: the tag name \"a,b\" contains a comma. Give each tag as a word or words of its own, "
                + "such as work or \"to read\"; OPML lists tags separated by commas.\n", "\(comma)")
        let space = try box.run("tag", "doc.outline", "1", " a")
        #expect(space.status == 1 && space.stderr.contains("begins or ends with a space"), "\(space)")
        let root = try box.run("tag", "doc.outline", "/", "a")
        #expect(root.status == 1 && root.stderr.contains("the root item cannot be tagged"), "\(root)")
        let usage = try box.run("tag", "doc.outline", "1")
        #expect(usage.status == 64 && usage.stderr.hasPrefix("Error: Give at least one tag NAME after the PATH."), "\(usage)")
    }

    @Test(arguments: formats)
    func collapsedItemsHideTheirChildrenInShow(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["collapse", "doc.outline", "1"], prints: "")
        try Self.expect(box, ["show", "doc.outline"], prints: "1 Groceries [+2]\n2 Work\n  2.1 Report\n")
        try Self.expect(
            box, ["show", "doc.outline", "--expand-all"],
            prints: """
                1 Groceries
                  1.1 Milk
                  1.2 Bread
                    1.2.1 Rye
                2 Work
                  2.1 Report

                """)
        // The item named by --under shows its children even when collapsed; JSON holds every item.
        try Self.expect(box, ["show", "doc.outline", "--under", "1"], prints: "1 Groceries\n  1.1 Milk\n  1.2 Bread\n    1.2.1 Rye\n")
        let json = try box.run("show", "doc.outline", "--json").shownOutline()
        #expect(json.items[0].collapsed && json.items[0].children.count == 2)
        let already = try box.run("collapse", "doc.outline", "1")
        #expect(already.stderr == "Note: doc.outline: 1 is collapsed already; nothing changed.\n", "\(already)")

        try Self.expect(box, ["expand", "doc.outline", "1"], prints: "")
        try Self.expect(box, ["collapse", "doc.outline", "--all"], prints: "")
        try Self.expect(box, ["show", "doc.outline"], prints: "1 Groceries [+2]\n2 Work [+1]\n")
        try Self.expect(box, ["expand", "doc.outline", "1", "--all"], prints: "")
        try Self.expect(box, ["show", "doc.outline"], prints: "1 Groceries\n  1.1 Milk\n  1.2 Bread\n    1.2.1 Rye\n2 Work [+1]\n")
        try Self.expect(box, ["find", "doc.outline", "collapsed == YES"], prints: "2 Work\n")
        let root = try box.run("collapse", "doc.outline", "/")
        #expect(root.status == 1 && root.stderr.contains("the root item is always expanded"), "\(root)")
        // An item without children has nothing to fold; one folded before its children were
        // removed is unfolded by expand --all, so that the next child added shows.
        let leaf = try box.run("collapse", "doc.outline", "1.1")
        #expect(leaf.status == 1 && leaf.stderr.contains("1.1: the item has no children to fold"), "\(leaf)")
        try Self.expect(box, ["remove", "doc.outline", "2.1"])
        try Self.expect(box, ["expand", "doc.outline", "--all"], prints: "")
        try Self.expect(box, ["find", "doc.outline", "collapsed == YES"], prints: "")
        try Self.expect(box, ["add", "doc.outline", "Plan", "--under", "2"])
        try Self.expect(box, ["show", "doc.outline", "--under", "2"], prints: "2 Work\n  2.1 Plan\n")
        try Self.expectFormat(box, format)
    }

    @Test(arguments: formats)
    func copyDuplicatesASubtreeWithEverything(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["edit", "doc.outline", "1.2", "--note", "Sliced", "--done"])
        try Self.expect(box, ["tag", "doc.outline", "1.2.1", "dark"])
        try Self.expect(box, ["collapse", "doc.outline", "1.2"])
        try Self.expect(box, ["copy", "doc.outline", "1.2", "--under", "2", "--at", "1"], prints: "2.1\n")
        let copied = try Self.expect(box, ["copy", "doc.outline", "1", "--under", "1.2", "--id"])
        #expect(copied.stdout.hasPrefix("#"), "\(copied)")
        let id = copied.stdout.trimmingCharacters(in: .newlines)
        try Self.expect(
            box, ["show", "doc.outline", "--under", id, "--expand-all"],
            prints: """
                1.2.2 Groceries
                  1.2.2.1 Milk
                  1.2.2.2 [x] Bread
                          Sliced
                    1.2.2.2.1 Rye  @dark

                """)
        let json = try box.run("show", "doc.outline", "--json").shownOutline()
        let breadCopy = json.items[1].children[0]
        #expect(breadCopy == ShownItem("Bread", note: "Sliced", done: true, collapsed: true, [ShownItem("Rye", tags: ["dark"])]))
        #expect(json.items[1].children[1] == ShownItem("Report"))
        // Copying into its own subtree copies the subtree as it was.
        #expect(json.items[0].children[1].children.map(\.text) == ["Rye", "Groceries"])
        #expect(json.items[0].children[1].children[1].children.map(\.text) == ["Milk", "Bread"])
        #expect(json.items[0].children[1].children[1].children[1].children.map(\.text) == ["Rye"])
        try Self.expect(box, ["tags", "doc.outline"], prints: "dark  3 items\n")
        try Self.expectFormat(box, format)
    }

    @Test(arguments: formats)
    func editChangesEveryMatchOrAWholeSubtree(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["edit", "doc.outline", "1", "--done", "--recursive"], prints: "Changed 4 items.\n")
        try Self.expect(box, ["find", "doc.outline", "done == YES", "--count"], prints: "4\n")
        try Self.expect(
            box, ["edit", "doc.outline", "--where", "text BEGINSWITH \"R\"", "--not-done", "--note", "checked"],
            prints: "Changed 2 items.\n")
        try Self.expect(box, ["find", "doc.outline", "done == YES"], prints: "1 [x] Groceries\n1.1 [x] Milk\n1.2 [x] Bread\n")
        try Self.expect(box, ["find", "doc.outline", "note == \"checked\""], prints: "1.2.1 Rye\n2.1 Report\n")
        try Self.expect(box, ["edit", "doc.outline", "--where", "text == \"nothing\"", "--done"], prints: "No item matches; nothing changed.\n")
        let both = try box.run("edit", "doc.outline", "1", "--where", "done == NO", "--done")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: Give PATH or --where QUERY, not both."), "\(both)")
        let neither = try box.run("edit", "doc.outline", "--done")
        #expect(neither.status == 64 && neither.stderr.hasPrefix("Error: Say which items: give PATH, or --where QUERY."), "\(neither)")
        try Self.expectFormat(box, format)
    }

    @Test func editWhereTakesVariablesAsFindDoes() throws {
        let box = try Self.sample(.binary)
        try Self.expect(box, ["edit", "doc.outline", "--where", "text == $item", "--var", "item=Milk", "--done"], prints: "Changed 1 item.\n")
        try Self.expect(box, ["find", "doc.outline", "done == YES"], prints: "1.1 [x] Milk\n")
        let missing = try box.run("edit", "doc.outline", "--where", "text == $item", "--done")
        #expect(missing.status == 64 && missing.stderr.hasPrefix("Error: the query uses $item; give it a value with --var item=VALUE."), "\(missing)")
        let withoutQuery = try box.run("edit", "doc.outline", "1", "--var", "item=Milk", "--done")
        #expect(
            withoutQuery.status == 64 && withoutQuery.stderr.hasPrefix("Error: --var item needs a query that uses $item."), "\(withoutQuery)")
    }

    @Test(arguments: formats)
    func addPrintsThePathOrTheIdAndTakesTextFromAFile(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        let long = String(repeating: "A long line of text. ", count: 20_000)  // 420,000 bytes, over what a command line takes
        try Data((long + "\n").utf8).write(to: URL(fileURLWithPath: box.path("title.txt")))
        try Data("First line\nsecond line\n".utf8).write(to: URL(fileURLWithPath: box.path("note.txt")))
        try Self.expect(box, ["add", "doc.outline", "--text-file", "title.txt", "--note-file", "note.txt"], prints: "3\n")
        let id = try Self.expect(box, ["add", "doc.outline", "Eggs", "--under", "1", "--at", "1", "--id"]).stdout
        #expect(id.hasPrefix("#") && id.hasSuffix("\n"), "\(id)")
        try Self.expect(box, ["show", "doc.outline", "--under", id.trimmingCharacters(in: .newlines)], prints: "1.1 Eggs\n")
        let json = try box.run("show", "doc.outline", "--json").shownOutline()
        #expect(json.items[2].text == long)  // the final newline is not part of the text
        #expect(json.items[2].note == "First line\nsecond line")
        let both = try box.run("add", "doc.outline", "X", "--text-file", "title.txt")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: Give the text or --text-file, not both."), "\(both)")
        try Data([0x41, 0xFF]).write(to: URL(fileURLWithPath: box.path("latin1.txt")))
        let invalid = try box.run("add", "doc.outline", "--text-file", "latin1.txt")
        #expect(
            invalid.status == 1
                && invalid.stderr
                    == "Error: latin1.txt: the text is not valid UTF-8. Convert the file to UTF-8 (for example with iconv) and try again.\n",
            "\(invalid)")
        try Self.expectFormat(box, format)
    }

    @Test(arguments: formats)
    func findCountsAndLooksBelowAnItem(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["find", "doc.outline", "text CONTAINS[c] \"r\"", "--count"], prints: "5\n")
        try Self.expect(box, ["find", "doc.outline", "text CONTAINS[c] \"r\"", "--count", "--json"], prints: "{\"count\": 5}\n")
        try Self.expect(box, ["find", "doc.outline", "text CONTAINS[c] \"r\"", "--under", "1"], prints: "1.2 Bread\n1.2.1 Rye\n")
        try Self.expect(
            box, ["find", "doc.outline", "TRUEPREDICATE", "--under", "1.2", "--json"],
            prints: """
                [
                  {"path": "1.2.1", "id": 108, "depth": 3, "text": "Rye", "note": null, "done": false, "tags": []}
                ]

                """)
        try Self.expect(box, ["find", "doc.outline", "TRUEPREDICATE", "--under", "2", "--count"], prints: "1\n")
    }

    @Test(arguments: formats)
    func removeSaysWhatItRemoved(format: DocumentFormat) throws {
        let box = try Self.sample(format)
        try Self.expect(box, ["remove", "doc.outline", "1.2.1"], prints: "Removed “Rye”.\n")
        try Self.expect(box, ["remove", "doc.outline", "2"], prints: "Removed “Work” and 1 item below it.\n")
        try Self.expect(box, ["add", "doc.outline", "Cheese", "--under", "1.1"])
        try Self.expect(box, ["remove", "doc.outline", "1"], prints: "Removed “Groceries” and 3 items below it.\n")
        try Self.expect(box, ["show", "doc.outline"], prints: "")
    }
}
