import Testing

@testable import OutlineEngine

/// Malformed and refused forms of the grammar's productions: each is an ``EngineError`` at
/// the column of the query where it goes wrong, saying what was expected, with a hint.
@Suite struct PredicateConformanceErrorTests {
    static let syntax: [(format: String, expected: String)] = [
        // numeric_value
        ("order == 0x", "column 10 of the query: expected hexadecimal digits after \"0x\""),
        ("order == 0b102", "column 14 of the query: \"2\" is not a digit of a binary number"),
        ("order == 0o8", "column 12 of the query: \"8\" is not a digit of a octal number"),
        ("order == 12abc", "column 12 of the query: unexpected \"a\" after the number \"12\""),
        ("order == 0x1G", "column 13 of the query: unexpected \"G\" after the number \"0x1\""),
        // predicate_variable, predicate_argument
        ("text == $", "column 9 of the query: expected a variable name after \"$\""),
        ("text == $1", "column 9 of the query: expected a variable name after \"$\""),
        ("order == %%", "column 10 of the query: \"%%\" stands for a % sign, which the predicate syntax only has inside strings"),
        ("order == %q", "column 10 of the query: unknown placeholder \"%q\""),
        // binary_expression
        ("order + == 1", "column 9 of the query: expected a value after \"+\" but found \"==\""),
        ("order ** == 1", "column 10 of the query: expected a value after \"**\" but found \"==\""),
        ("order == -", "column 11 of the query: expected a value after \"-\" but the predicate ends"),
        ("order == -\"a\"", "column 10 of the query: a minus sign needs a number, but found \"a\""),
        ("order == -YES", "column 10 of the query: a minus sign needs a number, but found YES"),
        ("order == (1 + 2", "column 16 of the query: expected \")\" to close the \"(\" at column 10 but the predicate ends"),
        ("order == ()", "column 11 of the query: expected a value after \"(\" but found \")\""),
        ("order % 2 == 0", "column 7 of the query: unknown placeholder \"% \""),
        // assignment_expression (refused)
        ("$x := 5", "column 4 of the query: assignments such as \"$x := value\" are not supported in predicates"),
        ("order : 5", "column 7 of the query: unexpected character \":\""),
        // index_expression
        (
            "children[ == 1",
            "column 11 of the query: expected FIRST, LAST, SIZE or a number after \"[\" but the predicate ends".replacingOccurrences(
                of: "but the predicate ends", with: "but found \"==\"")
        ),
        ("children[-1] == nil", "column 10 of the query: an index cannot be negative"),
        ("children[1.5] == nil", "column 10 of the query: the index \"1.5\" is not a whole number"),
        ("children[FIRST == nil", "column 16 of the query: expected \"]\" to close the index at column 9 but found \"==\""),
        ("children[\"key\"] == nil", "column 10 of the query: dictionary lookups such as [\"key\"] are not supported"),
        ("SELF[FIRST] == nil", "column 5 of the query: an index needs a to-many key path or a collection before it, not SELF"),
        ("children[SIZE].order == 1", "column 16 of the query: nothing can follow \"[SIZE]\" in a key path, but found \"order\""),
        ("children.@sum.order[FIRST] == 1", "column 20 of the query: an index cannot follow the collection operator \"@sum\""),
        ("FIRST == 1", "column 1 of the query: FIRST is only meaningful inside brackets after a to-many key path"),
        // function_expression
        ("foo(order) == 1", "column 1 of the query: unknown function \"foo\""),
        ("sun(children.order) == 1", "column 1 of the query: unknown function \"sun\""),
        ("sum() == 1", "column 1 of the query: sum() takes 1 argument but was given 0"),
        ("now(1) > created", "column 1 of the query: now() takes no arguments but was given 1"),
        ("sum(children.order, 1) == 1", "column 1 of the query: sum() takes 1 argument but was given 2"),
        ("sum(children.order == 1", "column 20 of the query: expected \")\" to close sum( after \"order\" but found \"==\""),
        ("FUNCTION(text, 'uppercaseString') == \"A\"", "column 1 of the query: FUNCTION(...) is not supported"),
        ("FETCH(x, y, NO) == 1", "column 1 of the query: FETCH(...) is not supported"),
        ("ANYKEY == \"x\"", "column 1 of the query: ANYKEY is not supported"),
        ("text UTI-CONFORMS-TO \"public.text\"", "column 6 of the query: UTI-CONFORMS-TO and UTI-EQUALS are not supported"),
        // SUBQUERY
        ("SUBQUERY children == 1", "column 10 of the query: expected \"(\" after \"SUBQUERY\" but found \"children\""),
        ("SUBQUERY(children $c, TRUEPREDICATE).@count > 0", "column 19 of the query: expected \",\" after \"children\" but found \"$c\""),
        ("SUBQUERY(children, $c TRUEPREDICATE).@count > 0", "column 23 of the query: expected \",\" after \"$c\" but found \"TRUEPREDICATE\""),
        ("SUBQUERY(children, $c, ).@count > 0", "column 24 of the query: expected a predicate after \",\" but found \")\""),
        (
            "SUBQUERY(children, $c, TRUEPREDICATE.@count > 0",
            "column 37 of the query: expected \")\" to close SUBQUERY after \"TRUEPREDICATE\" but found \".\""
        ),
        // CAST
        ("CAST(order \"NSString\") == \"1\"", "column 12 of the query: expected \",\" after \"order\" but found \"NSString\""),
        ("CAST({1}, \"NSString\") == \"1\"", "column 6 of the query: cannot CAST a list"),
        ("CAST(order, \"NSFoo\") == 1", "column 13 of the query: unknown CAST type \"NSFoo\""),
        // TERNARY
        ("TERNARY(done == YES, 1) == 1", "column 23 of the query: expected \",\" after \"1\" but found \")\""),
        ("TERNARY(, 1, 0) == 1", "column 9 of the query: expected a comparison after \"(\" but found \",\""),
    ]

