import Foundation
import Testing

/// `outline schema show` and `outline schema diff`.
@Suite struct SchemaCommandTests {
    static var outlineModel: String { CLI.packageRoot.appendingPathComponent("Schemas/Outline.xcdatamodeld").path }

    @Test func showPrintsTheCurrentVersion() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "show", Self.outlineModel)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Model Outline: 3 versions (Outline, Outline 2, Outline 3 (current))")
        #expect(lines[1] == "Version Outline 3 (identifier 3)")
        #expect(lines[2].hasPrefix("Version hash: ") && lines[2].count == "Version hash: ".count + 44)
        #expect(lines.contains("Entity Item"))
        #expect(lines.contains("  text: String, optional, renaming identifier title"))
        #expect(lines.contains("  parent: to-one Item, inverse children, optional, min 1, delete rule Nullify"))
        #expect(lines.contains("  children: to-many Item, inverse parent, optional, delete rule Cascade"))
        #expect(lines.contains("Entity Tag"))
        #expect(lines.contains("  unique: name"))
    }

    @Test func showPrintsAnyVersionAsJSON() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "show", Self.outlineModel, "--model-version", "Outline", "--json")
        #expect(result.status == 0, "\(result)")
        let json = try result.jsonObject()
        #expect(json["version"] as? String == "Outline")
        #expect(json["versionIdentifier"] as? String == "1")
        #expect(json["versions"] as? [String] == ["Outline", "Outline 2", "Outline 3"])
        let entities = try #require(json["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Item"])
        let attributes = try #require(entities[0]["attributes"] as? [[String: Any]])
        #expect(attributes.compactMap { $0["name"] as? String }.sorted() == ["order", "title"])
        #expect(attributes.allSatisfy { ($0["hash"] as? String)?.count == 44 })
        let relationships = try #require(entities[0]["relationships"] as? [[String: Any]])
        let parent = try #require(relationships.first { $0["name"] as? String == "parent" })
        #expect(parent["toMany"] as? Bool == false)
        #expect(parent["inverse"] as? String == "children")
    }

    @Test func showReadsASingleVersionFolder() throws {
        let box = try CLISandbox()
        let folder = CLI.packageRoot.appendingPathComponent("Fixtures/Models/AllAttributeTypes.xcdatamodel").path
        let result = try box.run("schema", "show", folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Model AllAttributeTypes: 1 version (AllAttributeTypes (current))\n"))
    }

    @Test func diffPrintsTheInferredMapping() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "diff", Self.outlineModel, "--from", "Outline", "--to", "Outline 2")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout == """
                Mapping Outline -> Outline 2
                Path: Outline -> Outline 2 (1 step)
                  Item: changed, objects copied property by property
                    created: new attribute, starts empty
                    done: new attribute, every object gets NO (required)
                    note: new attribute, starts empty
                    order: copy (required)
                    text: copy, renamed from title
                    children: copy
                    parent: copy

                """)
    }

    @Test func diffListsEveryBlockerAndExitsWith1() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "diff", CLISandbox.notebookModel, "--from", "Notebook", "--to", "Notebook 3")
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                Mapping Notebook -> Notebook 3
                  Note: changed, objects copied property by property
                    pages: blocked: Integer 32 -> String
                    starred: new attribute, every object gets NO (required)
                    title: copy (required)
                    body: removed, its values are dropped

                Blocked: 1 blocker
                  - Note.pages: Integer 32 -> String: Integer 32 values cannot be converted to String. Keep the type, or add a new attribute under another name (with its own renaming identifier) and fill it in code.

                Risks: 1 (besides the blockers; migrating a document fails only where its data is in the way, and leaves it unchanged)
                  Risk: Note.title: optional String -> required String without a default: fails for every object whose value is nil.

                """, "\(result)")
        #expect(
            result.stderr
                == "Error: \(CLISandbox.notebookModel): Notebook -> Notebook 3: the migration cannot be inferred (1 blocker listed above). Change the model as each blocker says, or add an intermediate version.\n"
        )
        let json = try box.run("schema", "diff", CLISandbox.notebookModel, "--from", "Notebook", "--to", "Notebook 3", "--json")
        #expect(json.status == 1)
        #expect(try json.jsonObject()["blocked"] as? Bool == true)
        #expect((try json.jsonObject()["blockers"] as? [Any])?.count == 1)
    }

    @Test func unknownVersionsAndModelsAreErrors() throws {
        let box = try CLISandbox()
        let version = try box.run("schema", "show", Self.outlineModel, "--model-version", "Outline 7")
        #expect(version.status == 1)
        #expect(
            version.stderr == "Error: \(Self.outlineModel): there is no version called \"Outline 7\". Versions are: Outline, Outline 2, Outline 3.\n")
        let diff = try box.run("schema", "diff", Self.outlineModel, "--from", "Outline", "--to", "Nope")
        #expect(diff.status == 1)
        #expect(diff.stderr.hasPrefix("Error: \(Self.outlineModel): there is no version called \"Nope\"."))
        let missing = try box.run("schema", "show", "missing.xcdatamodeld")
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "Error: \(box.path("missing.xcdatamodeld")): no such file or folder. Check the path; a model is a .xcdatamodeld or .xcdatamodel folder or a contents file.\n"
        )
        let broken = try box.run("schema", "show", CLI.packageRoot.appendingPathComponent("Fixtures/Models/NotXML.xcdatamodel").path)
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("Error: "))
    }
}
