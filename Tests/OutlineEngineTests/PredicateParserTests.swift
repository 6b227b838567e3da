import Foundation
import Testing

@testable import OutlineEngine

/// Parsing to the AST, and printing it back.
@Suite struct PredicateParserTests {
    static func comparison(
        _ key: String, _ op: FetchPredicate.Operator, _ value: Value?,
        _ modifier: FetchPredicate.Modifier = .direct, options: FetchPredicate.Options = []
    ) -> FetchPredicate {
        .comparison(.init(.key(key), op, .constant(value), modifier: modifier, options: options))
    }

    @Test(arguments: [
        ("a = 1", "a == 1"), ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
        ("a == 1 && b == 2", "a == 1 AND b == 2"), ("a == 1 || b == 2", "a == 1 OR b == 2"),
        ("!a == 1", "NOT a == 1"), ("SOME tags.name == 1", "ANY tags.name == 1"),
        ("a contains 'x'", "a CONTAINS \"x\""), ("a beginswith 'x'", "a BEGINSWITH \"x\""),
        ("a EndsWith 'x'", "a ENDSWITH \"x\""), ("a like 'x'", "a LIKE \"x\""), ("a matches 'x'", "a MATCHES \"x\""),
        ("a in {1}", "a IN {1}"), ("a between {1, 2}", "a BETWEEN {1, 2}"),
        ("a == 1 and b == 2 or not c == 3", "a == 1 AND b == 2 OR NOT c == 3"),
        ("TruePredicate", "TRUEPREDICATE"), ("falsepredicate", "FALSEPREDICATE"),
        ("any a.b == 1", "ANY a.b == 1"), ("all a.b == 1", "ALL a.b == 1"), ("none a.b == 1", "NONE a.b == 1"),
        ("a ==[C] 'x'", "a ==[c] \"x\""), ("a ==[dc] 'x'", "a ==[cd] \"x\""), ("a == [cd] 'x'", "a ==[cd] \"x\""),
        ("SELF.text == 1", "text == 1"), ("self == nil", "SELF == nil"),
        ("(((a == 1)))", "a == 1"),
    ])
    func spellingsParseToTheSameTree(alias: String, canonical: String) throws {
        #expect(try FetchPredicate(format: alias) == FetchPredicate(format: canonical))
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() throws {
        let a = Self.comparison("a", .equalTo, .integer(1))
        let b = Self.comparison("b", .equalTo, .integer(2))
        let c = Self.comparison("c", .equalTo, .integer(3))
        #expect(try FetchPredicate(format: "a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try FetchPredicate(format: "a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try FetchPredicate(format: "NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try FetchPredicate(format: "NOT (a == 1 AND b == 2)") == .not(.and([a, b])))
        #expect(try FetchPredicate(format: "a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try FetchPredicate(format: "(a == 1 AND b == 2) AND c == 3") == .and([.and([a, b]), c]))
    }

    static let literals: [(text: String, value: Value?)] = [
        ("\"x\"", .string("x")), ("'x'", .string("x")), ("\"a\\\"b\"", .string("a\"b")), ("'it\\'s'", .string("it's")),
        ("\"\\\\\"", .string("\\")), ("\"\\n\\t\\r\\0\"", .string("\n\t\r\0")), ("\"\\u{1F600}\"", .string("😀")),
        ("\"\\u00E9\"", .string("é")), ("\"\\uD83D\\uDE00\"", .string("😀")), ("'say \"hi\"'", .string("say \"hi\"")),
        ("\"\"", .string("")), ("\"\u{301}x\"", .string("\u{301}x")),
        ("42", .integer(42)), ("-42", .integer(-42)), ("0", .integer(0)), ("3.25", .double(3.25)), ("-0.5", .double(-0.5)),
        ("1e3", .double(1000)), ("2.5E-1", .double(0.25)), ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)), ("99999999999999999999", .double(1e20)),
        ("YES", .boolean(true)), ("yes", .boolean(true)), ("TRUE", .boolean(true)), ("NO", .boolean(false)),
        ("false", .boolean(false)), ("nil", nil), ("NULL", nil), ("Nil", nil),
        ("CAST(0, \"NSDate\")", .date(Date(timeIntervalSinceReferenceDate: 0))),
        ("CAST(-1.5, \"NSDate\")", .date(Date(timeIntervalSinceReferenceDate: -1.5))),
        ("CAST(\"1.25\", \"NSDecimalNumber\")", .decimal(Decimal(string: "1.25")!)),
        ("CAST(3, \"NSDecimalNumber\")", .decimal(3)),
        ("CAST(\"42\", \"NSNumber\")", .integer(42)), ("CAST(\"-inf\", \"NSNumber\")", .double(-.infinity)),
        ("CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")", .uuid(PredicateTestGraph.uid)),
        ("CAST(\"AQID\", \"NSData\")", .binary(Data([1, 2, 3]))),
    ]

    @Test(arguments: literals)
    func literalsParseToValues(text: String, value: Value?) throws {
        #expect(try FetchPredicate(format: "x == " + text) == Self.comparison("x", .equalTo, value))
    }

    @Test func listsAndKeyPathsParse() throws {
        let list = try FetchPredicate(format: "x IN {1, 'a', nil, YES, %@}", [2, 3])
        #expect(list == .comparison(.init(.key("x"), .in, .list([.integer(1), .string("a"), nil, .boolean(true), .integer(2), .integer(3)]))))
        let keyPath = try FetchPredicate(format: "children.@SUM.order > parent.#in")
        #expect(keyPath == .comparison(.init(.keyPath(.init(["children", "@sum", "order"])), .greaterThan, .keyPath(.init(["parent", "in"])))))
        #expect(try FetchPredicate.KeyPath(parsing: "parent.parent.order").components == ["parent", "parent", "order"])
        #expect(try FetchPredicate.KeyPath(parsing: "tags.@count").description == "tags.@count")
        #expect(try FetchPredicate.KeyPath(parsing: "#not.in").description == "#not.#in")
        let error = try #require(throws: EngineError.self) { try FetchPredicate.KeyPath(parsing: "parent text") }
        #expect(error.locatedMessage == "column 8 of the query: expected the end of the key path after \"parent\" but found \"text\"")
    }

    @Test(arguments: [
        ("text = \"a\"", "text == \"a\""),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("(a == 1 AND b == 2) AND c == 3", "(a == 1 AND b == 2) AND c == 3"),
        ("! NOT a == 1", "NOT NOT a == 1"),
        ("some tags.name like[cd] 'x*'", "ANY tags.name LIKE[cd] \"x*\""),
        ("all a.b >=[c] 'x'", "ALL a.b >=[c] \"x\""),
        ("NONE a.b BEGINSWITH[d] 'x'", "NONE a.b BEGINSWITH[d] \"x\""),
        ("text == 'it\\'s \"q\"'", "text == \"it's \\\"q\\\"\""),
        ("text == \"tab\\there\\nnl\\u{1}\\\\\"", "text == \"tab\\there\\nnl\\u{1}\\\\\""),
        ("#in == 1", "#in == 1"),
        ("parent.in == 1", "parent.#in == 1"),
        ("created > CAST(700000000.5, \"NSDate\")", "created > CAST(700000000.5, \"NSDate\")"),
        ("x == 1e3", "x == 1000.0"),
        ("x == -0.0", "x == -0.0"),
        ("x IN {1, 'a', nil, YES}", "x IN {1, \"a\", nil, YES}"),
        ("x IN {}", "x IN {}"),
        ("SELF.text == \"a\"", "text == \"a\""),
        ("SELF IN parent.children", "SELF IN parent.children"),
        ("children.@SUM.order > 1", "children.@sum.order > 1"),
        ("order BETWEEN {1, 10}", "order BETWEEN {1, 10}"),
        ("TRUEPREDICATE OR FALSEPREDICATE", "TRUEPREDICATE OR FALSEPREDICATE"),
        ("text MATCHES \"[a-z]+\\\\d\"", "text MATCHES \"[a-z]+\\\\d\""),
    ])
    func descriptionIsCanonicalAndParsesBack(format: String, canonical: String) throws {
        let predicate = try FetchPredicate(format: format)
        #expect(predicate.description == canonical)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    static let builtValues: [Value?] = [
        nil, .integer(.min), .double(0.1), .double(1e300), .double(-.infinity), .double(.infinity),
        .decimal(Decimal(string: "12345678901234567890.125")!), .string("line\nbreak \"quoted\" \\ \u{7} é"),
        .boolean(false), .date(Date(timeIntervalSinceReferenceDate: 123.456)), .uuid(PredicateTestGraph.uid),
        .binary(Data([0, 255, 16])),
    ]

    @Test(arguments: builtValues)
    func valuesBuiltInCodeRoundTrip(value: Value?) throws {
        let predicate = Self.comparison("x", .notEqualTo, value, .none, options: .caseInsensitive)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func compoundsBuiltInCodeRoundTrip() throws {
        let a = Self.comparison("a", .lessThan, .integer(1))
        let keys = FetchPredicate.comparison(.init(.keyPath(.init(["tags", "not"])), .in, .list([.string("x")]), modifier: .all))
        for predicate: FetchPredicate in [.not(.or([a, .and([a, keys])])), .and([.or([a, a]), .not(.not(a))]), .constant(false)] {
            #expect(try FetchPredicate(format: predicate.description) == predicate)
        }
        // Degenerate compounds print as their equivalents.
        #expect(FetchPredicate.and([]).description == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).description == "FALSEPREDICATE")
        #expect(FetchPredicate.and([a]).description == "a < 1")
    }
}
