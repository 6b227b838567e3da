import Foundation
import Testing

@testable import OutlineEngine

/// Evaluation against ``PredicateTestGraph`` (see its documentation for the data).
@Suite struct PredicateEvaluationTests {
    static let all = ["a", "b", "c", "d", "e", "t"]

    @Test(arguments: [
        ("text == \"Buy milk\"", ["a"]),
        ("text = \"Buy milk\"", ["a"]),
        ("text != \"Buy milk\"", ["b", "c", "d", "e", "t"]),
        ("text <> \"Buy milk\"", ["b", "c", "d", "e", "t"]),
        ("order < 2", ["a", "e"]),
        ("order <= 2", ["a", "b", "e"]),
        ("order =< 2", ["a", "b", "e"]),
        ("order > 3", ["d", "t"]),
        ("order >= 3", ["c", "d", "t"]),
        ("order => 3", ["c", "d", "t"]),
        ("text < \"a\"", ["a", "b", "e", "t"]),
        ("text CONTAINS \"l\"", ["a", "b"]),
        ("text CONTAINS \"report\"", []),
        ("text CONTAINS \"\"", []),
        ("text BEGINSWITH \"Cr\"", ["b"]),
        ("text ENDSWITH \"one\"", ["t"]),
        ("text LIKE \"Buy*\"", ["a"]),
        ("text LIKE \"caf?\"", ["c"]),
        ("text LIKE \"*\"", ["a", "b", "c", "e", "t"]),
        ("text LIKE \"*i*e*\"", ["e"]),
        ("text LIKE \"Buy\\\\*\"", []),
        ("text MATCHES \"[A-Z].*\"", ["a", "b", "e", "t"]),
        ("text MATCHES \"milk\"", []),
        ("text MATCHES \"Buy|Buy milk\"", ["a"]),
        ("order IN {1, 3, 99}", ["a", "c"]),
        ("text IN {\"café\", nil}", ["c", "d"]),
        ("\"work\" IN tags.name", ["a", "b"]),
        ("text IN \"Buy milk and more\"", ["a"]),
        ("order BETWEEN {2, 4}", ["b", "c", "t"]),
        ("score BETWEEN {-1, 1.5}", ["a", "e"]),
        ("created BETWEEN {CAST(700000000, \"NSDate\"), CAST(700086400, \"NSDate\")}", ["a", "b"]),
    ])
    func operatorsSelectTheRightItems(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("text ==[c] \"CAFÉ\"", ["c"]),
        ("text ==[d] \"cafe\"", ["c"]),
        ("text ==[cd] \"CAFE\"", ["c"]),
        ("text == \"cafe\"", []),
        ("text ==[c] \"cafe\"", []),
        ("text !=[cd] \"CAFE\"", ["a", "b", "d", "e", "t"]),
        ("text CONTAINS[c] \"report\"", ["e"]),
        ("text BEGINSWITH[cd] \"creme\"", ["b"]),
        ("text BEGINSWITH[c] \"creme\"", []),
        ("text BEGINSWITH[d] \"Creme\"", ["b"]),
        ("text ENDSWITH[cd] \"BRULEE\"", ["b"]),
        ("text LIKE[c] \"*report\"", ["e"]),
        ("text LIKE[cd] \"CAFE\"", ["c"]),
        ("text MATCHES[c] \"write report\"", ["e"]),
        ("text MATCHES[cd] \"CAF.\"", ["c"]),
        ("text <[c] \"a\"", []),
        ("text IN[c] {\"BUY MILK\"}", ["a"]),
        ("\"REPORT\" IN[c] text", ["e"]),
    ])
    func optionsIgnoreCaseAndDiacritics(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("done == YES AND order > 0", ["b"]),
        ("done == YES && order > 0", ["b"]),
        ("done == YES OR order == 3", ["b", "c", "e"]),
        ("done == YES || order == 3", ["b", "c", "e"]),
        ("NOT done == YES", ["a", "c", "d", "t"]),
        ("!(done == YES)", ["a", "c", "d", "t"]),
        ("NOT NOT done == YES", ["b", "e"]),
        // AND binds tighter than OR: b, e OR (a AND text == nil).
        ("done == YES OR order == 1 AND text == nil", ["b", "e"]),
        // NOT binds tighter than AND: (NOT done) AND order > 2.
        ("NOT done == YES AND order > 2", ["c", "d", "t"]),
        ("(done == YES OR order == 1) AND text BEGINSWITH \"B\"", ["a"]),
        ("TRUEPREDICATE", all),
        ("FALSEPREDICATE", []),
        ("NOT FALSEPREDICATE", all),
        ("truepredicate AND order < 0", ["e"]),
        ("done == yes and not (order > 2) or text == nil", ["b", "d", "e"]),
    ])
    func compoundsFollowPrecedence(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("ANY tags.name == \"work\"", ["a", "b"]),
        ("SOME tags.name == \"work\"", ["a", "b"]),
        ("any tags.name == \"work\"", ["a", "b"]),
        ("tags.name == \"work\"", ["a", "b"]),
        ("ALL tags.name == \"work\"", ["a", "c", "d"]),
        ("NONE tags.name == \"work\"", ["c", "d", "e", "t"]),
        ("ANY tags.name ==[c] \"home\"", ["b", "e"]),
        ("ANY tags.name != \"work\"", ["b", "e", "t"]),
        ("ALL children.done == NO", ["b", "c", "d", "e", "t"]),
        ("ANY children.order > 3", ["a", "b"]),
        ("tags.name == nil", ["t"]),
        ("ANY tags.name IN {\"Home\", \"x\"}", ["b", "e"]),
        ("ANY children.tags.name == \"work\"", ["a"]),
        ("ANY tags.items.order == -5", ["b", "e"]),
    ])
    func modifiersQuantifyToManyKeyPaths(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("parent.text == \"Buy milk\"", ["b", "c", "t"]),
        ("parent.parent.order == 1", ["d"]),
        ("parent.parent.order == nil", ["a", "b", "c", "e", "t"]),
        ("parent == nil", ["a", "e"]),
        ("parent != nil", ["b", "c", "d", "t"]),
        ("parent.text BEGINSWITH \"Cr\"", ["d"]),
        ("SELF.text == \"café\"", ["c"]),
        ("ANY children.parent == SELF", ["a", "b"]),
        ("SELF IN parent.children", ["b", "c", "d", "t"]),
        ("SELF != nil", all),
        ("parent == SELF", []),
        ("#order == 4", ["t"]),
    ])
    func keyPathsFollowRelationships(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("children.@count > 2", ["a"]),
        ("children.@count == 0", ["c", "d", "e", "t"]),
        ("tags.@count == 0", ["c", "d"]),
        ("tags.@count >= 2", ["b"]),
        ("children.@COUNT == 1", ["b"]),
        ("children.@sum.order == 9", ["a"]),
        ("children.@sum.order == 0", ["c", "d", "e", "t"]),
        ("children.@max.order == 10", ["b"]),
        ("children.@min.order == 2", ["a"]),
        ("children.@avg.order == 3", ["a"]),
        ("children.@avg.order == nil", ["c", "d", "e", "t"]),
        ("children.@max.text == \"café\"", ["a"]),
        ("children.@min.created == CAST(700086400, \"NSDate\")", ["a"]),
        ("children.@sum.score == 2", ["a"]),
        ("children.@max.parent.order == 1", ["a"]),
        ("parent.children.@count == 3", ["b", "c", "t"]),
    ])
    func collectionOperatorsAggregate(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    @Test(arguments: [
        ("text == 'Buy milk'", ["a"]),
        ("text == \"Buy\\u{20}milk\"", ["a"]),
        ("text == \"Buy\\u0020milk\"", ["a"]),
        ("text == \"caf\\u{E9}\"", ["c"]),
        ("text == \"cafe\\u{301}\"", ["c"]),
        ("order == -5", ["e"]),
        ("score == -0.5", ["e"]),
        ("score == 1.5", ["a"]),
        ("score == 2", ["b"]),
        ("order == 2.0", ["b"]),
        ("order == 1e0", ["a"]),
        ("order < 2.5", ["a", "b", "e"]),
        ("price == 2.5", ["a"]),
        ("price == CAST(\"2.50\", \"NSDecimalNumber\")", ["a"]),
        ("price > 2", ["a"]),
        ("done == TRUE", ["b", "e"]),
        ("done == YES", ["b", "e"]),
        ("done == NO", ["a", "c", "d", "t"]),
        ("done == false", ["a", "c", "d", "t"]),
        ("done == 1", ["b", "e"]),
        ("text == nil", ["d"]),
        ("text == NULL", ["d"]),
        ("nil == text", ["d"]),
        ("text != nil", ["a", "b", "c", "e", "t"]),
        ("order < nil", []),
        ("order > nil", []),
        ("created < CAST(700086400, \"NSDate\")", ["a"]),
        ("created > CAST(700000000.5, \"NSDate\")", ["b", "c"]),
        ("created == nil", ["d", "e", "t"]),
        ("uid == \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", ["a"]),
        ("uid == CAST(\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\", \"NSUUID\")", ["a"]),
        ("blob == CAST(\"AQID\", \"NSData\")", ["a"]),
        ("score < CAST(\"inf\", \"NSNumber\")", ["a", "b", "e"]),
        ("order < 9223372036854775807", all),
        ("order < 99999999999999999999", all),
    ])
    func literalsCompareLikeFoundation(format: String, expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format) == expected)
    }

    static let placeholderCases: [(String, [FetchPredicate.Argument], [String])] = [
        ("text == %@", ["café"], ["c"]),
        ("%K == %@", ["order", 3], ["c"]),
        ("order == %d", [2], ["b"]),
        ("order == %i", [true], ["a"]),
        ("order == %ld", [10], ["d"]),
        ("score == %f", [1.5], ["a"]),
        ("order IN %@", [[1, 2]], ["a", "b"]),
        ("order IN {%@, %d}", [1, 3], ["a", "c"]),
        ("order BETWEEN %@", [[1, 2]], ["a", "b"]),
        ("ANY %K == %@", ["tags.name", "work"], ["a", "b"]),
        ("%K > 2", ["children.@count"], ["a"]),
        ("created < %@", [.value(.date(PredicateTestGraph.t1))], ["a"]),
        ("text == %@", [nil], ["d"]),
    ]

    @Test(arguments: placeholderCases)
    func placeholdersTakeArgumentsInOrder(format: String, arguments: [FetchPredicate.Argument], expected: [String]) throws {
        #expect(try PredicateTestGraph.make().matches(format, arguments) == expected)
    }

    @Test func subentitiesUseTheirOwnAndInheritedProperties() throws {
        let graph = try PredicateTestGraph.make()
        #expect(try graph.matches("priority == 2 AND parent.text == \"Buy milk\"", entity: PredicateTestGraph.task) == ["t"])
        #expect(try graph.matches("order == 4", entity: PredicateTestGraph.item) == ["t"])
    }

    @Test func evaluateReadsOneObject() throws {
        let graph = try PredicateTestGraph.make()
        let bound = try FetchPredicate(format: "children.@count == 3").bound(to: graph.schema, entityNamed: "Item")
        #expect(try bound.evaluate(graph["a"], in: graph))
        #expect(try !bound.evaluate(graph["b"], in: graph))
        #expect(bound.description == "children.@count == 3")
    }

    @Test func deepestNestingEvaluates() throws {
        let depth = FetchPredicate.maximumNestingDepth
        let format = String(repeating: "(order == 1 OR ", count: depth) + "order == 2" + String(repeating: ")", count: depth)
        #expect(try PredicateTestGraph.make().matches(format) == ["a", "b"])
        let nots = String(repeating: "NOT ", count: depth) + "order == 1"
        #expect(try PredicateTestGraph.make().matches(nots) == (depth % 2 == 0 ? ["a"] : ["b", "c", "d", "e", "t"]))
    }
}
