import Foundation
import Testing

@testable import OutlineEngine

/// Apple's "BNF Definition of Cocoa Predicates" and "Predicate Format String Syntax", production
/// by production: each form parses, prints back to a format string that parses to the same
/// predicate, and selects exactly the items Foundation's `NSPredicate` selects on
/// ``PredicateTestGraph`` (see its documentation for the data). Expressions are in
/// `PredicateConformanceExpressionTests`; malformed forms in `PredicateConformanceErrorTests`.
@Suite struct PredicateConformanceTests {
    static let all = ["a", "b", "c", "d", "e", "t"]

    /// Parses `format`, checks that its description parses back to the same predicate, and
    /// returns the labels of the items it selects.
    static func select(_ format: String, _ arguments: [FetchPredicate.Argument] = []) throws -> [String] {
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        if !arguments.contains(where: { if case .object = $0 { true } else if case .objects = $0 { true } else { false } }) {
            let reparsed = try FetchPredicate(format: predicate.description)
            #expect(reparsed == predicate, "\(format) prints as \(predicate.description)")
        }
        return try PredicateTestGraph.make().matches(format, arguments)
    }

    // NSPredicate ::= NSComparisonPredicate | NSCompoundPredicate | "(" NSPredicate ")" | TRUEPREDICATE | FALSEPREDICATE
    @Test(arguments: [
        ("order == 1", ["a"]),
        ("(order == 1)", ["a"]),
        ("((order == 1))", ["a"]),
        ("TRUEPREDICATE", all),
        ("FALSEPREDICATE", []),
        ("(TRUEPREDICATE)", all),
        ("truepredicate", all),
    ])
    func predicate(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // NSCompoundPredicate ::= NSPredicate "AND" NSPredicate | NSPredicate "OR" NSPredicate | "NOT" NSPredicate
    // NOT binds tighter than AND, which binds tighter than OR; && || ! are the C spellings.
    @Test(arguments: [
        ("done == NO AND order > 2", ["c", "d", "t"]),
        ("done == NO && order > 2", ["c", "d", "t"]),
        ("order == 1 OR order == 2", ["a", "b"]),
        ("order == 1 || order == 2", ["a", "b"]),
        ("NOT done == YES", ["a", "c", "d", "t"]),
        ("! done == YES", ["a", "c", "d", "t"]),
        ("NOT (order < 3 OR done == YES)", ["c", "d", "t"]),
        ("done == YES OR order == 1 AND text == nil", ["b", "e"]),
        ("(done == YES OR order == 1) AND text != nil", ["a", "b", "e"]),
        ("NOT done == YES AND order > 2", ["c", "d", "t"]),
        ("NOT (done == YES AND order > 2)", all),
        ("NOT (done == YES AND order > 1)", ["a", "c", "d", "e", "t"]),
        ("order == 1 OR NOT order < 10", ["a", "d"]),
        ("order > 0 AND order < 4 AND done == NO", ["a", "c"]),
        ("order == -5 OR order == 10 OR order == 4", ["d", "e", "t"]),
    ])
    func compound(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // NSComparisonPredicate ::= expression operation expression | aggregate_qualifier NSComparisonPredicate
    // operation ::= "=" | "!=" | "<" | ">" | "<=" | ">=" | BETWEEN | aggregate_operations ["[" string_options "]"]
    @Test(arguments: [
        ("order = 2", ["b"]), ("order == 2", ["b"]), ("order != 2", ["a", "c", "d", "e", "t"]), ("order <> 2", ["a", "c", "d", "e", "t"]),
        ("order < 2", ["a", "e"]), ("order > 3", ["d", "t"]), ("order <= 2", ["a", "b", "e"]), ("order =< 2", ["a", "b", "e"]),
        ("order >= 4", ["d", "t"]), ("order => 4", ["d", "t"]),
        ("order BETWEEN {1, 3}", ["a", "b", "c"]), ("order between {3, 1}", []),
        ("2 == order", ["b"]), ("2 < order", ["c", "d", "t"]),
        ("text CONTAINS \"e\"", ["b", "e", "t"]), ("text BEGINSWITH \"W\"", ["e"]), ("text ENDSWITH \"é\"", ["c"]),
        ("text LIKE \"*e\"", ["b", "t"]), ("text MATCHES \"[A-Z].*\"", ["a", "b", "e", "t"]),
        ("order IN {2, 3}", ["b", "c"]), ("text IN {\"café\"}", ["c"]),
    ])
    func operations(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // string_options ::= c | d | cd, on every string operation, =, != and IN (as Foundation).
    @Test(arguments: [
        ("text ==[c] \"BUY MILK\"", ["a"]), ("text =[c] \"buy milk\"", ["a"]), ("text ==[d] \"Creme Brulee\"", ["b"]),
        ("text ==[cd] \"CREME BRULEE\"", ["b"]), ("text !=[cd] \"CAFE\"", ["a", "b", "d", "e", "t"]),
        ("text CONTAINS[c] \"MILK\"", ["a"]), ("text CONTAINS[d] \"Brul\"", ["b"]), ("text CONTAINS[cd] \"BRUL\"", ["b"]),
        ("text BEGINSWITH[c] \"write\"", ["e"]), ("text BEGINSWITH[cd] \"CREME\"", ["b"]),
        ("text ENDSWITH[c] \"REPORT\"", ["e"]), ("text ENDSWITH[d] \"cafe\"", ["c"]), ("text ENDSWITH \"cafe\"", []),
        ("text LIKE[c] \"b*K\"", ["a"]), ("text LIKE[cd] \"CAF?\"", ["c"]), ("text LIKE \"CAF?\"", []),
        ("text MATCHES[c] \"task.*\"", ["t"]), ("text MATCHES[cd] \"creme.*\"", ["b"]), ("text MATCHES[d] \"Creme.*\"", ["b"]),
        ("text IN[c] {\"TASK ONE\", \"CAFÉ\"}", ["c", "t"]), ("text IN[cd] {\"CAFE\"}", ["c"]), ("text IN {\"CAFE\"}", []),
        ("\"MILK\" IN[c] text", ["a"]), ("text <[c] \"b\"", []), ("text >[c] \"W\"", ["e"]),
        ("ANY tags.name ==[c] \"HOME\"", ["b", "e"]),
    ])
    func stringOptions(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // CONTAINS and IN serve both as aggregate and string operators, depending on their arguments.
    @Test(arguments: [
        ("text CONTAINS \"ilk\"", ["a"]),
        ("{1, 3, 5} CONTAINS order", ["a", "c"]),
        ("\"ilk\" IN text", ["a"]),
        ("order IN {1, 3, 5}", ["a", "c"]),
        ("\"work\" IN tags.name", ["a", "b"]),
        ("SELF IN parent.children", ["b", "c", "d", "t"]),
        ("ANY tags.name CONTAINS \"o\"", ["a", "b", "e"]),
    ])
    func aggregateAndStringOperators(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // aggregate_qualifier ::= ANY | ALL | NONE | SOME
    @Test(arguments: [
        ("ANY children.done == YES", ["a"]), ("SOME children.done == YES", ["a"]),
        ("ALL children.done == NO", ["b", "c", "d", "e", "t"]), ("NONE children.done == YES", ["b", "c", "d", "e", "t"]),
        ("ALL tags.name != nil", ["a", "b", "c", "d", "e"]), ("NONE tags.name == nil", ["a", "b", "c", "d", "e"]),
        ("ANY tags.name IN {\"Home\"}", ["b", "e"]), ("ALL tags.name IN {\"work\", \"Home\"}", ["a", "b", "c", "d", "e"]),
        ("ANY children.order BETWEEN {3, 4}", ["a"]), ("ANY children.text MATCHES \".*é.*\"", ["a"]),
        ("ANY SUBQUERY(children, $c, $c.done == NO).order > 3", ["a", "b"]),
    ])
    func aggregateQualifiers(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // literal_value ::= string_value | numeric_value | predicate_argument | predicate_variable | NULL | TRUE | FALSE | SELF
    @Test(arguments: [
        ("text == \"café\"", ["c"]), ("text == 'café'", ["c"]), ("text == \"it's\"", []),
        ("text == 'Buy \"milk\"'", []), ("text == \"Buy\\u0020milk\"", ["a"]), ("text == \"Buy\\u{20}milk\"", ["a"]),
        ("text == \"caf\\u00e9\"", ["c"]), ("text == \"cafe\\u0301\"", ["c"]), ("text == \"Buy\\tmilk\"", []),
        ("text == \"\\\"\"", []), ("text == '\\''", []), ("text == \"a\\\\b\"", []),
        ("text == NULL", ["d"]), ("text == NIL", ["d"]), ("text == nil", ["d"]), ("text == null", ["d"]),
        ("done == TRUE", ["b", "e"]), ("done == YES", ["b", "e"]), ("done == true", ["b", "e"]),
        ("done == FALSE", ["a", "c", "d", "t"]), ("done == NO", ["a", "c", "d", "t"]),
        ("SELF == SELF", all), ("SELF != nil", all), ("SELF.order == 3", ["c"]), ("self.text == \"café\"", ["c"]),
    ])
    func literalValues(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // numeric_value ::= C style numeric constant: decimal, negative, exponent, hexadecimal, octal, binary.
    @Test(arguments: [
        ("order == 10", ["d"]), ("order == -5", ["e"]), ("order == - 5", ["e"]), ("score == -0.5", ["e"]),
        ("score == 1.5", ["a"]), ("score == 15e-1", ["a"]), ("score == 1.5E0", ["a"]), ("order == 1e1", ["d"]),
        ("order == 0x0A", ["d"]), ("order == 0XA", ["d"]), ("order == 0o12", ["d"]), ("order == 0b1010", ["d"]),
        ("order == -0x5", ["e"]), ("order == 0b100", ["t"]), ("order == 0o4", ["t"]), ("order < 0x7FFFFFFFFFFFFFFF", all),
        ("order > -9223372036854775808", all), ("order < 18446744073709551616", all),
        ("score < 1e308", ["a", "b", "e"]), ("score > -1e-308", ["a", "b"]),
    ])
    func numericValues(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // identifier ::= C style identifier | "#" reserved_word; keys are case-sensitive, keywords are not.
    @Test func reservedWordsAsKeys() throws {
        let schema = try Schema(entities: [
            Entity(
                name: "Thing",
                attributes: [
                    Attribute(name: "in", type: .string), Attribute(name: "size", type: .integer64),
                    Attribute(name: "first", type: .boolean), Attribute(name: "order", type: .integer64),
                ])
        ])
        var graph = PredicateTestGraph(schema: schema)
        _ = graph.add("x", entity: 0, ["in": .string("inside"), "size": .integer(3), "first": .boolean(true), "order": .integer(1)])
        _ = graph.add("y", entity: 0, ["in": .string("out"), "size": .integer(5), "first": .boolean(false), "order": .integer(2)])
        for (format, arguments, expected) in [
            ("#in == \"inside\"", [FetchPredicate.Argument](), ["x"]),
            ("%K == \"inside\"", ["in"], ["x"]),
            ("#size > 4", [], ["y"]),
            ("#first == YES AND #order == 1", [], ["x"]),
            ("%K == YES", ["first"], ["x"]),
        ] {
            let predicate = try FetchPredicate(format: format, arguments: arguments)
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate.description)")
            let found = try predicate.bound(to: schema, entity: 0).filter(graph.labels.keys.sorted(), in: graph).map(graph.label)
            #expect(found == expected, "\(format)")
        }
        // Keys are case-sensitive: #IN is not the key in.
        let upper = try #require(throws: EngineError.self) { try FetchPredicate(format: "#IN == \"x\"").bound(to: schema, entity: 0) }
        #expect(upper.locatedMessage == "column 1 of the query: \"IN\" is not a property of entity Thing")
        #expect(upper.hint == "Did you mean \"in\"?")
        // Unescaped, a reserved word is a keyword, not a key.
        #expect(throws: EngineError.self) { try FetchPredicate(format: "in == \"inside\"") }
        #expect(throws: EngineError.self) { try FetchPredicate(format: "size == 3") }
        // The # of a non-reserved key is allowed and means the key.
        #expect(try FetchPredicate(format: "#order == 1") == FetchPredicate(format: "order == 1"))
    }

    // predicate_argument ::= "%" format_argument; format_argument ::= "@" | "%" | "K" | printf conversions.
    static let argumentCases: [(String, [FetchPredicate.Argument], [String])] = [
        ("text == %@", ["café"], ["c"]),
        ("%K == %@", ["text", "café"], ["c"]),
        ("%K.%K == %@", ["parent", "text", "Buy milk"], ["b", "c", "t"]),
        ("order == %d", [3], ["c"]), ("order == %i", [3], ["c"]), ("order == %ld", [3], ["c"]), ("order == %lld", [3], ["c"]),
        ("order == %u", [3], ["c"]), ("order == %x", [10], ["d"]), ("order == %o", [10], ["d"]), ("order == %hd", [3], ["c"]),
        ("score == %f", [1.5], ["a"]), ("score == %lf", [1.5], ["a"]), ("score == %e", [1.5], ["a"]), ("score == %g", [2], ["b"]),
        ("text == %s", ["café"], ["c"]),
        ("order IN %@", [[1, 10]], ["a", "d"]), ("order BETWEEN %@", [[2, 3]], ["b", "c"]),
        ("text == %@", [nil], ["d"]),
        ("created == %@", [.value(.date(PredicateTestGraph.t0))], ["a"]),
        ("text == '%@'", [], []),
    ]

    @Test(arguments: argumentCases)
    func predicateArguments(format: String, arguments: [FetchPredicate.Argument], expected: [String]) throws {
        #expect(try Self.select(format, arguments) == expected)
    }

    // %@ with objects: a relationship, SELF, or a list of objects.
    @Test func objectArguments() throws {
        let graph = try PredicateTestGraph.make()
        func select(_ format: String, _ arguments: [FetchPredicate.Argument]) throws -> [String] {
            try graph.matches(format, arguments)
        }
        #expect(try select("parent == %@", [.object(graph["a"])]) == ["b", "c", "t"])
        #expect(try select("parent != %@", [.object(graph["a"])]) == ["a", "d", "e"])
        #expect(try select("SELF == %@", [.object(graph["c"])]) == ["c"])
        #expect(try select("SELF IN %@", [.objects([graph["a"], graph["e"]])]) == ["a", "e"])
        #expect(try select("SELF IN %@", [[.object(graph["b"]), .object(graph["d"])]]) == ["b", "d"])
        #expect(try select("%@ IN children", [.object(graph["d"])]) == ["b"])
        #expect(try select("ANY tags == %@", [.object(graph["home"])]) == ["b", "e"])
        #expect(try select("parent IN {%@, %@}", [.object(graph["a"]), .object(graph["b"])]) == ["b", "c", "d", "t"])
        #expect(try select("parent.parent == %@ OR parent == %@", [.object(graph["a"]), .object(graph["b"])]) == ["d"])
        // An object prints as the placeholder it came from.
        #expect(try FetchPredicate(format: "parent == %@", .object(graph["a"])).description == "parent == %@")
        // In a fetch through an editing context.
        let context = try Self.outlineContext()
        let milk = try #require(try context.fetch(FetchRequest(entityName: "Item", format: "text == %@", "Milk")).first)
        let under = try context.fetch(FetchRequest(entityName: "Item", format: "parent == %@", .object(milk)))
        #expect(try under.map { try context.value(forKey: "text", of: $0) } == [.string("Oat milk")])
    }

    /// A context with Milk > Oat milk and Bread, for fetches with object arguments.
    static func outlineContext() throws -> EditingContext {
        let context = EditingContext(schema: try PredicateTestGraph.makeSchema())
        let milk = try context.insert("Item")
        try context.setValue(.string("Milk"), forKey: "text", of: milk)
        let oat = try context.insert("Item")
        try context.setValue(.string("Oat milk"), forKey: "text", of: oat)
        try context.setObject(milk, forKey: "parent", of: oat)
        let bread = try context.insert("Item")
        try context.setValue(.string("Bread"), forKey: "text", of: bread)
        return context
    }

    // predicate_variable ::= "$" identifier, given values by substitution.
    @Test func substitutionVariables() throws {
        let graph = try PredicateTestGraph.make()
        let template = try FetchPredicate(format: "text BEGINSWITH[c] $prefix AND order < $limit")
        #expect(template.variables == ["prefix", "limit"])
        let bound = try template.substituting(["prefix": "c", "limit": 5])
        #expect(bound.variables.isEmpty)
        #expect(bound == (try FetchPredicate(format: "text BEGINSWITH[c] \"c\" AND order < 5")))
        #expect(try bound.bound(to: graph.schema, entity: PredicateTestGraph.item).filter(graph.items, in: graph).map(graph.label) == ["b", "c"])
        // Lists, nil and objects substitute too; unknown names are ignored; missing ones stay.
        let list = try FetchPredicate(format: "order IN $orders OR parent == $p OR text == $t").substituting([
            "orders": [1, 2], "p": .object(graph["b"]), "t": nil, "unused": 1,
        ])
        #expect(try list.bound(to: graph.schema, entity: PredicateTestGraph.item).filter(graph.items, in: graph).map(graph.label) == ["a", "b", "d"])
        let partial = try FetchPredicate(format: "order == $a OR order == $b").substituting(["a": 1])
        #expect(partial.variables == ["b"])
        let error = try #require(throws: EngineError.self) { try partial.bound(to: graph.schema, entity: PredicateTestGraph.item) }
        #expect(error.locatedMessage == "column 25 of the query: the variable $b has no value")
        #expect(error.hint == "Substitute a value for $b before evaluating the predicate, or use it inside a SUBQUERY that names it.")
        // BETWEEN {$LOWER, $UPPER}, the guide's own example, and variables in lists and indexes.
        let between = try FetchPredicate(format: "order BETWEEN {$LOWER, $UPPER}").substituting(["LOWER": 2, "UPPER": 4])
        #expect(
            try between.bound(to: graph.schema, entity: PredicateTestGraph.item).filter(graph.items, in: graph).map(graph.label) == ["b", "c", "t"])
        let index = try FetchPredicate(format: "children[$i].text == \"café\"").substituting(["i": 1])
        #expect(index.description == "children[1].text == \"café\"")
        #expect(throws: EngineError.self) { try FetchPredicate(format: "children[$i].text == nil").substituting(["i": "x"]) }
        // A SUBQUERY's own variable is not substituted inside it.
        let shadow = try FetchPredicate(format: "SUBQUERY(children, $c, $c.order > $min).@count > 0").substituting(["c": 99, "min": 3])
        #expect(shadow.description == "SUBQUERY(children, $c, $c.order > 3).@count > 0")
        #expect(try shadow.bound(to: graph.schema, entity: PredicateTestGraph.item).filter(graph.items, in: graph).map(graph.label) == ["a", "b"])
    }

    // Values built in code format as literals that parse back (CAST for those without a literal form).
    @Test(arguments: [
        Value.date(PredicateTestGraph.t0), .decimal(Decimal(string: "2.50")!), .uuid(PredicateTestGraph.uid), .binary(Data([1, 2, 3])),
        .double(.infinity), .double(-.infinity), .integer(.min), .integer(.max), .double(-0.5), .string("a\"b\\c\n"),
    ])
    func valuesRoundTripThroughDescriptions(value: Value) throws {
        let predicate = FetchPredicate.comparison(.init(.key("text"), .equalTo, .constant(value)))
        #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate.description)")
    }
}
