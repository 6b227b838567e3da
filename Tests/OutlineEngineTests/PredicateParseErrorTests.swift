import Testing

@testable import OutlineEngine

/// Every kind of syntax error reports its column, what was expected and what was found.
@Suite struct PredicateParseErrorTests {
    static let cases: [(format: String, expected: String)] = [
        // Lexing.
        ("text == \"milk", "column 9 of the query: unterminated string starting at column 9"),
        ("text == 'milk", "column 9 of the query: unterminated string starting at column 9"),
        ("text == \"milk\\", "column 9 of the query: unterminated string starting at column 9"),
        ("text == \"a\\qb\"", "column 11 of the query: unknown escape \"\\q\" in the string starting at column 9"),
        ("text == \"\\u{110000}\"", "column 10 of the query: invalid unicode escape \"\\u{110000}\""),
        ("text == \"\\u{zz}\"", "column 10 of the query: invalid unicode escape \"\\u{z\""),
        ("text == \"\\u12\"", "column 10 of the query: invalid unicode escape \"\\u12\""),
        ("text == \"\\uD800\"", "column 10 of the query: invalid unicode escape \"\\uD800\""),
        ("text ^ 5", "column 6 of the query: unexpected character \"^\""),
        ("text == 1 & order == 2", "column 11 of the query: unexpected character \"&\""),
        ("text == 1 | order == 2", "column 11 of the query: unexpected character \"|\""),
        ("order > -", "column 10 of the query: expected a value after \"-\" but the predicate ends"),
        ("text == %y", "column 9 of the query: unknown placeholder \"%y\""),
        ("text == 1 AND #", "column 15 of the query: expected a key after \"#\""),
        ("children.@ == 1", "column 10 of the query: expected a collection operator after \"@\""),
        // Structure.
        ("", "column 1 of the query: expected a predicate but the text is empty"),
        ("   ", "column 1 of the query: expected a predicate but the text is empty"),
        ("(text == \"a\"", "column 13 of the query: expected \")\" to close the \"(\" at column 1 but the predicate ends"),
        ("text == \"a\")", "column 12 of the query: found \")\" without a matching \"(\""),
        ("text == \"a\" text == \"b\"", "column 13 of the query: expected AND, OR or the end of the predicate after \"a\" but found \"text\""),
        ("text == \"a\" ADN order == 1", "column 13 of the query: expected AND, OR or the end of the predicate after \"a\" but found \"ADN\""),
        ("text == \"a\" AND", "column 16 of the query: expected a comparison after \"AND\" but the predicate ends"),
        ("text == \"a\" OR", "column 15 of the query: expected a comparison after \"OR\" but the predicate ends"),
        ("NOT", "column 4 of the query: expected a comparison after \"NOT\" but the predicate ends"),
        ("== 5", "column 1 of the query: expected a comparison but found \"==\""),
        ("@count > 1", "column 1 of the query: expected a comparison but found \"@count\""),
        // Operators and options.
        ("text CONTIANS \"milk\"", "column 6 of the query: unknown operator \"CONTIANS\""),
        ("done", "column 5 of the query: expected an operator after \"done\" but the predicate ends"),
        ("done AND order == 1", "column 6 of the query: expected an operator after \"done\" but found \"AND\""),
        ("parent.text 5", "column 13 of the query: expected an operator after \"parent.text\" but found \"5\""),
        ("text ==[x] \"a\"", "column 9 of the query: unknown comparison option \"x\" in \"[x]\""),
        ("text ==[cx] \"a\"", "column 10 of the query: unknown comparison option \"x\" in \"[cx]\""),
        ("text ==[] \"a\"", "column 9 of the query: expected comparison options c, d or cd after \"[\" but found \"]\""),
        ("text ==[c \"a\"", "column 11 of the query: expected \"]\" to close the options after \"c\" but found \"a\""),
        // Values.
        ("text == ", "column 9 of the query: expected a value after \"==\" but the predicate ends"),
        ("text = ", "column 8 of the query: expected a value after \"=\" but the predicate ends"),
        ("text LIKE", "column 10 of the query: expected a value after \"LIKE\" but the predicate ends"),
        ("text ==[c]", "column 11 of the query: expected a value after \"==[c]\" but the predicate ends"),
        ("text == AND", "column 9 of the query: expected a value after \"==\" but found \"AND\""),
        ("text == )", "column 9 of the query: expected a value after \"==\" but found \")\""),
        ("ANY 5 == 1", "column 5 of the query: expected a key path after \"ANY\" but found \"5\""),
        ("NONE == 1", "column 6 of the query: expected a key path after \"NONE\" but found \"==\""),
        ("text == FOO(1)", "column 9 of the query: unknown function \"FOO\""),
        ("SUBQUERY(children, c, c.done == YES).@count > 0", "column 20 of the query: expected a variable such as $x after \",\" but found \"c\""),
        // Lists.
        ("order BETWEEN 5", "column 15 of the query: BETWEEN needs a list of two values but found \"5\""),
        ("order BETWEEN {1, 2, 3}", "column 15 of the query: BETWEEN needs a list of two values but the list has 3"),
        ("order == {1, 2}", "column 10 of the query: a list can only follow IN or BETWEEN, not \"==\""),
        ("{1, 2} == order", "column 1 of the query: a list can only be the right side of IN or BETWEEN, or the left side of CONTAINS"),
        ("order IN {1, 2", "column 15 of the query: expected \",\" or \"}\" in the list starting at column 10 but the predicate ends"),
        ("order IN {1 2}", "column 13 of the query: expected \",\" or \"}\" in the list starting at column 10 but found \"2\""),
        ("order IN {1, }", "column 14 of the query: expected a value in the list after \",\" but found \"}\""),
        ("order IN {1, {2}}", "column 14 of the query: lists cannot be nested"),
        // Key paths.
        ("parent. == 1", "column 9 of the query: expected a key after \".\" but found \"==\""),
        ("children.@cnt > 1", "column 10 of the query: unknown collection operator \"@cnt\""),
        ("children.@count.order > 1", "column 17 of the query: nothing can follow \"@count\" in a key path, but found \"order\""),
        ("children.@sum > 1", "column 10 of the query: \"@sum\" needs the key of the values to aggregate after it"),
        ("children.@sum.@max.order > 1", "column 15 of the query: a key path can have only one collection operator, but \"@max\" follows \"@sum\""),
        // CAST.
        ("created == CAST(\"x\", \"NSDate\")", "column 17 of the query: cannot CAST \"x\" to NSDate"),
        ("created == CAST(1, \"NSFoo\")", "column 20 of the query: unknown CAST type \"NSFoo\""),
        ("created == CAST(1 \"NSDate\")", "column 19 of the query: expected \",\" after \"1\" but found \"NSDate\""),
        ("created == CAST 1", "column 17 of the query: expected \"(\" after \"CAST\" but found \"1\""),
        ("created == CAST(1, NSDate)", "column 20 of the query: expected a type name such as \"NSDate\" after \",\" but found \"NSDate\""),
        ("created == CAST(1, \"NSDate\"", "column 28 of the query: expected \")\" to close CAST after \"NSDate\" but the predicate ends"),
        ("price == CAST(\"1.2x\", \"NSDecimalNumber\")", "column 15 of the query: cannot CAST \"1.2x\" to NSDecimalNumber"),
    ]

