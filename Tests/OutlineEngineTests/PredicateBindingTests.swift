import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Binding resolves keys once and rejects what can never work, with the column of the culprit.
@Suite struct PredicateBindingTests {
    static let itemProperties = "The properties of Item are blob, children, created, done, order, parent, price, score, tags, text, uid."

    static let cases: [(format: String, expected: String, hint: String)] = [
        ("txt == \"a\"", "column 1 of the query: \"txt\" is not a property of entity Item", "Did you mean \"text\"?"),
        ("parent.txt == \"a\"", "column 8 of the query: \"txt\" is not a property of entity Item", "Did you mean \"text\"?"),
        ("tags.nmae == \"x\"", "column 6 of the query: \"nmae\" is not a property of entity Tag", "Did you mean \"name\"?"),
        ("Text == \"a\"", "column 1 of the query: \"Text\" is not a property of entity Item", "Did you mean \"text\"?"),
        ("odrer > 1", "column 1 of the query: \"odrer\" is not a property of entity Item", "Did you mean \"order\"?"),
        ("xyzzy == 1", "column 1 of the query: \"xyzzy\" is not a property of entity Item", itemProperties),
        ("priority == 2", "column 1 of the query: \"priority\" is not a property of entity Item", itemProperties),
        (
            "text.length == 1", "column 6 of the query: \"text\" is an attribute of Item, so the key path cannot continue with \".length\"",
            "Only relationships can be followed in a key path."
        ),
        (
            "text == 5", "column 6 of the query: cannot compare \"text\" (a string) with 5 (a number) using \"==\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "order == \"5\"", "column 7 of the query: cannot compare \"order\" (a number) with \"5\" (a string) using \"==\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "created > 5", "column 9 of the query: cannot compare \"created\" (a date) with 5 (a number) using \">\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "order < parent.text", "column 7 of the query: cannot compare \"order\" (a number) with \"parent.text\" (a string) using \"<\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "parent == 1", "column 8 of the query: cannot compare \"parent\" (an object) with 1 (a number) using \"==\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "uid == \"not a uuid\"", "column 5 of the query: cannot compare \"uid\" (a UUID) with \"not a uuid\" (a string) using \"==\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "order IN {1, \"a\"}", "column 7 of the query: cannot compare \"order\" (a number) with \"a\" (a string) using \"IN\"",
            "Compare with a value of the same kind: quote strings, write numbers bare and dates as CAST(seconds, \"NSDate\")."
        ),
        (
            "uid < \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", "column 5 of the query: cannot order \"uid\" (a UUID) with \"<\"",
            "Only numbers, strings and dates have an order; use == or != instead."
        ),
        (
            "parent > parent", "column 8 of the query: cannot order \"parent\" (an object) with \">\"",
            "Only numbers, strings and dates have an order; use == or != instead."
        ),
        (
            "order CONTAINS \"1\"", "column 7 of the query: CONTAINS needs strings, but \"order\" is a number",
            "Use CONTAINS on string attributes; compare numbers and dates with ==, <, > or BETWEEN."
        ),
        (
            "text LIKE 1", "column 11 of the query: LIKE needs a string on its right, but 1 is a number",
            "Quote the text to look for, as in text LIKE \"milk\"."
        ),
        (
            "order IN 5", "column 10 of the query: IN needs a list, a to-many key path or a string on its right, but 5 is a number",
            "Write the candidates as a list, as in order IN {1, 2}."
        ),
        (
            "ANY text == \"a\"", "column 5 of the query: ANY needs a to-many key path, but \"text\" has one value",
            "Use ANY with a key path through a to-many relationship, as in ANY tags.name == \"work\"; or remove it."
        ),
        (
            "ALL parent.text == \"a\"", "column 5 of the query: ALL needs a to-many key path, but \"parent.text\" has one value",
            "Use ALL with a key path through a to-many relationship, as in ALL tags.name == \"work\"; or remove it."
        ),
        (
            "NONE children.@count == 1", "column 6 of the query: NONE needs a to-many key path, but \"children.@count\" has one value",
            "Use NONE with a key path through a to-many relationship, as in NONE tags.name == \"work\"; or remove it."
        ),
        (
            "text == tags.name", "column 9 of the query: the right side of \"==\" cannot be the to-many key path \"tags.name\"",
            "Only IN takes a to-many key path on its right; put the to-many key path on the left, with ANY, ALL or NONE."
        ),
        (
            "parent.@count > 1", "column 8 of the query: \"@count\" needs a to-many relationship before it, but \"parent\" is to-one",
            "Write it after a to-many relationship, as in children.@count."
        ),
        (
            "children.@sum.text > 1", "column 15 of the query: \"@sum\" needs numbers, but \"text\" is a string",
            "Sum and average number attributes; use @count to count objects."
        ),
        (
            "children.@max.blob == nil", "column 15 of the query: \"@max\" needs numbers, strings or dates, but \"blob\" is binary data",
            "Use @min and @max on numbers, strings or dates."
        ),
        (
            "children.@sum.tags.name == 1", "column 15 of the query: \"@sum\" cannot aggregate through the to-many relationship \"tags\"",
            "After a collection operator, follow only to-one relationships to an attribute."
        ),
        (
            "children.@max.parent == nil", "column 15 of the query: \"@max\" needs an attribute to aggregate, but \"parent\" is a relationship",
            "End the key path with an attribute, as in children.@max.order."
        ),
        ("children.@avg.colour > 1", "column 15 of the query: \"colour\" is not a property of entity Item", itemProperties),
        (
            "text MATCHES \"(\"",
            "column 14 of the query: invalid regular expression \"(\" after MATCHES: missing \")\" for the group opened at character 1 of the pattern",
            "Close every \"(\" with \")\", or escape a literal one as \\(."
        ),
        (
            "text MATCHES[c] \"a)(b\"",
            "column 17 of the query: invalid regular expression \"a)(b\" after MATCHES: \")\" without a matching \"(\" at character 2 of the pattern",
            "Escape a literal parenthesis as \\)."
        ),
    ]

    @Test(arguments: cases)
    func bindErrorsNameTheKeyAndColumn(format: String, expected: String, hint: String) throws {
        let graph = try PredicateTestGraph.make()
        let predicate = try FetchPredicate(format: format)
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: graph.schema, entity: PredicateTestGraph.item) }
        #expect(error.code == .invalidPredicate)
        #expect(error.locatedMessage == expected)
        #expect(error.hint == hint)
    }

    @Test func predicatesBuiltInCodeReportErrorsWithoutColumns() throws {
        let schema = try PredicateTestGraph.makeSchema()
        let predicate = FetchPredicate.comparison(.init(.key("parent.txt"), .equalTo, .constant(.string("a"))))
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: schema, entity: PredicateTestGraph.item) }
        #expect(error.description == "\"txt\" is not a property of entity Item. Did you mean \"text\"?")
        let between = FetchPredicate.comparison(.init(.key("order"), .between, .constant(.integer(1))))
        let betweenError = try #require(throws: EngineError.self) { try between.bound(to: schema, entity: PredicateTestGraph.item) }
        #expect(betweenError.locatedMessage == "BETWEEN needs a list of two values but found 1")
        let badOperator = FetchPredicate.comparison(.init(.key("children.@total.order"), .equalTo, .constant(nil)))
        let operatorError = try #require(throws: EngineError.self) { try badOperator.bound(to: schema, entity: PredicateTestGraph.item) }
        #expect(operatorError.locatedMessage == "unknown collection operator \"@total\"")
    }

    @Test func treesDeeperThanParsingAllowsAreRejected() throws {
        let schema = try PredicateTestGraph.makeSchema()
        var predicate = FetchPredicate.constant(true)
        for _ in 0 ..< 5_000 { predicate = .not(predicate) }
        let error = try #require(throws: EngineError.self) { try predicate.bound(to: schema, entity: PredicateTestGraph.item) }
        #expect(error.locatedMessage == "the predicate nests more than 1001 levels deep")
    }

    @Test func unknownEntityNameSuggestsTheClosest() throws {
        let schema = try PredicateTestGraph.makeSchema()
        let error = try #require(throws: EngineError.self) { try FetchPredicate(format: "TRUEPREDICATE").bound(to: schema, entityNamed: "Itme") }
        #expect(error.code == .unknownName)
        #expect(error.description == "Itme: the schema has no entity called \"Itme\". Did you mean \"Item\"?")
    }

    @Test func stringConstantsForUUIDAttributesAreConvertedOnce() throws {
        let graph = try PredicateTestGraph.make()
        #expect(try graph.matches("uid IN {\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", nil}") == ["a", "b", "c", "d", "e", "t"])
        #expect(try graph.matches("uid IN {\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"}") == ["a"])
        #expect(try graph.matches("uid != \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"") == ["b", "c", "d", "e", "t"])
    }
}
