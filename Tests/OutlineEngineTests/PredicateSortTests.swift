import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Sort descriptors: text form, binding, and a stable order.
@Suite struct PredicateSortTests {
    @Test(arguments: [
        ("order", "order", true, false),
        ("-created", "created", false, false),
        ("+order", "order", true, false),
        ("  - created  ", "created", false, false),
        ("text ascending", "text", true, false),
        ("text DESCENDING", "text", false, false),
        ("text asc", "text", true, false),
        ("text desc [c]", "text", false, true),
        ("-text[c]", "text", false, true),
        ("parent.order", "parent.order", true, false),
        ("-children.@count", "children.@count", false, false),
        ("#in", "in", true, false),
    ])
    func textFormsParse(text: String, keyPath: String, ascending: Bool, caseInsensitive: Bool) throws {
        let descriptor = try FetchSortDescriptor(parsing: text)
        #expect(descriptor == FetchSortDescriptor(keyPath, ascending: ascending, caseInsensitive: caseInsensitive))
        #expect(try FetchSortDescriptor(parsing: descriptor.description) == descriptor)
    }

    @Test func descriptionIsCanonical() {
        #expect(FetchSortDescriptor("order").description == "order")
        #expect(FetchSortDescriptor("created", ascending: false).description == "-created")
        #expect(FetchSortDescriptor("text", ascending: false, caseInsensitive: true).description == "-text [c]")
    }

    @Test(arguments: [
        ("", "column 1 of the sort keys: expected a key path to sort by but the text ends"),
        ("-", "column 2 of the sort keys: expected a key path to sort by but the text ends"),
        ("order up", "column 7 of the sort keys: expected \"ascending\", \"descending\", \"[c]\" or the end after \"order\" but found \"up\""),
        ("text [x]", "column 7 of the sort keys: expected \"c\" after \"[\" but found \"x\""),
        ("text [c", "column 8 of the sort keys: expected \"]\" after \"c\" but the text ends"),
        ("5", "column 1 of the sort keys: expected a key path to sort by but found \"5\""),
        ("order, , text", "column 8 of the sort keys: expected a key path to sort by but the text ends"),
        ("order, tex t", "column 12 of the sort keys: expected \"ascending\", \"descending\", \"[c]\" or the end after \"tex\" but found \"t\""),
    ])
    func malformedTextReportsTheColumn(text: String, expected: String) throws {
        let error = try #require(throws: EngineError.self) { try FetchSortDescriptor.list(parsing: text) }
        #expect(error.locatedMessage == expected)
    }

    @Test func listsParseInOrder() throws {
        let list = try FetchSortDescriptor.list(parsing: "done, -created, text [c]")
        #expect(
            list == [
                FetchSortDescriptor("done"), FetchSortDescriptor("created", ascending: false),
                FetchSortDescriptor("text", caseInsensitive: true),
            ])
    }

    func sorted(_ text: String) throws -> [String] {
        let graph = try PredicateTestGraph.make()
        let bound = try FetchSortDescriptor.list(parsing: text).bound(to: graph.schema, entity: PredicateTestGraph.item)
        return try bound.sorted(graph.items, in: graph).map(graph.label)
    }

    @Test(arguments: [
        ("order", ["e", "a", "b", "c", "t", "d"]),
        ("-order", ["d", "t", "c", "b", "a", "e"]),
        // nil first when ascending, last when descending.
        ("text", ["d", "a", "b", "t", "e", "c"]),
        ("text [c]", ["d", "a", "c", "b", "t", "e"]),
        ("-text [c]", ["e", "t", "b", "c", "a", "d"]),
        ("created", ["d", "e", "t", "a", "b", "c"]),
        ("-created", ["c", "b", "a", "d", "e", "t"]),
        // Ties keep the input order (labels a...t), also across several keys.
        ("done", ["a", "c", "d", "t", "b", "e"]),
        ("done, -order", ["d", "t", "c", "a", "b", "e"]),
        ("-done, score", ["e", "b", "c", "d", "t", "a"]),
        ("parent.order, order", ["e", "a", "b", "c", "t", "d"]),
        ("-children.@count, tags.@count", ["a", "b", "c", "d", "e", "t"]),
        ("price, uid, blob", ["b", "c", "d", "e", "t", "a"]),
    ])
    func sortingIsStableAndPutsNilFirst(text: String, expected: [String]) throws {
        #expect(try sorted(text) == expected)
    }

    @Test func compareMatchesSorted() throws {
        let graph = try PredicateTestGraph.make()
        let bound = try [FetchSortDescriptor("order")].bound(to: graph.schema, entity: PredicateTestGraph.item)
        #expect(try bound.compare(graph["a"], graph["b"], in: graph) == .orderedAscending)
        #expect(try bound.compare(graph["d"], graph["b"], in: graph) == .orderedDescending)
        #expect(try bound.compare(graph["a"], graph["a"], in: graph) == .orderedSame)
    }

    @Test(arguments: [
        ("tags.name", "column 1 of the sort keys: cannot sort by \"tags.name\": it has several values"),
        ("parent", "column 1 of the sort keys: cannot sort by \"parent\": it is a relationship, not a value"),
        ("-ordr", "column 2 of the sort keys: \"ordr\" is not a property of entity Item"),
    ])
    func unsortableKeyPathsAreRejected(text: String, expected: String) throws {
        let schema = try PredicateTestGraph.makeSchema()
        let descriptor = try FetchSortDescriptor(parsing: text)
        let error = try #require(throws: EngineError.self) { try [descriptor].bound(to: schema, entity: PredicateTestGraph.item) }
        #expect(error.locatedMessage == expected)
    }

    @Test func mixedKindsAndNaNHaveATotalOrder() {
        let terms: [PredicateTerm] = [
            .value(.string("a")), .value(.double(.nan)), .null, .value(.integer(1)),
            .value(.date(Date(timeIntervalSinceReferenceDate: 0))), .value(.double(-1)),
        ]
        let sorted = terms.sorted { BoundSortDescriptors.sortOrder($0, $1, options: []) == .orderedAscending }
        #expect(sorted.map(\.debugText) == ["nil", "nan", "-1.0", "1", "\"a\"", "date"])
    }
}

extension PredicateTerm {
    fileprivate var debugText: String {
        switch self {
        case .null: "nil"
        case .value(.date): "date"
        case .value(let v): v.displayString
        case .object: "object"
        }
    }
}