    @Test(arguments: cases)
    func syntaxErrorsReportColumnAndWhatWasExpected(format: String, expected: String) throws {
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: format) }
        #expect(error.code == .invalidPredicate)
        #expect(error.locatedMessage == expected)
        #expect(error.hint != nil)
    }

    static let argumentCases: [(format: String, arguments: [FetchPredicate.Argument], expected: String)] = [
        ("text == %@", [], "column 9 of the query: \"%@\" has no argument: only 0 arguments were given"),
        ("text == %@ OR text == %@", ["a"], "column 23 of the query: \"%@\" has no argument: only 1 argument was given"),
        ("text == %@", ["a", "b"], "2 arguments were given but the format has only 1 placeholder"),
        ("%K == 1", [5], "column 1 of the query: \"%K\" needs a key path string, but argument 1 is 5"),
        ("order == %d", ["x"], "column 10 of the query: \"%d\" needs an integer, but argument 1 is \"x\""),
        ("order == %d", [1.5], "column 10 of the query: \"%d\" needs an integer, but argument 1 is 1.5"),
        ("score == %f", [nil], "column 10 of the query: \"%f\" needs a number, but argument 1 is nil"),
        ("score == %lf", [[1]], "column 10 of the query: \"%lf\" needs a number, but argument 1 is a list"),
        ("%K == 1", ["a..b"], "column 1 of the query: the key path \"a..b\" has an empty key"),
        ("%K == 1", ["children.@sum"], "column 1 of the query: \"@sum\" needs the key of the values to aggregate after it"),
    ]

    @Test(arguments: argumentCases)
    func placeholderErrorsNameTheArgument(format: String, arguments: [FetchPredicate.Argument], expected: String) throws {
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: format, arguments: arguments) }
        #expect(error.locatedMessage == expected)
    }

    @Test func fullDescriptionIncludesTheHint() throws {
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: "text CONTIANS \"milk\"") }
        #expect(
            error.description == """
                column 6 of the query: unknown operator "CONTIANS". Did you mean CONTAINS? \(PredicateErrors.operatorHint)
                """)
        let unterminated = try #require(throws: EngineError.self) { try FetchPredicate(format: "text == \"milk") }
        #expect(
            unterminated.description == """
                column 9 of the query: unterminated string starting at column 9. Close the string with a matching " quote; write \\" for a quote inside it.
                """)
        let trailing = try #require(throws: EngineError.self) { try FetchPredicate(format: "a == 1 ADN b == 2") }
        #expect(trailing.hint == "Did you mean AND? Join conditions with AND or OR.")
        let unknownOperator = try #require(throws: EngineError.self) { try FetchPredicate(format: "children.@cuont > 1") }
        #expect(unknownOperator.hint == "Did you mean @count? \(PredicateErrors.collectionOperatorHint)")
    }

    @Test(arguments: [
        (
            String(repeating: "(", count: 1001) + "a == 1" + String(repeating: ")", count: 1001),
            "column 1001 of the query: the predicate nests more than 1000 levels deep"
        ),
        (String(repeating: "NOT ", count: 1001) + "a == 1", "column 4001 of the query: the predicate nests more than 1000 levels deep"),
        (
            String(repeating: "!(", count: 600) + "a == 1" + String(repeating: ")", count: 600),
            "column 1001 of the query: the predicate nests more than 1000 levels deep"
        ),
        // CAST inside CAST: 100,000 levels overflowed the stack before CAST counted as nesting.
        (
            "a == " + String(repeating: "CAST(", count: 1001) + "1" + String(repeating: ", \"NSDate\")", count: 1001),
            "column 1260 of the query: expressions nest more than 250 levels deep"
        ),
        ("a == " + String(repeating: "CAST(", count: 100_000), "column 1260 of the query: expressions nest more than 250 levels deep"),
    ])
    func nestingBeyondTheLimitIsAnError(format: String, expected: String) throws {
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: format) }
        #expect(error.locatedMessage == expected)
    }

    @Test func nestingAtTheLimitParses() throws {
        let format = String(repeating: "(", count: 1000) + "a == 1" + String(repeating: ")", count: 1000)
        #expect(try FetchPredicate(format: format) == FetchPredicate(format: "a == 1"))
        let nots = String(repeating: "NOT ", count: 1000) + "a == 1"
        _ = try FetchPredicate(format: nots)
    }

    @Test func hostileInputFailsCleanly() throws {
        // Tens of thousands of parentheses must be an error, not a stack overflow.
        let format = String(repeating: "(", count: 50_000)
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: format) }
        #expect(error.location == "column 1001 of the query")
        let long = (0 ..< 20_000).map { "order == \($0)" }.joined(separator: " OR ")
        guard case .or(let operands) = try FetchPredicate(format: long) else {
            Issue.record("expected an OR")
            return
        }
        #expect(operands.count == 20_000)
    }
}
