import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import Testing

/// `outline info` and `outline validate`.
@Suite struct InfoValidateTests {
    /// info reads only the header, yet a truncated file is not described as healthy.
    @Test func infoReportsATruncatedBinaryDocument() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/truncated-body.outline", as: "doc.outline")
        let result = try box.run("info", "doc.outline")
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("Error: doc.outline: byte 1132: the compressed body ends early (expected 40 more bytes)."), "\(result)")
    }

    @Test func infoPrintsTheDocumentsFacts() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk", "Bread"])])
        let result = try box.run("info", "doc.outline")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let size = try box.bytes("doc.outline").count
        #expect(lines.count == 11, "\(result)")
        #expect(lines.first == "File:               doc.outline")
        #expect(lines.contains("Format:             binary"))
        #expect(lines.contains("Schema version:     Outline 3 (current)"))
        #expect(lines.contains("Migration needed:   no"))
        #expect(lines.contains("Objects:            Item 4, Tag 0"))
        #expect(lines.contains("File size:          \(size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes"))
        #expect(lines.contains("Compression level:  1"))
        #expect(lines.contains("Schema embedded:    yes"))
        #expect(lines.contains { $0.hasPrefix("Uncompressed size:  ") && $0.hasSuffix(" bytes") })
        #expect(lines.contains { $0.hasPrefix("UUID:               ") && $0.count == 20 + 36 })
    }

    @Test(arguments: ["Outline", "Outline 2"])
    func infoTellsThatAnOlderDocumentNeedsMigrating(version: String) throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: version, items: [("Groceries", ["Milk"])])
        let json = try box.run("info", "old.outline", "--json").jsonObject()
        #expect(json["schemaVersion"] as? String == version)
        #expect(json["currentVersion"] as? String == "Outline 3")
        #expect(json["migrationNeeded"] as? Bool == true)
        #expect(json["migrationPath"] as? [String] == [version, "Outline 3"])
        #expect(json["objectCounts"] as? [String: Int] == ["Item": 3])
        #expect(json["format"] as? String == "binary")
        #expect(json["schemaEmbedded"] as? Bool == true)
        #expect(json["compressionLevel"] as? Int == 1)
        #expect(json["fileSize"] as? Int == (try box.bytes("old.outline").count))
        let text = try box.run("info", "old.outline")
        #expect(text.stdout.contains("Migration needed:   yes (\(version) -> Outline 3)\n"))
    }

    @Test func infoWorksOnDocumentsOfAnyModel() throws {
        let box = try CLISandbox()
        try box.writeNotebook("notes.outline", version: "Notebook 2", notes: [("Plan", 3), ("Ideas", nil)])
        let result = try box.run("info", "notes.outline", "--model", CLISandbox.notebookModel, "--json")
        #expect(result.status == 0, "\(result)")
        let json = try result.jsonObject()
        #expect(json["schemaVersion"] as? String == "Notebook 2")
        #expect(json["currentVersion"] as? String == "Notebook 3")
        #expect(json["objectCounts"] as? [String: Int] == ["Note": 2])
        #expect(json["migrationNeeded"] as? Bool == true)
        #expect(json["migrationPath"] as? [String] == [])
        #expect((json["migrationNote"] as? String)?.hasPrefix("blocked (1 blocker") == true)
    }

    @Test func aValidDocumentPassesValidation() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 2", items: [("Groceries", ["Milk", "Bread"])])
        let result = try box.run("validate", "doc.outline")
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(result.stdout == "doc.outline: valid (binary, Outline 2, 4 objects)\n")
    }

    /// An outline breaking every graph rule at once: a second root, two items that are each
    /// other's parent, siblings numbered 0, 5 and a required `order` missing.
    static func writeBrokenOutline(_ box: CLISandbox, name: String) throws {
        let store = PersistentStore(schema: try OutlineSchemas.current, path: box.path(name))
        let document = try OutlineDocument(context: store.context)  // root z102
        let context = store.context
        let a = try document.insertItem("A")  // z103
        let b = try document.insertItem("B")  // z104
        let c = try document.insertItem("C")  // z105
        let stray = try context.insert("Item")  // z106: a second root
        try context.setValue(.string("Stray"), forKey: "text", of: stray)
        let x = try context.insert("Item")
        let y = try context.insert("Item")  // z107, z108: a cycle
        try context.setObject(y, forKey: "parent", of: x)
        try context.setObject(x, forKey: "parent", of: y)
        try context.setValue(.integer(5), forKey: "order", of: b)
        try context.setValue(nil, forKey: "order", of: c)
        _ = a
        try Data(try store.encoded()).write(to: URL(fileURLWithPath: box.path(name)))
    }

    @Test func anInvalidDocumentListsEveryProblem() throws {
        let box = try CLISandbox()
        try Self.writeBrokenOutline(box, name: "broken.outline")
        let result = try box.run("validate", "broken.outline")
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                broken.outline: 4 problems:
                broken.outline: Item: 2 items have no parent (z102, z106); an outline has exactly one root. Move the extra top-level items under the root, or restore the file from a backup.
                broken.outline: Item z107.parent: 2 items are each other's ancestors (z107, z108); parent chains must end at the root. Restore the file from a backup.
                broken.outline: Item z102.children: the 3 children have orders nil, 0, 5; siblings must be numbered 0…2. Until it is fixed the items are shown in the order of these numbers; restore the file from a backup.
                broken.outline: Item z105.order: a value is required.

                """, "\(result)")
        #expect(
            result.stderr
                == "Error: broken.outline: the document is not valid (4 problems listed above). Restore it from a backup if there is one, or fix the objects named above.\n"
        )
    }

    @Test func aDamagedFileIsOneProblem() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/flipped-body-bit.outline", as: "damaged.outline")
        let result = try box.run("validate", "damaged.outline")
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                damaged.outline: 1 problem:
                damaged.outline: byte 1030: the body (bytes 1030 to 1171) fails its checksum (stored 0xb4dcceda, computed 0xd3a726df). The file was damaged after it was written; restore it from a backup if there is one.

                """, "\(result)")
        #expect(result.stderr.hasPrefix("Error: damaged.outline: the document is not valid (1 problem listed above)."))
    }

    @Test func validationChecksDocumentsOfAnyModel() throws {
        let box = try CLISandbox()
        // Valid in Notebook (title optional), and checked as Notebook even though Notebook 3 is current.
        try box.writeNotebook("notes.outline", version: "Notebook", notes: [(nil, 3), ("Ideas", nil)])
        let valid = try box.run("validate", "notes.outline", "--model", CLISandbox.notebookModel)
        #expect(valid.status == 0, "\(valid)")
        #expect(valid.stdout == "notes.outline: valid (binary, Notebook, 2 objects)\n")
        // Notebook 2 requires a title.
        try box.writeNotebook("v2.outline", version: "Notebook 2", notes: [(nil, 3), ("Ideas", nil)])
        let invalid = try box.run("validate", "v2.outline", "--model", CLISandbox.notebookModel)
        #expect(invalid.status == 1)
        #expect(invalid.stdout == "v2.outline: 1 problem:\nv2.outline: Note z102.title: a value is required.\n", "\(invalid)")
    }

    /// A model of another app shaped like a tree (objc.io's nested to-do lists: several lists
    /// at the top, no single root) is checked by its own rules only, not the outline's.
    @Test(arguments: [DocumentFormat.binary, .xml])
    func anotherModelsTreeIsNotHeldToTheOutlinesRules(format: DocumentFormat) throws {
        let box = try CLISandbox()
        let modelPath = CLI.packageRoot.appendingPathComponent("Fixtures/Models/NestedTodoList.xcdatamodeld").path
        let model = try ModelReader.read(at: URL(fileURLWithPath: modelPath))
        let store = PersistentStore(schema: try model.current, path: box.path("todo.outline"), format: format)
        for (order, title) in ["Home", "Work"].enumerated() {
            let list = try store.context.insert("Item")
            try store.context.setValue(.string(title), forKey: "title", of: list)
            try store.context.setValue(.integer(Int64(order)), forKey: "order", of: list)
            let task = try store.context.insert("Item")
            try store.context.setValue(.string("Task"), forKey: "title", of: task)
            try store.context.setObject(list, forKey: "parent", of: task)
        }
        try store.save()
        let result = try box.run("validate", "todo.outline", "--model", modelPath)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "todo.outline: valid (\(format.rawValue), NestedTodoList, 4 objects)\n", "\(result)")
        // Read as an outline (no model named), the same file is an outline with two roots.
        let asOutline = try box.run("validate", "todo.outline")
        #expect(asOutline.status == 1 && asOutline.stdout.contains("an outline has exactly one root"), "\(asOutline)")
    }
}
