import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// `outline migrate`: dry runs, in-place and side-by-side migrations, blocked ones.
@Suite struct MigrateTests {
    @Test func aDryRunPrintsThePlanAndWritesNothing() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline", items: [("Groceries", ["Milk"])])
        let before = try box.bytes("old.outline")
        let result = try box.run("migrate", "old.outline", "--dry-run")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout == """
                Migration of old.outline: Outline -> Outline 3
                Path: Outline -> Outline 3 (1 step)

                Step 1: Outline -> Outline 3
                  Item: changed, objects copied property by property
                    collapsed: new attribute, every object gets NO (required)
                    created: new attribute, starts empty
                    done: new attribute, every object gets NO (required)
                    extraAttributes: new attribute, starts empty
                    note: new attribute, starts empty
                    order: copy (required)
                    text: copy, renamed from title
                    children: copy
                    parent: copy
                    tags: new relationship, starts empty
                  Tag: new entity, starts empty

                Data:
                  Item: 3 objects carried over

                """)
        #expect(try box.bytes("old.outline") == before)
        #expect(!box.exists("old.outline.bak"))
    }

    @Test func aDryRunPrintsJSONForScripts() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline 2", items: [("Groceries", [])])
        let json = try box.run("migrate", "old.outline", "--dry-run", "--json").jsonObject()
        #expect(json["file"] as? String == "old.outline")
        #expect(json["source"] as? String == "Outline 2")
        #expect(json["target"] as? String == "Outline 3")
        #expect(json["blocked"] as? Bool == false)
        #expect(json["path"] as? [String] == ["Outline 2", "Outline 3"])
        let steps = try #require(json["steps"] as? [[String: Any]])
        let entities = try #require(steps.first?["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Item", "Tag"])
        #expect(entities.map { $0["kind"] as? String } == ["transform", "add"])
        let attributes = try #require(entities[0]["attributes"] as? [[String: Any]])
        let collapsed = try #require(attributes.first { $0["name"] as? String == "collapsed" })
        #expect(collapsed["action"] as? String == "initialize")
        #expect(collapsed["default"] as? String == "NO")
        #expect((json["blockers"] as? [Any])?.isEmpty == true)
        #expect((json["violations"] as? [Any])?.isEmpty == true)
        #expect((json["data"] as? [String: Any])?["copied"] as? [String: Int] == ["Item": 2])
    }

    @Test(arguments: ["Outline", "Outline 2"])
    func migratingInPlaceKeepsABackup(version: String) throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: version, items: [("Groceries", ["Milk"])])
        let before = try box.bytes("old.outline")
        let result = try box.run("migrate", "old.outline")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout
                == "Migrated old.outline from \(version) to Outline 3 (\(version) -> Outline 3); the old version is kept as old.outline.bak.\n")
        #expect(try box.bytes("old.outline.bak") == before)
        let info = try box.run("info", "old.outline", "--json").jsonObject()
        #expect(info["schemaVersion"] as? String == "Outline 3")
        #expect(info["migrationNeeded"] as? Bool == false)
        let shown = try box.run("show", "old.outline", "--json").shownOutline()
        #expect(shown.items == [ShownItem("Groceries", [ShownItem("Milk")])])

        let again = try box.run("migrate", "old.outline")
        #expect(again.status == 0)
        #expect(again.stdout == "old.outline is already at Outline 3; nothing to do.\n")
    }

    @Test func migratingWithoutBackupOrIntoAnotherFile() throws {
        let box = try CLISandbox()
        try box.writeDocument("a.outline", version: "Outline", items: [("One", [])])
        let plain = try box.run("migrate", "a.outline", "--no-backup", "--json")
        #expect(plain.status == 0, "\(plain)")
        let json = try plain.jsonObject()
        #expect(json["migrated"] as? Bool == true)
        #expect(json["path"] as? [String] == ["Outline", "Outline 3"])
        #expect(json["backup"] is NSNull)
        #expect(!box.exists("a.outline.bak"))

        try box.writeDocument("b.outline", version: "Outline", items: [("One", [])])
        let before = try box.bytes("b.outline")
        let side = try box.run("migrate", "b.outline", "--output", "b2.outline", "--to", "Outline 2")
        #expect(side.status == 0, "\(side)")
        #expect(side.stdout == "Migrated b.outline from Outline to Outline 2 (Outline -> Outline 2); written to b2.outline.\n")
        #expect(try box.bytes("b.outline") == before)
        #expect(!box.exists("b.outline.bak"))
        #expect(try box.run("info", "b2.outline", "--json").jsonObject()["schemaVersion"] as? String == "Outline 2")
    }

    @Test func anUnknownTargetVersionIsAnError() throws {
        let box = try CLISandbox()
        try box.writeDocument("a.outline", version: "Outline", items: [])
        let result = try box.run("migrate", "a.outline", "--to", "Outline 9")
        #expect(result.status == 1)
        #expect(result.stderr == "Error: a.outline: there is no model version called \"Outline 9\". Versions are: Outline, Outline 2, Outline 3.\n")
    }

    @Test func aBlockedMigrationListsEveryBlockerAndExitsWith1() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 2", notes: [("Plan", 3)])
        let before = try box.bytes("notes.outline")
        let dry = try box.run("migrate", "notes.outline", "--model", CLISandbox.notebookModel, "--dry-run")
        #expect(dry.status == 1)
        #expect(
            dry.stdout == """
                Migration of notes.outline: Notebook 2 -> Notebook 3

                Blocked: 1 blocker
                  - Note.pages: Integer 64 -> String: Integer 64 values cannot be converted to String. Keep the type, or add a new attribute under another name (with its own renaming identifier) and fill it in code.

                """, "\(dry)")
        #expect(
            dry.stderr
                == "Error: notes.outline: Notebook 2 -> Notebook 3: the migration cannot be inferred (1 blocker listed above). Change the model as each blocker says, or add an intermediate version; nothing was written.\n"
        )

        let json = try box.run("migrate", "notes.outline", "--model", CLISandbox.notebookModel, "--dry-run", "--json")
        #expect(json.status == 1)
        let blockers = try #require(try json.jsonObject()["blockers"] as? [[String: String]])
        #expect(
            blockers == [
                [
                    "code": "incompatibleTypes", "entity": "Note", "property": "pages", "from": "Integer 64", "to": "String",
                    "reason": "Integer 64 values cannot be converted to String",
                    "hint": "Keep the type, or add a new attribute under another name (with its own renaming identifier) and fill it in code.",
                ]
            ])

        let real = try box.run("migrate", "notes.outline", "--model", CLISandbox.notebookModel)
        #expect(real.status == 1)
        #expect(real.stdout == "")
        #expect(real.stderr.hasPrefix("Error: notes.outline: Notebook 2 -> Notebook 3: no migration can be inferred"), "\(real)")
        #expect(real.stderr.contains("\n  - Note.pages: Integer 64 -> String: Integer 64 values cannot be converted to String."))
        #expect(try box.bytes("notes.outline") == before)
        #expect(!box.exists("notes.outline.bak"))
    }

    @Test func dataThatDoesNotFitNamesTheObjects() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook", notes: [(nil, 3), ("Ideas", nil), (nil, 1)])
        let before = try box.bytes("notes.outline")
        let dry = try box.run("migrate", "notes.outline", "--model", CLISandbox.notebookModel, "--to", "Notebook 2", "--dry-run")
        #expect(dry.status == 1)
        #expect(
            dry.stdout == """
                Migration of notes.outline: Notebook -> Notebook 2
                Path: Notebook -> Notebook 2 (1 step)

                Step 1: Notebook -> Notebook 2
                  Note: changed, objects copied property by property
                    pages: convert Integer 32 -> Integer 64 (lossless)
                    starred: new attribute, every object gets NO (required)
                    title: copy (required)
                    body: removed, its values are dropped

                Risks: 1 (the mapping can be inferred; migrating a document fails only where its data is in the way, and leaves it unchanged)
                  Risk: Note.title: optional String -> required String without a default: fails for every object whose value is nil: 2 objects would fail (z102, z104).

                Data:
                  Note: 3 objects carried over

                Data violations: 1
                  - Note.title: 2 objects have no value, but title becomes required without a default (z102, z104)
                  Fix the objects named above in the old version, then migrate again.

                """, "\(dry)")
        #expect(
            dry.stderr
                == "Error: notes.outline: Notebook -> Notebook 2: the data does not fit Notebook 2 (1 problem listed above). Fix the objects named above in the old version, then migrate again; nothing was written.\n"
        )

        let real = try box.run("migrate", "notes.outline", "--model", CLISandbox.notebookModel, "--to", "Notebook 2")
        #expect(real.status == 1)
        #expect(real.stderr.contains("Note.title: 2 objects have no value, but title becomes required without a default (z102, z104)"), "\(real)")
        #expect(try box.bytes("notes.outline") == before)
    }
}
