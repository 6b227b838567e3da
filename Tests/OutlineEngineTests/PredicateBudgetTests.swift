import Foundation
import Testing

@testable import OutlineEngine

/// Every evaluation is bounded: key paths reach each object once, every unit of work is
/// charged to a budget, and what does not fit ends in an ``EngineError`` naming the object
/// (by its object ID in an editing context), never a crash, a hang or a partial answer.
@Suite struct PredicateBudgetTests {
    /// A flat outline: one root with `count` children, texts "item 1"... and the last one "z".
    static func flat(_ count: Int) throws -> EditingContext {
        let context = EditingContext(schema: try PredicateTestGraph.makeSchema())
        let root = try context.insert("Item")
        try context.setValue(.string("root"), forKey: "text", of: root)
        for i in 1 ... count {
            let item = try context.insert("Item")
            try context.setValue(.string(i == count ? "z" : "item \(i)"), forKey: "text", of: item)
            try context.setValue(.integer(Int64(i)), forKey: "order", of: item)
            try context.setObject(root, forKey: "parent", of: item)
        }
        return context
    }

    /// Issue 21: on a 300-item document this allocated 2.5 GB and aborted (each hop
    /// multiplied the objects reached by 300). With set semantics each hop reaches each
    /// object once: about 1,200 units per item, 360,000 in all.
    @Test func toManyChainsReachEachObjectOnce() throws {
        let context = try Self.flat(300)
        let format = "ANY parent.children.parent.children.parent.children.parent.children.text == \"z\""
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: format), workLimit: 2_000_000)
        let found = try context.fetch(request)
        #expect(found.count == 300)
        // Counting goes through the same objects: each sibling once.
        let counted = FetchRequest(
            entityName: "Item", predicate: try FetchPredicate(format: "parent.children.parent.children.@count == 300"),
            workLimit: 2_000_000)
        #expect(try context.fetch(counted).count == 300)
    }

    /// A dense many-to-many graph: 120 items each tagged with the same 120 tags. Every hop
    /// through tags and items visits 14,400 links for every item; past the work limit the
    /// fetch fails, naming the item it was evaluating, and nothing is returned.
    @Test func workBeyondTheLimitIsAnErrorNamingTheObject() throws {
        let context = EditingContext(schema: try PredicateTestGraph.makeSchema())
        let tags = try (0 ..< 120).map { i -> ManagedObject in
            let tag = try context.insert("Tag")
            try context.setValue(.string("tag \(i)"), forKey: "name", of: tag)
            return tag
        }
        for i in 0 ..< 120 {
            let item = try context.insert("Item")
            try context.setValue(.string("item \(i)"), forKey: "text", of: item)
            for tag in tags { try context.add(tag, toKey: "tags", of: item) }
        }
        let format = "ANY tags.items.tags.items.tags.items.text == \"nothing\""
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: format), workLimit: 1_000_000)
        let error = try #require(throws: EngineError.self) { try context.fetch(request) }
        #expect(error.code == .invalidPredicate)
        // The item being evaluated when the budget ran out: one of the items, by its object ID.
        let location = try #require(error.location)
        let id = try #require(location.hasPrefix("Item ") ? ObjectID(string: location.dropFirst(5)) : nil)
        #expect(try context.objects(ofEntity: "Item").contains { context.objectID(of: $0) == id })
        #expect(error.message == "evaluating the predicate needs more than 1,000,000 units of work; it stopped at this object")
        #expect(error.hint?.hasPrefix("Narrow the predicate") == true)
        // The same query within a larger budget answers, exactly.
        var generous = request
        generous.workLimit = 50_000_000
        #expect(try context.fetch(generous).isEmpty)
    }

    /// The default budget grows with the number of objects evaluated.
    @Test func theDefaultBudgetScalesWithTheObjects() {
        #expect(BoundPredicate.defaultWorkLimit(objectCount: 0) == 100_000_000)
        #expect(BoundPredicate.defaultWorkLimit(objectCount: 1_000_000) == 10_100_000_000)
        #expect(BoundPredicate.defaultWorkLimit(objectCount: .max) == .max)
    }

    /// Issue 21: a MATCHES that ICU could not decide within about a second counted the item as
    /// not matching. Patterns a finite automaton can run are now decided exactly; one that
    /// needs exponential backtracking is an error naming the item and the pattern.
    @Test func undecidableMatchesIsAnErrorNamingItemAndPattern() throws {
        let context = EditingContext(schema: try PredicateTestGraph.makeSchema())
        let item = try context.insert("Item")
        try context.setValue(.string(String(repeating: "a", count: 34) + "c"), forKey: "text", of: item)
        // ICU gives up on the first alternative and answers "no match": wrong.
        let decided = try context.fetch(FetchRequest(entityName: "Item", format: "text MATCHES %@", "(a+)+b|a*c"))
        #expect(decided == [item])

        try context.setValue(.string(String(repeating: "a", count: 40)), forKey: "text", of: item)
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "text MATCHES \"(a*)*\\\\1b\""))
        let error = try #require(throws: EngineError.self) { try context.fetch(request) }
        #expect(error.location == "Item \(context.objectID(of: item))")
        #expect(
            error.message == "MATCHES \"(a*)*\\\\1b\" (column 14 of the query) cannot be decided for this object within 1,000,000 backtracking steps")
        #expect(error.hint?.hasPrefix("Simplify the pattern") == true)
    }

    /// A pattern that comes from a key path is compiled when evaluated; a bad one is an error
    /// naming the object whose value it was.
    @Test func aBadPatternFromAKeyPathNamesTheObject() throws {
        let context = EditingContext(schema: try PredicateTestGraph.makeSchema())
        let parent = try context.insert("Item")
        try context.setValue(.string("(unclosed"), forKey: "text", of: parent)
        let child = try context.insert("Item")
        try context.setValue(.string("x"), forKey: "text", of: child)
        try context.setObject(parent, forKey: "parent", of: child)
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "text MATCHES parent.text"))
        let error = try #require(throws: EngineError.self) { try context.fetch(request) }
        #expect(error.location == "Item \(context.objectID(of: child))")
        #expect(
            error.message
                == "the regular expression \"(unclosed\" after MATCHES (column 14 of the query) is invalid: missing \")\" for the group opened at character 1 of the pattern"
        )
    }

    /// Sort keys with collection operators are charged too.
    @Test func sortKeysAreChargedToo() throws {
        let context = try Self.flat(200)
        var request = FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("parent.children.@count")])
        request.workLimit = 10_000
        let error = try #require(throws: EngineError.self) { try context.fetch(request) }
        #expect(error.message.hasPrefix("evaluating the predicate needs more than 10,000 units of work"))
        request.workLimit = nil
        #expect(try context.fetch(request).count == 201)
    }

    /// A SUBQUERY inside a SUBQUERY over the same large relationship multiplies its work;
    /// it fails at the limit like any other evaluation.
    @Test func nestedSubqueriesAreBounded() throws {
        let context = try Self.flat(100)
        let format =
            "SUBQUERY(parent.children, $a, SUBQUERY(parent.children, $b, SUBQUERY(parent.children, $c, $c.order > $b.order AND $b.order > $a.order).@count > 0).@count > 0).@count > 0"
        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: format), workLimit: 1_000_000)
        #expect(throws: EngineError.self) { try context.fetch(request) }
    }
}
