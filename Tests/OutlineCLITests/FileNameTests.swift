import Foundation
import OutlineStorage
import Testing

/// Documents whose names have spaces, non-ASCII letters or a leading dash, and documents reached
/// through symbolic links, work with every command that writes.
@Suite struct FileNameTests {
    /// How each name is written on the command line: as it is, or (for a leading dash) after
    /// `--` or as `./NAME`.
    static let names: [(name: String, spelled: [String])] = [
        ("with spaces.outline", []),
        ("Éléments – 日本語 ✓.outline", []),
        ("-dash.outline", ["--"]),
        ("-dash.outline", ["./"]),
    ]

    /// `arguments` with the document `name` spelled as `spelling` asks.
    static func command(_ verb: String, _ name: String, _ spelling: [String], _ rest: [String] = [], options: [String] = []) -> [String] {
        spelling == ["./"] ? [verb] + options + ["./" + name] + rest : [verb] + options + spelling + [name] + rest
    }

    @Test(arguments: 0 ..< names.count)
    func unusualNamesWorkThroughEveryWritingCommand(index: Int) throws {
        let (name, spelling) = Self.names[index]
        let box = try CLISandbox()
        @discardableResult func run(_ arguments: [String]) throws -> CLIResult {
            let result = try box.run(arguments)
            #expect(result.status == 0 && result.stderr == "", "\(arguments): \(result)")
            return result
        }
        try run(Self.command("create", name, spelling))
        let added = try run(Self.command("add", name, spelling, ["Milk"], options: ["--note", "Oat"]))
        #expect(added.stdout == "1\n")
        try run(Self.command("edit", name, spelling, ["1"], options: ["--done"]))
        let shown = try run(Self.command("show", name, spelling, options: ["--json"])).shownOutline()
        #expect(shown == ShownOutline(schemaVersion: "Outline 3", items: [ShownItem("Milk", note: "Oat", done: true)]))

        let xml = String(name.dropLast(".outline".count)) + ".xml"
        let converted = spelling == ["./"] ? ["convert", "./" + name, "./" + xml] : ["convert"] + spelling + [name, xml]
        try run(converted)
        #expect(try run(Self.command("show", xml, spelling, options: ["--json"])).shownOutline() == shown)

        let old = "old " + name.replacingOccurrences(of: "-", with: "_")
        let dashedOld = "-" + old
        try box.writeDocument(dashedOld, version: "Outline 2", items: [("Old", [])])
        let migrated = try run(Self.command("migrate", dashedOld, spelling == [] ? ["--"] : spelling))
        #expect(migrated.stdout.hasPrefix("Migrated "), "\(migrated)")
        #expect(box.exists(dashedOld + ".bak"))
        #expect(try run(Self.command("info", dashedOld, ["--"], options: ["--json"])).jsonObject()["schemaVersion"] as? String == "Outline 3")
        #expect(try box.temporaries() == [])
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func aLinkedDocumentIsSavedThroughItsLink(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try FileManager.default.createDirectory(atPath: box.path("real"), withIntermediateDirectories: false)
        try box.writeDocument("real/doc.outline", version: "Outline 3", format: format, items: [("First", [])])
        try box.writeDocument("real/old.outline", version: "Outline 2", format: format, items: [("Old", [])])
        try FileManager.default.createSymbolicLink(atPath: box.path("link.outline"), withDestinationPath: "real/doc.outline")
        try FileManager.default.createSymbolicLink(atPath: box.path("link to link.outline"), withDestinationPath: "link.outline")
        try FileManager.default.createSymbolicLink(atPath: box.path("old link.outline"), withDestinationPath: box.path("real/old.outline"))

        for arguments in [
            ["add", "link.outline", "Second"], ["add", "link to link.outline", "Third"],
            ["edit", "link.outline", "1", "--done"], ["migrate", "old link.outline"],
        ] {
            let result = try box.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        let links = ["link.outline": "real/doc.outline", "link to link.outline": "link.outline", "old link.outline": box.path("real/old.outline")]
        for (link, destination) in links {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: box.path(link)) == destination, "\(link) is no longer the link it was")
        }
        let shown = try box.run("show", "real/doc.outline", "--json").shownOutline()
        #expect(shown.items == [ShownItem("First", done: true), ShownItem("Second"), ShownItem("Third")])
        #expect(try box.run("info", "real/old.outline", "--json").jsonObject()["schemaVersion"] as? String == "Outline 3")
        // The backup of the migration is beside the real file, in the document's format.
        #expect(box.exists("real/old.outline.bak") && !box.exists("old link.outline.bak"))
        #expect(DocumentFormat.detect(Array(try box.bytes("real/doc.outline"))) == format)
        #expect(try box.temporaries() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("real")).sorted() == ["doc.outline", "old.outline", "old.outline.bak"])
    }
}
