import Foundation
import Testing
import OutlineKit
import OutlineStorage

/// `outline convert`: output format from --to or the extension, input format from the content,
/// older documents migrated on the way, compression levels.
@Suite struct ConvertTests {
    static let tree = [ShownItem("Groceries", [ShownItem("Milk"), ShownItem("Bread")]), ShownItem("Work")]

    @Test(arguments: [0, 1, 9])
    func binaryOutputTakesTheLevel(level: Int) throws {
        let box = try CLISandbox()
        try box.writeDocument("in.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        let result = try box.run("convert", "in.outline", "out.outline", "--level", String(level))
        #expect(result.status == 0 && result.stdout == "" && result.stderr == "", "\(result)")
        let info = try box.run("info", "out.outline", "--json").jsonObject()
        #expect(info["format"] as? String == "binary")
        #expect(info["compressionLevel"] as? Int == level)
        #expect(try box.run("show", "out.outline", "--json").shownOutline().items == Self.tree)
    }

    @Test(arguments: ["Outline", "Outline 2"])
    func olderDocumentsAreMigratedOnTheWay(version: String) throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: version, items: [("Groceries", ["Milk", "Bread"]), ("Work", [])])
        let before = try box.bytes("old.outline")
        let result = try box.run("convert", "old.outline", "new.outline")
        #expect(result.status == 0 && result.stdout == "", "\(result)")
        #expect(result.stderr == "Note: old.outline: migrated from \(version) to Outline 3 on the way; old.outline is unchanged.\n")
        #expect(try box.bytes("old.outline") == before)
        #expect(!box.exists("old.outline.bak"))
        let info = try box.run("info", "new.outline", "--json").jsonObject()
        #expect(info["schemaVersion"] as? String == "Outline 3")
        #expect(try box.run("show", "new.outline", "--json").shownOutline().items == Self.tree)
    }

    @Test func documentsOfAnyModelConvertWithTheirModel() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 3", notes: [("Plan", 3)])
        let result = try box.run("convert", "notes.outline", "copy.outline", "--model", CLISandbox.notebookModel, "--level", "9")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let info = try box.run("info", "copy.outline", "--model", CLISandbox.notebookModel, "--json").jsonObject()
        #expect(info["schemaVersion"] as? String == "Notebook 3")
        #expect(info["objectCounts"] as? [String: Int] == ["Note": 1])
        #expect(info["compressionLevel"] as? Int == 9)
    }

    @Test func anOlderDocumentWhoseMigrationIsBlockedIsNotConverted() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 2", notes: [("Plan", 3)])
        let result = try box.run("convert", "notes.outline", "copy.outline", "--model", CLISandbox.notebookModel)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: notes.outline: Notebook 2 -> Notebook 3: no migration can be inferred"), "\(result)")
        #expect(!box.exists("copy.outline"))
    }

    @Test func aFailedConversionWritesNothing() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/truncated-body.outline", as: "bad.outline")
        let result = try box.run("convert", "bad.outline", "out.outline")
        #expect(result.status == 1)
        #expect(!box.exists("out.outline"))
        let folder = try FileManager.default.contentsOfDirectory(atPath: box.folder.path)
        #expect(folder.filter { !$0.hasPrefix(".std") }.sorted() == ["bad.outline"])
    }

    @Test func theFormatSwitchKnowsEveryFormatOnce() throws {
        let names = ConversionFormat.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.starts(with: ["binary", "xml"]))
        #expect(ConversionFormat(named: "BINARY") == .binary)
        #expect(try ConversionFormat.forOutput("a/b.outline", requested: nil) == ConversionFormat.binary)
        #expect(try ConversionFormat.forOutput("b.outline", requested: .xml) == ConversionFormat.xml)
        #expect(try ConversionFormat.forOutput("b.XML", requested: nil) == ConversionFormat.xml)
    }
}
