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
}
