import Foundation
import Testing

/// Scripts, texts and notes written with Windows line endings (CRLF) read as with LF: the
/// final line ending is the file's, and no letter goes with it.
@Suite struct LineEndingTests {
    @Test func crlfScriptsTextsAndNotesKeepEveryLetter() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "w.outline").status == 0)
        let batch = try box.run(["batch", "w.outline"], standardInput: Data("add Bread\r\nadd \"a b\" --done\r\nadd Milk\r\n".utf8))
        #expect(batch.status == 0, "\(batch)")
        let text = try box.run(["add", "w.outline", "--text-file", "-"], standardInput: Data("Tea\r\n".utf8))
        #expect(text.status == 0, "\(text)")
        try Data("Oat, not soy.\r\n".utf8).write(to: URL(fileURLWithPath: box.path("note.txt")))
        #expect(try box.run("add", "w.outline", "Coffee", "--note-file", "note.txt").status == 0)
        #expect(try box.run("show", "w.outline").stdout == "1 Bread\n2 [x] a b\n3 Milk\n4 Tea\n5 Coffee\n  Oat, not soy.\n")
        let json = try box.run("show", "w.outline", "--json").stdout
        #expect(json.contains("\"Oat, not soy.\""), "\(json)")
    }
}