    @Test(arguments: syntax)
    func malformedFormsReportColumnAndHint(format: String, expected: String) throws {
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: format) }
        #expect(error.code == .invalidPredicate)
        #expect(error.locatedMessage == expected)
        #expect(!(error.hint ?? "").isEmpty)
    }

    static let binding: [(format: String, expected: String)] = [
        ("text == $prefix", "column 9 of the query: the variable $prefix has no value"),
        ("children[$i].order == 1", "column 9 of the query: the variable $i has no value"),
        ("tags[FIRST].name == \"work\"", "column 5 of the query: \"tags\" is unordered, so the index [FIRST] picks no particular object"),
        ("parent[FIRST] == nil", "column 7 of the query: the index [FIRST] needs a to-many relationship before it, but \"parent\" is not one"),
        (
            "SUBQUERY(tags, $t, TRUEPREDICATE)[FIRST] == nil",
            "column 34 of the query: the collection before [FIRST] has no order, so the index picks no particular object"
        ),
        (
            "SUBQUERY(parent, $p, TRUEPREDICATE).@count == 1",
            "column 1 of the query: SUBQUERY needs a collection of objects, but \"parent\" is not one"
        ),
        ("SUBQUERY(children, $c, $c.colour == 1).@count == 1", "column 27 of the query: \"colour\" is not a property of entity Item"),
        ("SUBQUERY(children, $c, $d.order == 1).@count == 1", "column 24 of the query: the variable $d has no value"),
        ("$c.order == 1", "column 1 of the query: the variable $c has no value"),
        ("text + 1 == 2", "column 1 of the query: cannot compute \"text\" (a string) + 1 (a number)"),
        ("created * 2 == 2", "column 1 of the query: cannot compute \"created\" (a date) * 2 (a number)"),
        ("order + 1 == \"a\"", "column 11 of the query: cannot compare \"order + 1\" (a number) with \"a\" (a string) using \"==\""),
        ("children.order + 1 == 2", "column 1 of the query: \"+\" needs one value, but \"children.order\" has several"),
        ("-text == 1", "column 1 of the query: a minus sign needs a number, but \"text\" is a string"),
        ("sum(order) == 1", "column 1 of the query: sum() needs a collection, but \"order\" has one value"),
        ("sum(children.text) == 1", "column 1 of the query: sum() needs numbers, but \"children.text\" has a string"),
        ("sqrt(text) == 1", "column 1 of the query: sqrt() needs a number, but \"text\" is a string"),
        ("sqrt(children.order) == 1", "column 1 of the query: sqrt() needs one number, but \"children.order\" has several values"),
        ("max(children.blob) == nil", "column 1 of the query: max() needs numbers, strings or dates, but \"children.blob\" has binary data"),
        ("TERNARY(done == YES, children.order, 0) == 1", "column 1 of the query: TERNARY needs one value, but \"children.order\" has several"),
        ("order IN {1, children.order}", "column 10 of the query: each element of a list needs one value, but \"children.order\" has several"),
        ("{1, 2}[0].x == 1", "column 11 of the query: {1, 2} is a collection of values, so the key path cannot continue after \"[0]\""),
        ("(order).text == 1", "column 9 of the query: cannot follow \"text\" from \"order\": it is not an object"),
        (
            "CAST(order, \"NSDate\") == \"x\"",
            "column 23 of the query: cannot compare \"CAST(order, \"NSDate\")\" (a date) with \"x\" (a string) using \"==\""
        ),
        (
            "text MATCHES \"(?<=a+)b\"",
            "column 14 of the query: invalid regular expression \"(?<=a+)b\" after MATCHES: a lookbehind must have a bounded length at character 1 of the pattern"
        ),
        (
            "text MATCHES \"\\\\p{Greek}\"",
            "column 14 of the query: invalid regular expression \"\\\\p{Greek}\" after MATCHES: the property \\p{Greek} is not supported at character 1 of the pattern"
        ),
        (
            "text MATCHES \"(a{1000}){1000}\"",
            "column 14 of the query: invalid regular expression \"(a{1000}){1000}\" after MATCHES: the pattern is too large: it compiles to more than 100,000 steps (a counted repetition such as {1000} counts its part that many times)"
        ),
        (
            "text MATCHES \"\\\\2(a)\"",
            "column 14 of the query: invalid regular expression \"\\\\2(a)\" after MATCHES: the backreference \\2 names no group at character 1 of the pattern"
        ),
    ]

    @Test(arguments: binding)
    func formsThatCannotWorkFailWhenBound(format: String, expected: String) throws {
        let graph = try PredicateTestGraph.make()
        let predicate = try FetchPredicate(format: format)
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: graph.schema, entity: PredicateTestGraph.item) }
        #expect(error.code == .invalidPredicate)
        #expect(error.locatedMessage == expected)
        #expect(!(error.hint ?? "").isEmpty)
    }

    /// A long pattern is shown by its start and its length, not whole.
    @Test func aLongPatternIsShownShortened() throws {
        let graph = try PredicateTestGraph.make()
        let pattern = String(repeating: "a?", count: 30_000) + String(repeating: "a", count: 30_000)
        let predicate = try FetchPredicate(format: "text MATCHES \"\(pattern)\"")
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: graph.schema, entity: PredicateTestGraph.item) }
        #expect(
            error.locatedMessage
                == "column 14 of the query: invalid regular expression \"\(String(repeating: "a?", count: 30))…\" (90,000 characters) "
                + "after MATCHES: the pattern is too large: it compiles to more than 100,000 steps "
                + "(a counted repetition such as {1000} counts its part that many times)")
    }

    /// Expressions nest as deep as ``FetchPredicate/maximumExpressionNestingDepth`` (each
    /// form at the limit parses, prints, binds and evaluates without exhausting the stack,
    /// inside the deepest nesting of parentheses) and no deeper.
    static let deepForms: [(name: String, weight: Int, make: @Sendable (Int) -> String)] = [
        ("functions", 1, { "order == " + String(repeating: "floor(", count: $0) + "order" + String(repeating: ")", count: $0) }),
        ("casts", 1, { "order == " + String(repeating: "CAST(", count: $0) + "order" + String(repeating: ", \"NSNumber\")", count: $0) }),
        ("parentheses", 1, { "order == " + String(repeating: "(", count: $0) + "order" + String(repeating: ")", count: $0) }),
        ("additions", 1, { "order == order" + String(repeating: " + 0", count: $0) }),
        ("minus signs", 1, { "order == " + String(repeating: "-", count: $0) + "order" }),
        ("powers", 1, { "order == order" + String(repeating: " ** 1", count: $0) }),
        (
            "subqueries", 4,
            { depth in
                (0 ..< depth).map { "SUBQUERY(\($0 == 0 ? "children" : "$v\($0 - 1).children"), $v\($0), " }.joined()
                    + "TRUEPREDICATE" + String(repeating: ").@count >= 0", count: depth)
            }
        ),
        ("ternaries", 4, { "order == " + String(repeating: "TERNARY(TRUEPREDICATE, ", count: $0) + "order" + String(repeating: ", 0)", count: $0) }),
    ]

    @Test(arguments: deepForms.indices)
    func expressionsNestToTheLimitAndNoFurther(index: Int) throws {
        let (name, weight, make) = Self.deepForms[index]
        let limit = FetchPredicate.maximumExpressionNestingDepth / weight
        let parens = FetchPredicate.maximumNestingDepth
        let deepest = String(repeating: "(", count: parens) + make(limit) + String(repeating: ")", count: parens)
        let predicate = try FetchPredicate(format: deepest)
        #expect(try FetchPredicate(format: predicate.description) == predicate, "\(name)")
        #expect(predicate.variables.isEmpty)
        _ = try predicate.substituting([:])
        let graph = try PredicateTestGraph.make()
        let found = try predicate.bound(to: graph.schema, entity: PredicateTestGraph.item).filter(graph.items, in: graph).map(graph.label)
        #expect(found == PredicateConformanceTests.all, "\(name)")
        let error = try #require(throws: EngineError.self, "\(name)") { try FetchPredicate(format: make(limit + 1)) }
        #expect(error.message == "expressions nest more than \(FetchPredicate.maximumExpressionNestingDepth) levels deep", "\(name)")
    }
}

