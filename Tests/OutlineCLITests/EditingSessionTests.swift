import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// A whole editing session through the binary, on each format and from each schema version.
@Suite struct EditingSessionTests {
    /// The store formats the session runs on.
    static let formats: [DocumentFormat] = [.binary, .xml]
    static let versions = ["Outline", "Outline 2", "Outline 3"]

    /// Runs `arguments` and expects success with `stdout` and an empty stderr.
    static func expect(
        _ box: CLISandbox, _ arguments: [String], prints stdout: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try box.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stdout == stdout, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.stderr == "", "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test(arguments: formats, versions)
    func sessionEndsWithTheExpectedTree(format: DocumentFormat, version: String) throws {
        let box = try CLISandbox()
        let file = "doc.outline"
        if version == "Outline 3" {
            try Self.expect(box, ["create", file, "--format", format.rawValue])
        } else {
            try box.writeDocument(file, version: version, format: format)
        }

        // The first edit of an older document migrates it and keeps the old bytes once.
        let first = try box.run("add", file, "Groceries")
        #expect(first.status == 0 && first.stdout == "1\n", "\(first)")
        if version == "Outline 3" {
            #expect(first.stderr == "")
            #expect(!box.exists(file + ".bak"))
        } else {
            #expect(first.stderr == "Note: \(file): migrated from \(version) to Outline 3; the old version is kept as \(file).bak.\n")
            let backup = try box.run("info", file + ".bak", "--json")
            #expect(try backup.jsonObject()["schemaVersion"] as? String == version)
        }
        let backup = box.exists(file + ".bak") ? try box.bytes(file + ".bak") : nil

        try Self.expect(box, ["add", file, "Work"], prints: "2\n")
        try Self.expect(box, ["add", file, "Milk", "--under", "1"], prints: "1.1\n")
        try Self.expect(box, ["add", file, "Bread", "--under", "1"], prints: "1.2\n")
        try Self.expect(box, ["add", file, "Eggs", "--under", "1", "--at", "1", "--note", "A dozen"], prints: "1.1\n")
        try Self.expect(box, ["add", file, "Report", "--under", "2", "--done"], prints: "2.1\n")
        try Self.expect(box, ["add", file, "Email", "--under", "2"], prints: "2.2\n")
        try Self.expect(box, ["add", file, "Call Bob"], prints: "3\n")
        try Self.expect(box, ["move", file, "3", "--under", "2", "--at", "1"], prints: "2.1\n")
        try Self.expect(box, ["move", file, "1.3", "--up"], prints: "1.2\n")  // Eggs, Bread, Milk
        try Self.expect(box, ["move", file, "1.2", "--indent"], prints: "1.1.1\n")  // Bread under Eggs
        try Self.expect(box, ["move", file, "1.1.1", "--outdent"], prints: "1.2\n")
        try Self.expect(box, ["move", file, "2.2", "--down"], prints: "2.3\n")  // Call Bob, Email, Report
        try Self.expect(box, ["remove", file, "1.3"], prints: "Removed “Milk”.\n")  // Milk
        try Self.expect(box, ["edit", file, "1.2", "--text", "Rye bread", "--note", "Sliced", "--done"])
        try Self.expect(box, ["edit", file, "1.1", "--not-done", "--note", ""])

        let shown = try box.run("show", file, "--json")
        #expect(shown.status == 0 && shown.stderr == "", "\(shown)")
        let expected = ShownOutline(
            schemaVersion: "Outline 3",
            items: [
                ShownItem("Groceries", [ShownItem("Eggs"), ShownItem("Rye bread", note: "Sliced", done: true)]),
                ShownItem("Work", [ShownItem("Call Bob"), ShownItem("Email"), ShownItem("Report", done: true)]),
            ])
        #expect(try shown.shownOutline() == expected)

        try Self.expect(
            box, ["show", file],
            prints: """
                1 Groceries
                  1.1 Eggs
                  1.2 [x] Rye bread
                      Sliced
                2 Work
                  2.1 Call Bob
                  2.2 Email
                  2.3 [x] Report

                """)
        let info = try box.run("info", file, "--json")
        #expect(try info.jsonObject()["format"] as? String == format.rawValue)
        #expect(try info.jsonObject()["schemaVersion"] as? String == "Outline 3")
        try Self.expect(box, ["validate", file], prints: "\(file): valid (\(format.rawValue), Outline 3, 8 objects)\n")
        if let backup {
            #expect(try box.bytes(file + ".bak") == backup, "the backup is made once, at the migrating save")
        }
    }

    @Test func showingAnOlderDocumentMigratesInMemoryOnly() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline", items: [("Groceries", ["Milk"])])
        let before = try box.bytes("old.outline")
        let shown = try box.run("show", "old.outline", "--json")
        #expect(shown.status == 0 && shown.stderr == "")
        #expect(try shown.shownOutline() == ShownOutline(schemaVersion: "Outline 3", items: [ShownItem("Groceries", [ShownItem("Milk")])]))
        #expect(try box.bytes("old.outline") == before)
        #expect(!box.exists("old.outline.bak"))
    }

    @Test func idsAddressItems() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"])])
        let shown = try box.run("show", "doc.outline", "--ids")
        let line = try #require(shown.stdout.split(separator: "\n").first { $0.contains("Bread") })
        let id = try #require(line.split(separator: " ").last)
        #expect(id.hasPrefix("#"))
        try Self.expect(box, ["edit", "doc.outline", String(id), "--done"])
        try Self.expect(box, ["move", "doc.outline", String(id), "--up"], prints: "1.1\n")
        try Self.expect(box, ["show", "doc.outline"], prints: "1 Groceries\n  1.1 [x] Bread\n  1.2 Milk\n")
    }
}
