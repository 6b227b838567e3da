import Foundation
import Testing

@testable import OutlineEngine

/// The expression productions of Apple's predicate BNF, each with the items it selects on
/// ``PredicateTestGraph`` (children are ordered there: a → [b, c, t], b → [d]).
@Suite struct PredicateConformanceExpressionTests {
    static let all = PredicateConformanceTests.all

    static func select(_ format: String) throws -> [String] {
        try PredicateConformanceTests.select(format)
    }

    // keypath_expression ::= identifier | "@" identifier | expression "." expression
    @Test(arguments: [
        ("parent.parent.text == \"Buy milk\"", ["d"]),
        ("parent.children.@count == 3", ["b", "c", "t"]),
        ("ANY tags.items.tags.name == \"Home\"", ["a", "b", "e"]),
        ("ANY tags.items.text BEGINSWITH \"W\"", ["b", "e"]),
        ("children.@count == 1", ["b"]), ("children.@COUNT == 1", ["b"]),
        ("children.@sum.order == 9", ["a"]), ("children.@avg.order == 3", ["a"]),
        ("children.@min.order == 2", ["a"]), ("children.@max.text == \"café\"", ["a"]),
        ("SUBQUERY(children, $c, $c.done == NO).@sum.order == 7", ["a"]),
        ("{1, 2, 3}.@count == 3", all),
    ])
    func keyPaths(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // @distinctUnionOfObjects, @unionOfObjects, @distinctUnionOfArrays, @unionOfArrays,
    // @distinctUnionOfSets, @unionOfSets: the collected values of the key after them.
    @Test(arguments: [
        ("ANY children.@distinctUnionOfObjects.done == YES", ["a"]),
        ("count(children.@unionOfObjects.done) == 3", ["a"]),
        ("count(children.@distinctUnionOfObjects.done) == 2", ["a"]),
        ("ANY tags.@distinctUnionOfSets.items.text == \"Write REPORT\"", ["b", "e"]),
        ("count(tags.@unionOfArrays.items) == 2", ["a", "e"]),
        ("count(tags.@distinctUnionOfArrays.items.text) == 3", ["b"]),
        ("ALL tags.@unionOfSets.name != nil", ["a", "b", "c", "d", "e"]),
    ])
    func unionOperators(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // index_expression ::= array_expression "[" integer_expression "]" | aggregate_expression "[" FIRST | LAST | SIZE "]"
    @Test(arguments: [
        ("children[FIRST].text == \"Crème Brûlée\"", ["a"]), ("children[first].text == \"Crème Brûlée\"", ["a"]),
        ("children[LAST].order == 4", ["a"]), ("children[0].order == 2", ["a"]), ("children[1].text == \"café\"", ["a"]),
        ("children[3] == nil", all), ("children[SIZE] == 3", ["a"]), ("children[SIZE] == 0", ["c", "d", "e", "t"]),
        ("tags[SIZE] == 2", ["b"]), ("parent.children[FIRST] == SELF", ["b", "d"]),
        ("children[FIRST].children[FIRST].order == 10", ["a"]), ("ANY children.children[LAST].order == 10", ["a"]),
        ("children.@count == children[SIZE]", all),
        ("SUBQUERY(children, $c, $c.done == NO)[FIRST].text == \"café\"", ["a"]),
        ("SUBQUERY(children, $c, TRUEPREDICATE)[SIZE] == 3", ["a"]),
        ("(children)[LAST].order == 4", ["a"]),
        ("{10, 20, 30}[1] == 20", all), ("{order, 5}[0] == 3", ["c"]), ("{1, 2, 3}[SIZE] == 3", all),
        ("{1, 2, 3}[LAST] == 3", all), ("{}[FIRST] == nil", all),
    ])
    func indexes(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // literal_aggregate ::= "{" [expression ["," expression ...]] "}"
    @Test(arguments: [
        ("order IN {1, parent.order}", ["a"]),
        ("order BETWEEN {parent.order, 5}", ["b", "c", "t"]),
        ("order IN {order}", all),
        ("text IN {\"x\", parent.text}", []),
        ("order IN {}", []),
        ("order IN {1 + 1, 2 * 2}", ["b", "t"]),
    ])
    func literalAggregates(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // binary_expression ::= expression binary_operator expression | "-" expression
    // binary_operator ::= "+" | "-" | "*" | "/" | "**"
    @Test(arguments: [
        ("order + 1 == 4", ["c"]), ("order - 1 == 3", ["t"]), ("order * 2 == 20", ["d"]),
        ("order / 2 == 1", ["b", "c"]), ("order / 2.0 == 1.5", ["c"]), ("2 ** order == 8", ["c"]),
        ("-order == 5", ["e"]), ("- order == 5", ["e"]), ("order + order * 2 == 9", ["c"]), ("(order + order) * 2 == 12", ["c"]),
        ("order - -1 == 2", ["a"]), ("2 ** 3 ** 2 == 512", all), ("-2 ** 2 == 4", all), ("10 - 2 - 3 == 5", all),
        ("12 / 2 / 3 == 2", all), ("score / 0 > 1000", ["a", "b"]), ("order / 0 == nil", all),
        ("created + 86400 == CAST(700086400, \"NSDate\")", ["a"]),
        ("created - CAST(700000000, \"NSDate\") == 86400", ["b"]),
        ("children.@count * 10 + order == 31", ["a"]), ("order + 9223372036854775807 > 0", all),
        ("price * 2 == 5", ["a"]), ("score + 1 == 2.5", ["a"]), ("done + 1 == 2", ["b", "e"]),
        ("parent.order + 1 == 2", ["b", "c", "t"]), ("order+1 == 4", ["c"]), ("order-1 == 3", ["t"]),
    ])
    func binaryExpressions(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // function_expression ::= function_name "(" [expression ["," expression ...]] ")"
    @Test(arguments: [
        ("sum(children.order) == 9", ["a"]), ("count(children) == 3", ["a"]), ("count(tags) == 0", ["c", "d"]),
        ("min(children.order) == 2", ["a"]), ("max(children.order) == 10", ["b"]), ("average(children.order) == 3", ["a"]),
        ("average({1, 2, 4}) > 2.3", all), ("median({3, 1, 2}) == 2", all), ("median(children.order) == 10", ["b"]),
        ("median({1, 2, 3, 4}) == 2", all), ("ANY mode({1, 2, 2, 3}) == 2", all), ("mode({1, 1, 2, 2}) == 2", all),
        ("stddev({2, 4, 4, 4, 5, 5, 7, 9}) == 2", all), ("sqrt(order) == 2", ["t"]), ("log(100) == 2", all),
        ("ln(1) == 0", all), ("exp(0) == 1", all), ("floor(score) == 1", ["a"]), ("ceiling(score) == 2", ["a", "b"]),
        ("trunc(score) == 0", ["e"]), ("abs(order) == 5", ["e"]), ("abs(score) == 0.5", ["e"]),
        ("random() < 1", all), ("random() >= 0", all), ("randomn(10) < 10", all), ("randomn(10) >= 0", all),
        ("now() > created", ["a", "b", "c"]), ("sum({}) == 0", all), ("average({}) == nil", all),
        ("count(SUBQUERY(children, $c, $c.done == NO)) == 2", ["a"]), ("SUM(children.order) == 9", ["a"]),
        ("max({created, CAST(0, \"NSDate\")}) == created", ["a", "b", "c"]),
    ])
    func functions(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // SUBQUERY(collection, $variable, predicate): $variable is each object; SELF and bare keys are the outer object.
    @Test(arguments: [
        ("SUBQUERY(children, $c, $c.done == YES).@count > 0", ["a"]),
        ("SUBQUERY(children, $c, $c.done == NO).@count == 2", ["a"]),
        ("SUBQUERY(children, $c, $c.order > SELF.order).@count == 3", ["a"]),
        ("SUBQUERY(children, $c, $c.order > order).@count > 0", ["a", "b"]),
        ("SUBQUERY(tags, $t, $t.name == \"work\").@count == 1", ["a", "b"]),
        ("SUBQUERY(children, $c, SUBQUERY($c.children, $g, $g.order == 10).@count == 1).@count == 1", ["a"]),
        ("SUBQUERY(children, $c, $c.parent == SELF).@count == children.@count", all),
        ("SUBQUERY(children, $c, ANY $c.tags.name == \"work\").@count == 1", ["a"]),
        ("ANY SUBQUERY(children, $c, TRUEPREDICATE).text BEGINSWITH \"T\"", ["a"]),
        ("SELF IN SUBQUERY(parent.children, $s, $s.order < 3)", ["b"]),
        ("SUBQUERY(children, $x, $x == SELF).@count == 0", all),
        ("SUBQUERY(children, $c, $c IN SUBQUERY(children, $c, $c.order > 2)).@count == 2", ["a"]),
        ("subquery(children, $c, $c.done == YES).@count > 0", ["a"]),
    ])
    func subqueries(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // CAST(expression, "type"), of constants (folded when parsed) and of key paths (when evaluated).
    @Test(arguments: [
        ("created == CAST(700000000, \"NSDate\")", ["a"]), ("CAST(created, \"NSNumber\") == 700086400", ["b"]),
        ("CAST(order, \"NSString\") == \"10\"", ["d"]), ("CAST(\"3\", \"NSNumber\") == order", ["c"]),
        ("price == CAST(\"2.5\", \"NSDecimalNumber\")", ["a"]), ("uid == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")", ["a"]),
        ("blob == CAST(\"AQID\", \"NSData\")", ["a"]), ("CAST(text, \"NSNumber\") == nil", all),
        ("CAST(CAST(order, \"NSString\"), \"NSNumber\") == 4", ["t"]),
    ])
    func casts(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // TERNARY(predicate, expression, expression), NSExpression's conditional.
    @Test(arguments: [
        ("TERNARY(done == YES, 1, 0) == 1", ["b", "e"]),
        ("TERNARY(order > 2, text, \"small\") == \"small\"", ["a", "b", "e"]),
        ("TERNARY(parent == nil, 0, parent.order) == 1", ["b", "c", "t"]),
    ])
    func conditionals(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }

    // "(" expression ")" on either side of a comparison, told apart from a parenthesized predicate.
    @Test(arguments: [
        ("(order) == 3", ["c"]), ("(order + 1) * 2 == 8", ["c"]), ("((order == 3))", ["c"]),
        ("(order) IN {1, 2}", ["a", "b"]), ("(order == 1) OR (order + 1) == 3", ["a", "b"]),
        ("3 == (order)", ["c"]),
    ])
    func parenthesizedExpressions(format: String, expected: [String]) throws {
        #expect(try Self.select(format) == expected)
    }
}