extension PredicateConformanceErrorTests {
    /// Trees built in code are checked before anything recurses on them: as deep as parsing
    /// can produce binds and evaluates; deeper is an error, not a stack overflow.
    @Test func treesBuiltInCodeAreCheckedBeforeRecursion() throws {
        let graph = try PredicateTestGraph.make()
        var expression = FetchPredicate.Expression.key("order")
        for _ in 0 ..< PredicateTree.maximumExpressionDepth - 1 { expression = .negated(expression) }
        var deepest = FetchPredicate.comparison(.init(expression, .notEqualTo, .constant(nil)))
        for _ in 0 ..< FetchPredicate.maximumNestingDepth { deepest = .not(deepest) }
        deepest = .and([deepest])
        let bound = try deepest.bound(to: graph.schema, entity: PredicateTestGraph.item)
        #expect(try bound.filter(graph.items, in: graph).map(graph.label) == PredicateConformanceTests.all)
        _ = try deepest.substituting(["x": 1])

        var tooDeep = FetchPredicate.Expression.key("order")
        for _ in 0 ..< 5_000 { tooDeep = .arithmetic(tooDeep, .add, .constant(.integer(1))) }
        let predicate = FetchPredicate.comparison(.init(tooDeep, .equalTo, .constant(.integer(1))))
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: graph.schema, entity: PredicateTestGraph.item) }
        #expect(error.message == "expressions nest more than \(PredicateTree.maximumExpressionDepth) levels deep")
        #expect(throws: EngineError.self) { try predicate.substituting([:]) }
        #expect(predicate.variables.isEmpty)
    }
}
