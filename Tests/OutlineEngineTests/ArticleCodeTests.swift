import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

/// The code of the articles in `Sources/OutlineEngine/OutlineEngine.docc`, run as written. The first test
/// checks that every ```` ```swift ```` block of those articles appears verbatim in a test file
/// of this folder (most are below), so an API change that breaks an article breaks a test.
@Suite struct EngineArticleCodeTests {
    @Test func everyArticleCodeBlockIsInATestOfTheModule() throws {
        let (missing, checked) = try ArticleCode.missingBlocks(ofModule: "OutlineEngine", in: "Tests/OutlineEngineTests")
        #expect(checked >= 8)
        #expect(missing == [])
    }

    // MARK: ObjectGraphAndEditing.md

    static func notesSchema() throws -> Schema {
        let schema = try Schema(
            name: "Notes",
            entities: [
                Entity(
                    name: "Note",
                    attributes: [
                        Attribute(name: "text", type: .string),
                        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                    ],
                    relationships: [
                        Relationship(name: "tags", destination: "Tag", inverse: "notes", isToMany: true)
                    ]),
                Entity(
                    name: "Tag",
                    attributes: [
                        Attribute(name: "name", type: .string)
                    ],
                    relationships: [
                        Relationship(name: "notes", destination: "Note", inverse: "tags", isToMany: true)
                    ]),
            ])
        return schema
    }

    /// A context holding one note tagged "errands", as the editing example leaves it.
    static func taggedNote() throws -> (schema: Schema, context: EditingContext, note: ManagedObject, tag: ManagedObject) {
        let schema = try notesSchema()
        let context = EditingContext(schema: schema)
        let note = try context.insert("Note")
        try context.setValue(.string("Buy milk"), forKey: "text", of: note)
        let tag = try context.insert("Tag")
        try context.setValue(.string("errands"), forKey: "name", of: tag)
        try context.add(tag, toKey: "tags", of: note)

        // The inverse followed: the tag lists the note.
        let tagged = try context.objects(forKey: "notes", of: tag)
        #expect(tagged == [note])
        return (schema, context, note, tag)
    }

    @Test func editingKeepsTheInverseInStep() throws {
        let (_, context, note, tag) = try Self.taggedNote()
        #expect(try context.objects(forKey: "tags", of: note) == [tag])
        #expect(try context.value(forKey: "order", of: note) == .integer(0))
        #expect(context.insertedObjects == [note, tag])
    }

    static func setTextByIndex(_ schema: Schema, _ context: EditingContext, _ note: ManagedObject) throws -> String? {
        guard let noteInfo = schema.info(named: "Note"), let text = noteInfo.attributeIndex(named: "text") else {
            return nil  // the model has no such entity or attribute
        }
        try context.setAttribute(.string("Buy oat milk"), text, of: note)
        let current = context.attributeValue(of: note, text)?.stringValue
        return current
    }

    @Test func typedIndicesReadAndWriteTheSameValues() throws {
        let (schema, context, note, _) = try Self.taggedNote()
        #expect(try Self.setTextByIndex(schema, context, note) == "Buy oat milk")
        #expect(try context.value(forKey: "text", of: note) == .string("Buy oat milk"))
    }

    @Test func performMakesOneNamedUndoStep() throws {
        let (_, context, note, tag) = try Self.taggedNote()
        try context.perform("Tidy up") {
            try context.setValue(.integer(1), forKey: "order", of: note)
            try context.remove(tag, fromKey: "tags", of: note)
        }
        let name = context.undoActionName  // "Tidy up"
        context.undo()
        context.redo()
        context.rollback()  // back to the last save: here, an empty context
        #expect(name == "Tidy up")
        #expect(!context.exists(note) && !context.exists(tag))
        #expect(!context.hasChanges)
    }

