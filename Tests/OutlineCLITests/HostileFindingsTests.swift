import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import Testing

/// The findings of issue 21's hostile pass that show through the tool: each command either does
/// its job or exits 1 with a message, and never writes a file it cannot read back, drops items,
/// hangs on a pipe or maps two file names to one.
@Suite struct HostileFindingsTests {
    // MARK: A save never writes what the reader refuses

    /// An outline store whose `nextObjectID` is `next`, as XML.
    static func xmlStore(_ box: CLISandbox, next: UInt64) throws -> String {
        try box.writeDocument("base.xml", version: "Outline 3", format: .xml, items: [("one", [])])
        let text = String(decoding: try box.bytes("base.xml"), as: UTF8.self)
        let range = try #require(text.range(of: #"<nextObjectID>\d+</nextObjectID>"#, options: .regularExpression))
        return text.replacingCharacters(in: range, with: "<nextObjectID>\(next)</nextObjectID>")
    }

    @Test func addingToABinaryDocumentAtTheLastIDKeepsItReadable() throws {
        let box = try CLISandbox()
        let xml = try Self.xmlStore(box, next: StoreLimits.maximumObjectID - 1)
        let store = try PersistentStore.load([UInt8](xml.utf8))
        try Data(try store.encoded(as: .binary)).write(to: URL(fileURLWithPath: box.path("full.outline")))

        let first = try box.run("add", "full.outline", "last")
        #expect(first.status == 0, "\(first)")
        let saved = try box.bytes("full.outline")
        let second = try box.run("add", "full.outline", "one too many")
        #expect(second.status == 1)
        #expect(
            second.stderr
                == "Error: full.outline: Item: the document has used every object id up to z4611686018427387904 (next would be z4611686018427387905). No more objects can be added to this document; copy its objects into a new one.\n"
        )
        #expect(try box.bytes("full.outline") == saved)
        let shown = try box.run("show", "full.outline", "--ids")
        #expect(shown.stdout == "1 one  #103\n2 last  #4611686018427387904\n", "\(shown)")
        #expect(!box.exists("full.outline.bak"))
    }

    @Test(arguments: [
        (
            #"id="z103""#, #"id="z4611686018427387905""#,
            "the object id z4611686018427387905 is over the largest object id a document may hold (z4611686018427387904)"
        ),
        ("<dict>", "<dict><key>k</key><string>a</string><key>k</key><string>b</string>", #"custom metadata key "k" appears twice"#),
        (
            "<dict>", "<dict><key>deep</key>" + String(repeating: "<array>", count: 33) + "<true/>" + String(repeating: "</array>", count: 33),
            #"custom metadata "deep" nests deeper than 32 levels"#
        ),
    ])
    func convertingAStoreNoDocumentMayHoldLeavesTheTargetAlone(_ original: String, _ replacement: String, _ message: String) throws {
        let box = try CLISandbox()
        var xml = try Self.xmlStore(box, next: 103)
        let range = try #require(xml.range(of: original))
        xml.replaceSubrange(range, with: replacement)
        try Data(xml.utf8).write(to: URL(fileURLWithPath: box.path("in.xml")))
        try box.writeDocument("target.outline", version: "Outline 3", items: [("keep me", [])])
        let before = try box.bytes("target.outline")
        let result = try box.run("convert", "in.xml", "target.outline")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: in.xml: line ") && result.stderr.contains(message), "\(result)")
        #expect(try box.bytes("target.outline") == before)
    }

    // MARK: Never a silent wrong answer

    /// A document with root -> "A", and "C" (holding "D") without a parent.
    static func detached(_ box: CLISandbox) throws {
        let store = PersistentStore(schema: try OutlineSchemas.current)
        let document = try OutlineDocument(context: store.context)
        try document.insertItem("A")
        let c = try document.insertItem("C")
        try document.insertItem("D", under: c)
        try store.context.setObject(nil, forKey: "parent", of: c)
        try Data(try store.encoded(as: .binary)).write(to: URL(fileURLWithPath: box.path("detached.outline")))
    }

    @Test(arguments: [
        ["show", "detached.outline"], ["show", "detached.outline", "--json"], ["find", "detached.outline", "text != nil"],
        ["convert", "detached.outline", "out.opml"], ["convert", "detached.outline", "out.md"],
        ["convert", "detached.outline", "out.txt"],
    ])
    func itemsNotUnderTheRootAreNeverLeftOutSilently(_ arguments: [String]) throws {
        let box = try CLISandbox()
        try Self.detached(box)
        let result = try box.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "Error: detached.outline: 2 of the 4 items are not under the root (#104 has no parent); the whole outline cannot be shown or exported without leaving them out. Move each of those items under the root by its id, or restore the document from a backup; validating the document lists every problem.\n"
        )
        #expect(!box.exists("out.opml") && !box.exists("out.md") && !box.exists("out.txt"))
        // What validate says, and the way out it suggests.
        #expect(try box.run("validate", "detached.outline").stdout.contains("2 items have no parent (z102, z104)"))
        let moved = try box.run("move", "detached.outline", "#104", "--under", "/")
        #expect(moved.status == 0, "\(moved)")
        #expect(try box.run(arguments).status == 0)
    }

    /// `new\xff.outline` and `new\xfe.outline` were both read as `new\u{FFFD}.outline`.
    @Test func fileNamesThatAreNotUTF8AreRefused() throws {
        let box = try CLISandbox()
        let binary = try CLI.binary().path
        let result = try box.run(executable: "/bin/sh", ["-c", "\"$0\" create \"$(printf 'new\\376.outline')\"", binary])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: argument 2 (new\\xFE.outline) is not valid UTF-8. File names and texts must be UTF-8; rename the file (for example with `mv` and a UTF-8 name) and try again.\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.folder.path).filter { $0.hasPrefix("new") }.isEmpty)
    }

    // MARK: Files read once

    @Test(arguments: [
        ["show", "/dev/stdin"], ["info", "/dev/stdin"], ["validate", "/dev/stdin"], ["find", "/dev/stdin", "done == NO"],
        ["convert", "/dev/stdin", "out.opml"],
    ])
    func aDocumentPipedToStandardInputIsRead(_ arguments: [String]) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Milk", [])])
        let binary = try CLI.binary().path
        let result = try box.run(executable: "/bin/sh", ["-c", "cat doc.outline | \"$0\" \"$@\"", binary] + arguments)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains(".bak"))
        if arguments[0] == "show" { #expect(result.stdout == "1 Milk\n") }
    }

    @Test func aFIFOIsReadOnceAndCannotBeEdited() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Milk", [])])
        #expect(mkfifo(box.path("pipe"), 0o600) == 0)
        let binary = try CLI.binary().path
        let shown = try box.run(executable: "/usr/bin/timeout", ["10", "/bin/sh", "-c", "cat doc.outline > pipe & \"$0\" show pipe; wait", binary])
        #expect(shown.status == 0 && shown.stdout == "1 Milk\n", "\(shown)")
        let edited = try box.run(executable: "/usr/bin/timeout", ["10", binary, "add", "pipe", "Eggs"])
        #expect(edited.status == 1)
        #expect(
            edited.stderr
                == "Error: pipe: the document is not a regular file (it is a pipe, a device or a socket), so it cannot be changed. Copy it to a regular file and change that; reading it works as it is.\n"
        )
    }

    // MARK: Messages

    @Test func theBackupIsNamedOnlyWhenItExists() throws {
        let box = try CLISandbox()
        let empty = try box.run("show", "/dev/null")
        #expect(
            empty.stderr
                == "Error: /dev/null: the file is empty. An interrupted save may have emptied it; restore it from a backup if there is one.\n")
        try Data().write(to: URL(fileURLWithPath: box.path("doc.outline")))
        try box.writeDocument("doc.outline.bak", version: "Outline 3")
        let withBackup = try box.run("show", "doc.outline")
        #expect(
            withBackup.stderr == "Error: doc.outline: the file is empty. An interrupted save may have emptied it; restore it from doc.outline.bak.\n")
    }
}
