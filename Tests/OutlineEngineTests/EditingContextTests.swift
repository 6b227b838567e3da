import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

@Suite struct EditingContextTests {
    @Test func insertAppliesDefaultsAndAssignsIncreasingIDs() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let a = try context.insert("Item")
        let b = try context.insert("Item")
        #expect(try context.value(forKey: "order", of: a) == .integer(0))
        #expect(try context.value(forKey: "title", of: a) == nil)
        #expect(context.objectID(of: a) == ObjectID(102))
        #expect(context.objectID(of: b) == ObjectID(103))
        #expect(context.object(with: ObjectID(103)) == b)
        #expect(context.insertedObjects == [a, b])
        #expect(context.hasChanges)
    }

    @Test func settingToOneUpdatesBothInverseSides() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let p1 = try context.insert("Item")
        let p2 = try context.insert("Item")
        let c = try context.insert("Item")
        try context.setObject(p1, forKey: "parent", of: c)
        #expect(try context.objects(forKey: "children", of: p1) == [c])
        try context.setObject(p2, forKey: "parent", of: c)
        #expect(try context.objects(forKey: "children", of: p1) == [])
        #expect(try context.objects(forKey: "children", of: p2) == [c])
        try context.add(c, toKey: "children", of: p1)
        #expect(try context.object(forKey: "parent", of: c) == p1)
        #expect(try context.objects(forKey: "children", of: p2) == [])
        try context.remove(c, fromKey: "children", of: p1)
        #expect(try context.object(forKey: "parent", of: c) == nil)
    }

    @Test func manyToManyAndSelfInverseStayInStep() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        let bob = try context.insert("Person")
        let work = try context.insert("Tag")
        try context.add(work, toKey: "tags", of: ann)
        try context.add(work, toKey: "tags", of: bob)
        #expect(try context.objects(forKey: "people", of: work) == [ann, bob])
        try context.add(bob, toKey: "friends", of: ann)
        #expect(try context.objects(forKey: "friends", of: bob) == [ann])
        try context.remove(ann, fromKey: "people", of: work)
        #expect(try context.objects(forKey: "tags", of: ann) == [])
    }

    @Test func oneToOneStealsFromThePreviousHolder() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        let bob = try context.insert("Person")
        let passport = try context.insert("Passport")
        try context.setObject(passport, forKey: "passport", of: ann)
        try context.setObject(passport, forKey: "passport", of: bob)
        #expect(try context.object(forKey: "passport", of: ann) == nil)
        #expect(try context.object(forKey: "holder", of: passport) == bob)
    }

    @Test func cascadeDeletesTheWholeTreeWithoutRecursion() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let root = try context.insert("Item")
        let sibling = try context.insert("Item")
        try context.setObject(root, forKey: "parent", of: sibling)
        var parent = try context.insert("Item")
        try context.setObject(root, forKey: "parent", of: parent)
        let top = parent
        for _ in 0 ..< 20_000 {
            let child = try context.insert("Item")
            try context.setObject(parent, forKey: "parent", of: child)
            parent = child
        }
        context.markSaved()
        try context.delete(top)
        #expect(context.graph.count(ofEntity: 0) == 2)
        #expect(try context.objects(forKey: "children", of: root) == [sibling])
        #expect(context.deletedObjects.count == 20_001)
        context.undo()
        #expect(context.graph.count(ofEntity: 0) == 20_003)
        #expect(try context.objects(forKey: "children", of: root) == [sibling, top])
        #expect(!context.hasChanges)
    }

    @Test func denyRefusesAndChangesNothing() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        let passport = try context.insert("Passport")
        try context.setObject(passport, forKey: "passport", of: ann)
        let error = #expect(throws: EngineError.self) { try context.delete(ann) }
        #expect(error?.code == .deleteDenied)
        #expect(
            error?.description
                == "Person z102.passport: cannot delete Person z102: its relationship \"passport\" still refers to Passport z103 and its delete rule is Deny. Remove or delete the related objects first."
        )
        #expect(context.exists(ann))
        try context.delete(passport)
        try context.delete(ann)
        #expect(!context.exists(ann))
    }

    @Test func nullifyAndNoActionRules() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        let tag = try context.insert("Tag")
        let pet = try context.insert("Pet")
        try context.add(tag, toKey: "tags", of: ann)
        try context.setObject(tag, forKey: "bookmark", of: ann)
        try context.add(pet, toKey: "pets", of: ann)
        try context.delete(tag)
        #expect(try context.objects(forKey: "tags", of: ann) == [])
        // No inverse and No Action: the reference stays until the caller fixes it; validation says so.
        #expect(context.graph.relatedObject(of: ann, 4) == tag)
        #expect(context.validationIssues(of: [ann]).map(\.description).contains("Person z102.bookmark: refers to Tag z103, which was deleted"))
        try context.delete(ann)
        #expect(!context.exists(pet), "pets cascade")
    }

    @Test func editStepCountCountsTheStepsEditsMakeOnly() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let item = try context.perform("Add") { try context.insert("Item") }
        try context.perform("Rename") { try context.setValue(.string("a"), forKey: "title", of: item) }
        #expect(context.editStepCount == 2)
        context.undo()
        context.redo()
        context.undo()
        #expect(context.editStepCount == 2, "undo and redo make no new step")
        context.isUndoRegistrationEnabled = false
        try context.setValue(.string("b"), forKey: "title", of: item)
        #expect(context.editStepCount == 2, "an edit outside undo makes no step")
        context.isUndoRegistrationEnabled = true
        try context.setValue(.string("c"), forKey: "title", of: item)
        #expect(context.editStepCount == 3 && !context.canRedo)
    }

    @Test func undoAndRedoWithNamedGroups() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let item = try context.perform("Add item “Buy milk”") { () throws -> ManagedObject in
            let item = try context.insert("Item")
            try context.setValue(.string("Buy milk"), forKey: "title", of: item)
            return item
        }
        try context.perform("Rename") { try context.setValue(.string("Buy oat milk"), forKey: "title", of: item) }
        #expect(context.undoActionName == "Rename")
        context.undo()
        #expect(try context.value(forKey: "title", of: item) == .string("Buy milk"))
        #expect(context.undoActionName == "Add item “Buy milk”")
        #expect(context.redoActionName == "Rename")
        context.undo()
        #expect(!context.exists(item))
        #expect(!context.hasChanges)
        #expect(!context.canUndo)
        context.redo()
        #expect(try context.value(forKey: "title", of: item) == .string("Buy milk"))
        context.redo()
        #expect(try context.value(forKey: "title", of: item) == .string("Buy oat milk"))
        #expect(!context.canRedo)
        context.undo()
        try context.setValue(.string("Bread"), forKey: "title", of: item)
        #expect(!context.canRedo, "a new edit clears redo")
    }

    @Test func failedEditInsideAGroupIsRevertedCompletely() throws {
        let context = EditingContext(schema: try TestSchemas.everything())
        let ann = try context.insert("Person")
        #expect(throws: EngineError.self) {
            try context.perform("Bad") {
                try context.setValue(.string("Ann"), forKey: "name", of: ann)
                try context.setValue(.string("not a number"), forKey: "age", of: ann)
            }
        }
        #expect(try context.value(forKey: "name", of: ann) == nil)
        #expect(context.undoActionName == nil)
    }

    @Test func rollbackRestoresTheSavedState() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let a = try context.insert("Item")
        try context.setValue(.string("kept"), forKey: "title", of: a)
        context.markSaved()
        let b = try context.insert("Item")
        try context.setObject(a, forKey: "parent", of: b)
        try context.setValue(.string("changed"), forKey: "title", of: a)
        #expect(context.updatedObjects == [a])
        context.rollback()
        #expect(!context.exists(b))
        #expect(try context.value(forKey: "title", of: a) == .string("kept"))
        #expect(try context.objects(forKey: "children", of: a) == [])
        #expect(!context.hasChanges && !context.canUndo)
    }

    @Test func observersSeeEachStep() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        var seen: [ChangeSet] = []
        let token = context.addObserver { seen.append($0) }
        let a = try context.insert("Item")
        try context.setValue(.string("x"), forKey: "title", of: a)
        context.undo()
        #expect(seen == [ChangeSet(inserted: [a]), ChangeSet(updated: [a]), ChangeSet(updated: [a])])
        context.removeObserver(token)
        context.undo()
        #expect(seen.count == 3)
    }

    @Test func typeMismatchAndUnknownNamesAreClearErrors() throws {
        let context = EditingContext(schema: try TestSchemas.nestedList())
        let a = try context.insert("Item")
        let mismatch = #expect(throws: EngineError.self) { try context.setValue(.string("x"), forKey: "order", of: a) }
        #expect(mismatch?.description == "Item z102.order: \"x\" is not a valid Integer 64 value. Give a value of type Integer 64.")
        let unknown = #expect(throws: EngineError.self) { try context.setValue(.string("x"), forKey: "titel", of: a) }
        #expect(unknown?.description == "Item.titel: \"titel\" is not an attribute of Item. Attributes are: order, title.")
        #expect(throws: EngineError.self) { try context.insert("Nope") }
    }
}
