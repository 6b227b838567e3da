import Foundation
import Testing

@testable import OutlineEngine

@Suite struct ValidationTests {
    @Test func reportsEveryViolationWithObjectAndProperty() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        try context.setValue(.integer(200), forKey: "age", of: ann)
        let bob = try context.insert("Person")
        try context.setValue(.string("bob"), forKey: "name", of: bob)
        let pet = try context.insert("Pet")
        let t1 = try context.insert("Tag")
        let t2 = try context.insert("Tag")
        try context.setValue(.string("work"), forKey: "name", of: t1)
        try context.setValue(.string("work"), forKey: "name", of: t2)
        let long = try context.insert("Person")
        try context.setValue(.string("Abcdefghijklmnopqrstuvwxyz"), forKey: "name", of: long)
        let issues = context.validationIssues().map(\.description)
        #expect(
            issues == [
                "Person z102.name: a value is required",
                "Person z102.age: value 200 is above the maximum 150",
                "Person z103.name: \"bob\" does not match the pattern [A-Z][a-z]*",
                "Pet z104.owner: a related object is required",
                "Person z107.name: length 26 is above the maximum 20",
                "Tag z106: has the same name as Tag z105; it must be unique",
            ])
        _ = pet
        let error = #expect(throws: EngineError.self) { try context.validateForSave() }
        #expect(error?.code == .validationFailed)
        #expect(error?.details.count == 6)
    }

    @Test func validObjectsPass() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        try context.setValue(.string("Ann"), forKey: "name", of: ann)
        try context.setValue(.integer(30), forKey: "age", of: ann)
        #expect(context.validationIssues().isEmpty)
        try context.validateForSave()
    }
}