    @Test func undoAndRedoOfTheNamedStep() throws {
        let (_, context, note, tag) = try Self.taggedNote()
        try context.perform("Tidy up") {
            try context.setValue(.integer(1), forKey: "order", of: note)
            try context.remove(tag, fromKey: "tags", of: note)
        }
        context.undo()
        #expect(try context.objects(forKey: "tags", of: note) == [tag])
        #expect(try context.value(forKey: "order", of: note) == .integer(0))
        context.redo()
        #expect(try context.objects(forKey: "tags", of: note) == [])
        #expect(try context.value(forKey: "order", of: note) == .integer(1))
    }

    // MARK: FetchingWithPredicates.md

    /// Notes "Buy milk" (tagged), "buy bread" and "Milk the cow" with orders 0, 1, 2.
    static func threeNotes() throws -> (context: EditingContext, notes: [ManagedObject]) {
        let (_, context, first, tag) = try taggedNote()
        var notes = [first]
        for (order, text) in [(1, "buy bread"), (2, "Milk the cow")] {
            let note = try context.insert("Note")
            try context.setValue(.string(text), forKey: "text", of: note)
            try context.setValue(.integer(Int64(order)), forKey: "order", of: note)
            notes.append(note)
        }
        #expect(try context.objects(forKey: "notes", of: tag) == [first])
        return (context, notes)
    }

    @Test func fetchWithAFormatString() throws {
        let (context, notes) = try Self.threeNotes()
        let request = try FetchRequest(entityName: "Note", format: "text CONTAINS[c] %@ AND tags.@count > 0", "milk")
        let matches = try context.fetch(request)
        #expect(matches == [notes[0]])
    }

    @Test func fetchWithVariablesSortAndLimit() throws {
        let (context, notes) = try Self.threeNotes()
        let template = try FetchPredicate(format: "text BEGINSWITH[c] $prefix")
        var byPrefix = FetchRequest(entityName: "Note", predicate: try template.substituting(["prefix": "buy"]))
        byPrefix.sortDescriptors = try FetchSortDescriptor.list(parsing: "-order, text [c]")
        byPrefix.fetchLimit = 20
        let page = try context.fetch(byPrefix)
        #expect(page == [notes[1], notes[0]])
    }

    // MARK: MigratingBetweenVersions.md

    /// Version 2 of the notes model: `text` renamed `title` (by renaming identifier), and a
    /// new required `pinned` with a default.
    static func notesVersion2() throws -> Schema {
        try Schema(
            name: "Notes 2",
            entities: [
                Entity(
                    name: "Note",
                    attributes: [
                        Attribute(name: "title", type: .string, renamingIdentifier: "text"),
                        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                        Attribute(name: "pinned", type: .boolean, isOptional: false, defaultValue: .boolean(false)),
                    ],
                    relationships: [
                        Relationship(name: "tags", destination: "Tag", inverse: "notes", isToMany: true)
                    ]),
                Entity(
                    name: "Tag",
                    attributes: [
                        Attribute(name: "name", type: .string)
                    ],
                    relationships: [
                        Relationship(name: "notes", destination: "Note", inverse: "tags", isToMany: true)
                    ]),
            ])
    }

    @Test func planAndRunAMigration() throws {
        let version1 = try Self.notesSchema()
        let version2 = try Self.notesVersion2()
        let (context, _) = try Self.threeNotes()
        let graph = context.graph
        let plan = MigrationPlan.infer(from: version1, to: version2)
        for blocker in plan.blockers {
            print(blocker)  // what stands in the way, and what to change
        }
        for risk in plan.risks {
            print(risk)  // what depends on the data, such as an optional attribute becoming required
        }
        #expect(plan.isInferable)

        let result = try Migrator(plan: plan).run(graph)
        let copied = result.report.copiedObjects["Note"]  // how many notes were copied
        let migrated = result.graph  // nil when a value breaks a rule: see result.report.violations
        #expect(copied == 3)
        let migratedContext = EditingContext(graph: try #require(migrated))
        let titles = try migratedContext.objects(ofEntity: "Note").map { try migratedContext.value(forKey: "title", of: $0) }
        #expect(Set(titles) == [.string("Buy milk"), .string("buy bread"), .string("Milk the cow")])
    }
}
