import Foundation
import Testing

@testable import OutlineEngine

@Suite struct FetchRequestTests {
    static func people() throws -> EditingContext {
        let context = EditingContext(schema: try TestSchemas.everything())
        let work = try context.insert("Tag")
        try context.setValue(.string("work"), forKey: "name", of: work)
        for (name, age) in [("Cy", 40), ("Ann", 30), ("Bob", 30), ("Dee", 20)] {
            let person = try context.insert("Person")
            try context.setValue(.string(name), forKey: "name", of: person)
            try context.setValue(.integer(Int64(age)), forKey: "age", of: person)
            if age == 30 { try context.add(work, toKey: "tags", of: person) }
        }
        return context
    }

    static func names(_ context: EditingContext, _ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try context.value(forKey: "name", of: $0)?.stringValue ?? "" }
    }

    @Test func predicateSortAndWindow() throws {
        let context = try Self.people()
        var request = try FetchRequest(entityName: "Person", format: "age >= 30 AND NOT name BEGINSWITH[c] %@", "c")
        #expect(try Self.names(context, context.fetch(request)) == ["Ann", "Bob"])
        request = FetchRequest(entityName: "Person", sortDescriptors: try FetchSortDescriptor.list(parsing: "age, -name"))
        #expect(try Self.names(context, context.fetch(request)) == ["Dee", "Bob", "Ann", "Cy"])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try Self.names(context, context.fetch(request)) == ["Bob", "Ann"])
    }

    @Test func toManyKeyPathsAndCounts() throws {
        let context = try Self.people()
        let tagged = try context.fetch(try FetchRequest(entityName: "Person", format: "ANY tags.name == \"work\""))
        #expect(try Self.names(context, tagged) == ["Ann", "Bob"])
        #expect(try context.count(for: try FetchRequest(entityName: "Tag", format: "people.@count == 2")) == 1)
    }

    @Test func deletedObjectsAreNotFetched() throws {
        let context = try Self.people()
        let ann = try context.fetch(try FetchRequest(entityName: "Person", format: "name == 'Ann'"))
        try context.delete(ann)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 3)
    }

    @Test func mistakesPointAtTheColumn() throws {
        let context = try Self.people()
        let error = #expect(throws: EngineError.self) {
            try context.fetch(try FetchRequest(entityName: "Person", format: "nmae == 'Ann'"))
        }
        #expect(error?.code == .invalidPredicate || error?.code == .unknownName)
        #expect(error?.location == "column 1 of the query")
    }
}
