import Foundation
import Testing

/// A document and a model that are not each other's: a document written with another model
/// that happens to share an entity name (`Item`) is that model's document (editing commands
/// refuse it instead of migrating it to an outline), and `validate --model` says when the
/// model given is not the document's.
@Suite struct OtherModelDocumentTests {
    @Test func aDocumentOfAnotherModelIsNotTurnedIntoAnOutline() throws {
        let box = try CLISandbox()
        _ = try box.copyFixture("Binary/other-model.outline", as: "om.outline")
        let before = try box.bytes("om.outline")
        #expect(try box.run("info", "om.outline").stdout.contains("Migration needed:   no (its own model, not a version of Outline)"))
        for arguments in [["show", "om.outline"], ["add", "om.outline", "hi"]] {
            let result = try box.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("OtherList: the document is not an outline"), "\(arguments): \(result)")
        }
        #expect(try box.bytes("om.outline") == before)
        #expect(!box.exists("om.outline.bak"))
        #expect(try box.run("migrate", "om.outline").stdout == "om.outline is already at its own model (OtherList); nothing to do.\n")
        #expect(try box.bytes("om.outline") == before)
    }

    @Test func validatingWithAModelTheDocumentIsNotOfSaysWhichModelWasUsed() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "g.outline").status == 0)
        let recipes = CLI.packageRoot.appendingPathComponent("Fixtures/Models/Recipes.xcdatamodel").path
        let result = try box.run("validate", "g.outline", "--model", recipes)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr == "Note: g.outline: its model (Outline 3) is not a version of Recipes; checked with the model it embeds.\n",
            "\(result)")
        // With the outline model (the default) there is nothing to say.
        #expect(try box.run("validate", "g.outline").stderr == "")
        // A model the document cannot even be read with: the note says why.
        _ = try box.copyFixture("Binary/other-model.outline", as: "om.outline")
        let other = try box.run("validate", "om.outline", "--model", recipes)
        #expect(other.status == 0 && other.stdout == "om.outline: valid (binary, OtherList, 1 object)\n", "\(other)")
        #expect(
            other.stderr == "Note: om.outline: its model (OtherList) is not a version of Recipes (the document's model (OtherList) "
                + "has no entity in common with Recipes); checked with the model it embeds.\n", "\(other)")
    }
}
