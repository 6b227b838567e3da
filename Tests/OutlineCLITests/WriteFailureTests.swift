import Foundation
import OutlineStorage
import Testing

/// Saves the system refuses, through the tool: exit 1 with `Error: FILE: what: why. What to do.`,
/// the document as it was, no temporary file left beside it, and never a crash.
@Suite struct WriteFailureTests {
    /// A folder holding `doc.outline` (binary, `items` items) and the old-version `old.outline`.
    static func sandbox(items: Int = 20) throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument(
            "doc.outline", version: "Outline 3",
            items: (1 ... items).map { ("Item \($0) with some words to take room", ["child of \($0)"]) })
        try box.writeDocument("old.outline", version: "Outline 2", items: [("Old", ["older"])])
        return box
    }

    /// Runs `arguments`, expects exit 1 and `error` on standard error, and checks that every file
    /// of the folder is as before and no temporary file or `outputs` were left.
    static func expectRefusal(
        _ box: CLISandbox, _ arguments: [String], error: String, outputs: [String] = [],
        run: ([String]) throws -> CLIResult
    ) throws {
        let names = ["doc.outline", "old.outline"]
        let before = try names.map { try box.bytes($0) }
        let result = try run(arguments)
        #expect(result.status == 1 && !result.crashed, "\(arguments): \(result)")
        #expect(result.stdout == "", "\(arguments)")
        #expect(matches(result.stderr, "Error: " + error + "\n"), "\(arguments): \(result.stderr)")
        #expect(try names.map { try box.bytes($0) } == before, "\(arguments) changed a document")
        #expect(try box.temporaries() == [], "\(arguments) left a temporary file")
        for output in outputs { #expect(!box.exists(output), "\(arguments) left \(output)") }
        #expect(!box.exists("doc.outline.bak") && !box.exists("old.outline.bak"))
    }

    /// Whether `text` is `pattern` where `XXXXXX` stands for a temporary file's random suffix.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "XXXXXX")
        guard parts.count == 2 else { return text == pattern }
        return text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]) && text.count == pattern.count
    }

    static let tooLarge =
        "the file would be larger than the file system or the file size limit (ulimit -f) allows. Raise the file size limit, or save to another disk."

    @Test func aFullDiskIsReportedAndChangesNothing() throws {
        let box = try Self.sandbox(items: 400)
        #expect(try box.bytes("doc.outline").count > 8192)
        let limited = { (arguments: [String]) in try box.run(arguments, via: fileSizeLimited(blocks: 4)) }
        for (arguments, error, outputs) in [
            (
                ["add", "doc.outline", "One more"],
                "doc.outline: cannot write the temporary file ./.doc.outline.outline-tmp-XXXXXX: \(Self.tooLarge)", []
            ),
            (
                ["convert", "doc.outline", "copy.xml"], "copy.xml: cannot write the temporary file ./.copy.xml.outline-tmp-XXXXXX: \(Self.tooLarge)",
                ["copy.xml"]
            ),
            (
                ["migrate", "doc.outline", "--to", "Outline 2", "--output", "two.outline"],
                "two.outline: cannot write the temporary file ./.two.outline.outline-tmp-XXXXXX: \(Self.tooLarge)", ["two.outline"]
            ),
        ] {
            try Self.expectRefusal(box, arguments, error: error, outputs: outputs, run: limited)
        }
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.unavailableReason ?? ""))
    func aReadOnlyFolderIsReportedAndChangesNothing() throws {
        let box = try Self.sandbox()
        try box.handToUnprivilegedUser()
        try box.setMode(0o555, of: ".")
        defer { try? box.setMode(0o755, of: ".") }
        let refusal =
            "cannot create a temporary file in the current folder: permission denied. Check the permissions of the file and its folder, or save somewhere else."
        for (arguments, error, outputs) in [
            (["add", "doc.outline", "One more"], "doc.outline: \(refusal)", []),
            (["edit", "doc.outline", "1", "--done"], "doc.outline: \(refusal)", []),
            (["migrate", "old.outline"], "old.outline: \(refusal)", []),
            (["convert", "doc.outline", "copy.xml"], "copy.xml: \(refusal)", ["copy.xml"]),
            (["create", "new.outline"], "new.outline: \(refusal)", ["new.outline"]),
        ] {
            try Self.expectRefusal(box, arguments, error: error, outputs: outputs, run: { try box.runUnprivileged($0) })
        }
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.unavailableReason ?? ""))
    func aReadOnlyDocumentIsNotReplaced() throws {
        let box = try Self.sandbox()
        try box.handToUnprivilegedUser()
        try box.setMode(0o444, of: "doc.outline")
        try box.setMode(0o444, of: "old.outline")
        let refusal = "permission denied. Check the permissions of the file and its folder, or save somewhere else."
        for (arguments, error) in [
            (["add", "doc.outline", "One more"], "doc.outline: cannot save over doc.outline: \(refusal)"),
            (["remove", "doc.outline", "1"], "doc.outline: cannot save over doc.outline: \(refusal)"),
            (["migrate", "old.outline"], "old.outline: cannot save over old.outline: \(refusal)"),
            (["convert", "old.outline", "doc.outline"], "doc.outline: cannot save over doc.outline: \(refusal)"),
            (["create", "doc.outline", "--force"], "doc.outline: cannot save over doc.outline: \(refusal)"),
        ] {
            try Self.expectRefusal(box, arguments, error: error, run: { try box.runUnprivileged($0) })
        }
        // Reading it is fine.
        let shown = try box.runUnprivileged(["show", "doc.outline"])
        #expect(shown.status == 0, "\(shown)")
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.unavailableReason ?? ""))
    func anUnreadableDocumentOrFolderIsReported() throws {
        let box = try Self.sandbox()
        try FileManager.default.createDirectory(atPath: box.path("closed"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: box.path("doc.outline"), toPath: box.path("closed/doc.outline"))
        try box.handToUnprivilegedUser()
        try box.setMode(0o000, of: "doc.outline")
        try box.setMode(0o000, of: "closed")
        defer { try? box.setMode(0o755, of: "closed") }
        let unreadable = "cannot open: permission denied. Check the permissions of the file and its folder."
        for (arguments, error) in [
            (["add", "doc.outline", "One more"], "doc.outline: \(unreadable)"),
            (["show", "doc.outline"], "doc.outline: \(unreadable)"),
            (["migrate", "doc.outline"], "doc.outline: \(unreadable)"),
            (["add", "closed/doc.outline", "One more"], "closed/doc.outline: \(unreadable)"),
            (
                ["convert", "old.outline", "closed/new.outline"],
                "closed/new.outline: cannot inspect closed/new.outline: permission denied. Check the permissions of the file and its folder, or save somewhere else."
            ),
        ] {
            try Self.expectRefusal(box, arguments, error: error, run: { try box.runUnprivileged($0) })
        }
    }

    @Test func aFolderWhereTheDocumentShouldBeIsReported() throws {
        let box = try Self.sandbox()
        try FileManager.default.createDirectory(atPath: box.path("folder.outline"), withIntermediateDirectories: false)
        for (arguments, error) in [
            (["add", "folder.outline", "X"], "folder.outline: cannot open: it is a folder. Choose a file, not a folder."),
            (["migrate", "folder.outline"], "folder.outline: cannot open: it is a folder. Choose a file, not a folder."),
            (
                ["convert", "doc.outline", "folder.outline"],
                "folder.outline: cannot save over folder.outline: it is a folder. Choose a file, not a folder."
            ),
            (
                ["migrate", "old.outline", "--output", "folder.outline"],
                "folder.outline: cannot save over folder.outline: it is a folder. Choose a file, not a folder."
            ),
            (["create", "folder.outline", "--force"], "folder.outline: a folder with this name exists. Choose another name."),
        ] {
            try Self.expectRefusal(box, arguments, error: error, run: { try box.run($0) })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("folder.outline")) == [])
    }
}
