import Foundation
import OutlineStorage
import Testing

/// `outline find` with the whole predicate grammar, `--var`, and query errors shown with the
/// query and a caret under the column.
@Suite struct FindQueryTests {
    /// Groceries (Milk, Bread, Eggs), Work (Report), Home: in `format`.
    static func sample(_ format: DocumentFormat = .binary) throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument(
            "doc.outline", version: "Outline 3", format: format,
            items: [("Groceries", ["Milk", "Bread", "Eggs"]), ("Work", ["Report"]), ("Home", [])])
        let done = try box.run("edit", "doc.outline", "1.2", "--done")
        #expect(done.status == 0, "\(done)")
        return box
    }

    static let queries: [(String, [String], String)] = [
        ("SUBQUERY(children, $c, $c.done == YES).@count > 0", [], "1 Groceries\n"),
        ("children[FIRST].text == \"Milk\"", [], "1 Groceries\n"),
        ("children[LAST].text == \"Eggs\"", [], "1 Groceries\n"),
        ("children[1].text == \"Bread\"", [], "1 Groceries\n"),
        ("children[SIZE] == 1", [], "2 Work\n"),
        ("order + 1 == 0x3", [], "1.3 Eggs\n3 Home\n"),
        ("text BEGINSWITH[c] $prefix", ["--var", "prefix=b"], "1.2 [x] Bread\n"),
        ("order == $n", ["--var", "n=2"], "1.3 Eggs\n3 Home\n"),
        ("text == $t", ["--var", "t=\"Milk\""], "1.1 Milk\n"),
        ("order IN $orders AND parent.text == $p", ["--var", "orders={0, 2}", "--var", "$p=Groceries"], "1.1 Milk\n1.3 Eggs\n"),
        ("count(children) == 3 OR average(children.order) == 0", [], "1 Groceries\n2 Work\n"),
        ("ANY parent.children.parent.children.done == YES", [], "1.1 Milk\n1.2 [x] Bread\n1.3 Eggs\n"),
        ("text MATCHES \"(a+)+b|[A-Z][a-z]+\" AND order > 1", [], "1.3 Eggs\n3 Home\n"),
    ]

    @Test(arguments: [DocumentFormat.binary, .xml], queries.indices)
    func theWholeGrammarWorksFromTheCommandLine(format: DocumentFormat, index: Int) throws {
        let (query, options, expected) = Self.queries[index]
        let box = try Self.sample(format)
        let result = try box.run(["find", "doc.outline", query] + options)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == expected, "\(query)")
    }

    @Test func aSyntaxErrorShowsTheQueryWithACaret() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text CONTIANS \"milk\"")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                Error: doc.outline: column 6 of the query: unknown operator "CONTIANS". Did you mean CONTAINS? \
                Compare with ==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES, IN or BETWEEN.
                  text CONTIANS "milk"
                       ^

                """)
    }

    @Test(arguments: [
        // A binding error, at the end of the query, after a tab, on a later line, far into a long line.
        ("txt == \"a\"", "  txt == \"a\"\n  ^\n"),
        ("text ==", "  text ==\n         ^\n"),
        ("text\t== 5", "  text\t== 5\n      \t^\n"),
        ("done == YES AND\ntxt == 1", "  txt == 1\n  ^\n"),
        (
            String(repeating: "order == 1 OR ", count: 20) + "ordr == 2",
            "  …" + String(String(repeating: "order == 1 OR ", count: 20).suffix(50)) + "ordr == 2\n" + "   " + String(repeating: " ", count: 50)
                + "^\n"
        ),
    ])
    func theCaretPointsAtTheColumn(query: String, caret: String) throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", query)
        #expect(result.status == 1, "\(result)")
        let place = query.contains("\n") ? "Error: doc.outline: line 2, column 1 of the query: " : "Error: doc.outline: column "
        #expect(result.stderr.hasPrefix(place), "\(result)")
        #expect(result.stderr.hasSuffix(caret), "\(result.stderr.debugDescription)")
    }

    /// The column a message names counts characters, as a person does: an emoji with a skin
    /// tone is one.
    @Test func theColumnCountsCharacters() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text == \"👍🏽👍🏽\" extra")
        #expect(result.stderr.hasPrefix("Error: doc.outline: column 14 of the query: "), "\(result)")
    }

    /// Queries whose error names "foo", and how many columns the caret line puts before the
    /// caret: wide characters take two terminal columns, a combining accent none.
    static let wideQueries: [(query: String, spaces: Int)] = [
        ("text CONTAINS \"日本\" AND foo == 1", 27),
        ("text == \"🍎\" AND foo == 1", 19),
        ("text == \"e\u{301}\" AND foo == 1", 18),
    ]

    @Test(arguments: wideQueries)
    func theCaretCountsTerminalColumns(query: String, spaces: Int) throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", query)
        #expect(result.status == 1, "\(result)")
        let caret = "  " + query + "\n" + String(repeating: " ", count: spaces) + "^\n"
        #expect(result.stderr.hasSuffix(caret), "\(result.stderr.debugDescription)")
    }

    @Test(arguments: [
        (["find", "doc.outline", "text == $t"], "Error: the query uses $t; give it a value with --var t=VALUE."),
        (["find", "doc.outline", "text == $t", "--var", "u=1"], "Error: --var u: the query has no $u; its variables are $t."),
        (["find", "doc.outline", "text == \"a\"", "--var", "t=1"], "Error: --var t: the query has no $t."),
        (["find", "doc.outline", "text == $t", "--var", "t"], "Error: --var t: write NAME=VALUE, as in --var prefix=milk."),
        (["find", "doc.outline", "text == $t", "--var", "t=a", "--var", "t=b"], "Error: --var t is given twice; give each variable one value."),
    ])
    func variablesAreCheckedBeforeTheDocumentIsRead(arguments: [String], error: String) throws {
        let box = try Self.sample()
        let result = try box.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix(error + "\n"), "\(result)")
    }

    @Test func aVariableOfTheWrongKindIsATypeError() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text == $t", "--var", "t=3")
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("Error: doc.outline: column 6 of the query: cannot compare \"text\" (a string) with 3 (a number) using \"==\"."),
            "\(result)")
    }

    @Test func aPlaceholderHasNoArgumentFromTheCommandLine() throws {
        let box = try Self.sample()
        let result = try box.run("find", "doc.outline", "text == %@")
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "A query typed here has no arguments for placeholders: write the value itself, or a $variable given with --var NAME=VALUE."),
            "\(result)")
    }

    /// Issue 21: an undecidable MATCHES counted the item as not matching and exited 0.
    @Test func anUndecidableMatchesFailsNamingTheItemAndThePattern() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [(String(repeating: "a", count: 40), [])])
        let result = try box.run("find", "doc.outline", "text MATCHES \"(a*)*\\\\1b\"")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        // The item as the tool names it (#ID, usable as a PATH), not by its store id.
        let id = try box.run("find", "doc.outline", "TRUEPREDICATE", "--json").stdout
        let number = try #require(id.split(separator: "\"id\": ").dropFirst().first?.prefix { $0.isNumber })
        #expect(result.stderr.hasPrefix("Error: doc.outline: #\(number): MATCHES"), "\(result)")
        #expect(
            result.stderr.contains(
                ": MATCHES \"(a*)*\\\\1b\" (column 14 of the query) cannot be decided for this object within 1,000,000 backtracking steps."),
            "\(result)")
    }
}
