import Foundation
import OutlineKit
import Testing

/// `outline show` and `outline find` output.
@Suite struct ShowFindTests {
    /// Groceries (Milk [note, done], Bread (Rye)), Work.
    static func sample() throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        for arguments in [
            ["edit", "doc.outline", "1.1", "--note", "Oat, not soy.\nTwo cartons.", "--done"],
            ["add", "doc.outline", "Rye", "--under", "1.2"],
        ] {
            let result = try box.run(arguments)
            #expect(result.status == 0, "\(result)")
        }
        return box
    }

    @Test func showPrintsANumberedIndentedTree() throws {
        let box = try Self.sample()
        let result = try box.run("show", "doc.outline")
        #expect(result.status == 0 && result.stderr == "")
        #expect(
            result.stdout == """
                1 Groceries
                  1.1 [x] Milk
                      Oat, not soy.
                      Two cartons.
                  1.2 Bread
                    1.2.1 Rye
                2 Work

                """)
    }

    @Test func showTakesASubtreeAndADepth() throws {
        let box = try Self.sample()
        #expect(try box.run("show", "doc.outline", "--depth", "1").stdout == "1 Groceries [+2]\n2 Work\n")
        #expect(
            try box.run("show", "doc.outline", "--under", "1", "--depth", "1").stdout
                == "1 Groceries\n  1.1 [x] Milk\n      Oat, not soy.\n      Two cartons.\n  1.2 Bread [+1]\n")
        #expect(try box.run("show", "doc.outline", "--under", "1.2").stdout == "1.2 Bread\n  1.2.1 Rye\n")
        #expect(try box.run("show", "doc.outline", "--under", "2").stdout == "2 Work\n")
        #expect(try box.run("show", "doc.outline", "--under", "/", "--depth", "1").stdout == "1 Groceries [+2]\n2 Work\n")
        let json = try box.run("show", "doc.outline", "--under", "1", "--depth", "1", "--json").shownOutline()
        #expect(
            json
                == ShownOutline(
                    schemaVersion: "Outline 3",
                    items: [
                        ShownItem(
                            "Groceries", [ShownItem("Milk", note: "Oat, not soy.\nTwo cartons.", done: true), ShownItem("Bread", hiddenChildren: 1)])
                    ]))
        let raw = try box.run("show", "doc.outline", "--depth", "1", "--json").stdout
        #expect(raw.contains(#"{"text": "Groceries", "note": null, "done": false, "collapsed": false, "tags": [], "childCount": 2}"#), "\(raw)")
        #expect(raw.contains(#"{"text": "Work", "note": null, "done": false, "collapsed": false, "tags": [], "childCount": 0, "children": []}"#))
    }

    @Test func showWithIDsPrintsThem() throws {
        let box = try Self.sample()
        let result = try box.run("show", "doc.outline", "--ids", "--depth", "1")
        #expect(result.stdout == "1 Groceries [+2]  #103\n2 Work  #106\n")
        let json = try box.run("show", "doc.outline", "--ids", "--depth", "1", "--json")
        #expect(json.stdout.hasPrefix("{\"schemaVersion\": \"Outline 3\", \"items\": [{\"id\": 103, \"text\": \"Groceries\""))
    }

    @Test func anEmptyOutlineShowsNothing() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "empty.outline").status == 0)
        let text = try box.run("show", "empty.outline")
        #expect(text.status == 0 && text.stdout == "" && text.stderr == "")
        #expect(try box.run("show", "empty.outline", "--json").stdout == "{\"schemaVersion\": \"Outline 3\", \"items\": []}\n")
    }

    @Test func findPrintsMatchesInDocumentOrder() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text CONTAINS[c] \"r\"")
        #expect(result.status == 0 && result.stderr == "")
        #expect(result.stdout == "1 Groceries\n1.2 Bread\n1.2.1 Rye\n2 Work\n")
        let notDone = try box.run("find", "doc.outline", "text CONTAINS[c] \"MILK\" AND done == NO")
        #expect(notDone.status == 0 && notDone.stdout == "")
        let done = try box.run("find", "doc.outline", "done == YES")
        #expect(done.stdout == "1.1 [x] Milk\n")
    }

    @Test func findPrintsJSON() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "note != nil OR text == \"Rye\"", "--json")
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                [
                  {"path": "1.1", "id": 104, "depth": 2, "text": "Milk", "note": "Oat, not soy.\\nTwo cartons.", "done": true, "tags": []},
                  {"path": "1.2.1", "id": 107, "depth": 3, "text": "Rye", "note": null, "done": false, "tags": []}
                ]

                """)
        let none = try box.run("find", "doc.outline", "text == \"nothing\"", "--json")
        #expect(none.stdout == "[]\n")
    }

    @Test func findWorksOnOlderDocumentsWithTheCurrentNames() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline", items: [("Groceries", ["Milk"])])
        let result = try box.run("find", "old.outline", "text == \"Milk\" AND done == NO")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(result.stdout == "1.1 Milk\n")
    }

    @Test func aBadQueryNamesTheColumn() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text CONTAINS")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: doc.outline: column "), "\(result)")
    }
}
