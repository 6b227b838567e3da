import Foundation
import Testing

/// A document written with another model that happens to share an entity name (`Item`) is
/// that model's document: editing commands refuse it instead of migrating it to an outline.
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
}
