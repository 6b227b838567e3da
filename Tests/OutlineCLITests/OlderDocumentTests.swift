import Foundation
import Testing

/// Older documents are changed only when asked: `migrate --output` never writes over the
/// document it reads (whatever name the output has), and clearing a history there is none of
/// writes nothing.
@Suite struct OlderDocumentTests {
    @Test(arguments: ["link.outline", "./v.outline", "hard.outline"])
    func anOutputThatIsTheDocumentItselfIsRefused(output: String) throws {
        let box = try CLISandbox()
        _ = try box.copyFixture("Documents/outline-v1.outline", as: "v.outline")
        try FileManager.default.createSymbolicLink(atPath: box.path("link.outline"), withDestinationPath: "v.outline")
        try FileManager.default.linkItem(atPath: box.path("v.outline"), toPath: box.path("hard.outline"))
        let before = try Data(contentsOf: URL(fileURLWithPath: box.path("v.outline")))
        let result = try box.run("migrate", "v.outline", "--output", output)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("is the document itself (the same file on disk)"), "\(result)")
        #expect(result.stderr.contains("leave out the output to migrate the document in place"), "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: box.path("v.outline"))) == before)
        // Migrating in place keeps the old version as a backup.
        #expect(try box.run("migrate", "v.outline").status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: box.path("v.outline.bak"))) == before)
    }

    @Test func clearingNoHistoryLeavesAnOlderDocumentAsItIs() throws {
        let box = try CLISandbox()
        _ = try box.copyFixture("Documents/outline-v1.outline", as: "v.outline")
        let before = try box.bytes("v.outline")
        let cleared = try box.run("history", "v.outline", "--clear")
        #expect(cleared.status == 0 && cleared.stderr.isEmpty, "\(cleared)")
        #expect(cleared.stdout.contains("keeps no undo history"), "\(cleared)")
        #expect(try box.bytes("v.outline") == before)
        #expect(!box.exists("v.outline.bak"))
    }

    @Test func aMigrationSaysThatItDroppedTheUndoHistory() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "m.outline").status == 0)
        #expect(try box.run("add", "m.outline", "A").status == 0)
        let down = try box.run("migrate", "m.outline", "--to", "Outline 2")
        #expect(
            down.stdout == "Migrated m.outline from Outline 3 to Outline 2 (Outline 3 -> Outline 2); the old version is kept as "
                + "m.outline.bak. Its undo history was dropped: the steps belong to Outline 3 (m.outline.bak keeps them).\n",
            "\(down)")
        // Without a history there is nothing to say.
        let up = try box.run("migrate", "m.outline", "--json")
        #expect(up.stdout.contains("\"droppedHistory\": false"), "\(up)")
        #expect(try box.run("undo", "m.outline.bak").stdout == "Undid: Add item “A”\n")
    }
}
