import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// A Core Data XML store of another app, without its model: what each fixture holds.
struct ForeignStore: Sendable, CustomStringConvertible {
    var fixture: String
    var entities: Int
    var objects: Int
    /// The `Objects:` line of `outline info`.
    var counts: String

    var name: String { URL(fileURLWithPath: fixture).lastPathComponent }
    var description: String { name }

    static let all = [
        ForeignStore(fixture: "XML/Real/Vehicles.xml", entities: 2, objects: 3, counts: "VEHICLE 1, VEHICLEPICTURE 2"),
        ForeignStore(
            fixture: "XML/Foreign/XcodeMappingModel.xml", entities: 5, objects: 8,
            counts: "XDDevAttributeMapping 3, XDDevEntityMapping 2, XDDevMappingModel 1, XDDevPropertyMapping 0, XDDevRelationshipMapping 2"),
        ForeignStore(fixture: "XML/Foreign/SpeechCommands.xml", entities: 4, objects: 6, counts: "action 2, command 2, location 0, trigger 2"),
        ForeignStore(fixture: "XML/Foreign/Recipes.xml", entities: 3, objects: 7, counts: "Ingredient 3, Recipe 2, Tag 2"),
    ]

    /// The note every command prints once when it derives the model.
    var note: String {
        "Note: \(name): model derived from the file: \(entities) entities; attribute types inferred.\n"
    }
}

/// `info`, `validate`, `convert`, `migrate --dry-run` and `dump` on Core Data XML stores of
/// other apps that come without their model (`Fixtures/XML/Real`, `Fixtures/XML/Foreign`).
@Suite struct ForeignStoreTests {
    @Test(arguments: ForeignStore.all)
    func infoDescribesTheStoreWithAModelDerivedFromIt(store: ForeignStore) throws {
        let box = try CLISandbox()
        try box.copyFixture(store.fixture, as: store.name)
        let text = try box.run("info", store.name)
        #expect(text.status == 0, "\(text)")
        #expect(text.stderr == store.note)
        #expect(text.stdout.contains("Schema version:    derived from the file\n"), "\(text)")
        #expect(text.stdout.contains("Migration needed:  no (its own model, not a version of Outline)\n"), "\(text)")
        #expect(text.stdout.contains("Objects:           \(store.counts)\n"), "\(text)")
        #expect(text.stdout.contains("Schema embedded:   no\n"), "\(text)")
        let json = try box.run("info", store.name, "--json")
        #expect(json.status == 0 && json.stderr == store.note)
        let object = try json.jsonObject()
        #expect(object["ownModel"] as? Bool == true)
        #expect(object["schemaDerived"] as? Bool == true)
        #expect(object["migrationNeeded"] as? Bool == false)
    }

    @Test(arguments: ForeignStore.all)
    func validateChecksTheStoreAgainstTheDerivedModel(store: ForeignStore) throws {
        let box = try CLISandbox()
        try box.copyFixture(store.fixture, as: store.name)
        let result = try box.run("validate", store.name)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(store.name): valid (xml, derived from the file, \(store.objects) objects)\n")
        #expect(result.stderr == store.note)
    }

    @Test(arguments: ForeignStore.all)
    func migrateHasNothingToDoForAStoreWithItsOwnModel(store: ForeignStore) throws {
        let box = try CLISandbox()
        try box.copyFixture(store.fixture, as: store.name)
        let before = try box.bytes(store.name)
        let dry = try box.run("migrate", store.name, "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(
            dry.stdout == """
                Migration of \(store.name): its own model (derived from the file)
                Nothing to do: the document belongs to no version of this model, so there is no version to migrate it to.

                """)
        #expect(dry.stderr == store.note)
        let json = try box.run("migrate", store.name, "--dry-run", "--json")
        #expect(json.status == 0)
        let plan = try json.jsonObject()
        #expect(plan["ownModel"] as? String == "derived from the file")
        #expect(plan["current"] as? Bool == true && plan["blocked"] as? Bool == false)
        #expect((plan["risks"] as? [Any])?.isEmpty == true)
        let real = try box.run("migrate", store.name)
        #expect(real.status == 0, "\(real)")
        #expect(real.stdout == "\(store.name) is already at its own model (derived from the file); nothing to do.\n")
        #expect(try box.bytes(store.name) == before)
        #expect(!box.exists(store.name + ".bak"))
    }

    /// XML -> binary -> XML keeps every object, value (nil apart from empty) and link; a second
    /// round trip gives the same bytes; the outputs reopen without a model and keep the version
    /// hashes the original recorded for its app's model.
    @Test(arguments: ForeignStore.all)
    func convertingToBinaryAndBackIsLosslessAndStable(store: ForeignStore) throws {
        let box = try CLISandbox()
        try box.copyFixture(store.fixture, as: store.name)
        let toBinary = try box.run("convert", store.name, "a.outline")
        #expect(toBinary.status == 0 && toBinary.stdout.isEmpty, "\(toBinary)")
        #expect(toBinary.stderr == store.note, "the derivation is noted once")
        for (from, to) in [("a.outline", "a.xml"), ("a.xml", "b.outline"), ("b.outline", "b.xml")] {
            let step = try box.run("convert", from, to)
            #expect(step.status == 0 && step.stderr.isEmpty, "\(from) -> \(to): the output embeds its model: \(step)")
        }
        #expect(try box.bytes("a.outline") == box.bytes("b.outline"))
        #expect(try box.bytes("a.xml") == box.bytes("b.xml"))

        let original = try dumped(box, store.name)
        for (output, format) in [("a.outline", "binary"), ("a.xml", "xml")] {
            #expect(try dumped(box, output) == original, "\(output) holds what \(store.name) holds")
            let info = try box.run("info", output, "--json")
            #expect(try info.jsonObject()["schemaDerived"] as? Bool == true)
            #expect(try info.jsonObject()["schemaEmbedded"] as? Bool == true)
            let validate = try box.run("validate", output)
            #expect(validate.stdout == "\(output): valid (\(format), derived from the file, \(store.objects) objects)\n", "\(validate)")
            #expect(validate.stderr.isEmpty, "the model comes from the file now: \(validate)")
            let dry = try box.run("migrate", output, "--dry-run", "--json")
            #expect(dry.status == 0, "\(dry)")
            #expect(try dry.jsonObject()["ownModel"] as? String == "derived from the file")
        }
        let hashes = try PersistentStore.readMetadata(box.path(store.name)).versionHashes
        #expect(
            try PersistentStore.readMetadata(box.path("a.xml")).versionHashes.filter { hashes[$0.key] != nil } == hashes,
            "the XML output keeps the hashes of the app's own model")
    }

    /// `dump --json` without its first line (which names the file).
    private func dumped(_ box: CLISandbox, _ name: String) throws -> String {
        let result = try box.run("dump", name, "--json")
        #expect(result.status == 0, "\(result)")
        return String(result.stdout.drop { $0 != "\n" })
    }

    @Test(arguments: ForeignStore.all)
    func dumpListsEveryObjectInIDOrder(store: ForeignStore) throws {
        let box = try CLISandbox()
        try box.copyFixture(store.fixture, as: store.name)
        let result = try box.run("dump", store.name, "--json")
        #expect(result.status == 0 && result.stderr == store.note, "\(result)")
        let object = try result.jsonObject()
        #expect(object["file"] as? String == store.name)
        #expect(object["model"] as? String == "derived from the file")
        let objects = try #require(object["objects"] as? [[String: Any]])
        #expect(objects.count == store.objects)
        let ids = objects.compactMap { ($0["id"] as? String).flatMap { Int($0.dropFirst()) } }
        #expect(ids == ids.sorted() && ids.count == objects.count)
        #expect(objects.allSatisfy { $0["entity"] is String && $0["attributes"] is [String: Any] && $0["relationships"] is [String: Any] })
        let text = try box.run("dump", store.name)
        #expect(text.status == 0)
        #expect(text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count == store.objects)
    }

    @Test func dumpShowsValuesNilApartFromEmptyAndLinksInStoredOrder() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Real/Vehicles.xml", as: "Vehicles.xml")
        let result = try box.run("dump", "Vehicles.xml")
        #expect(
            result.stdout == """
                VEHICLE z102
                  make: "manufacturer"
                  model: "model name"
                  nickname: "vehicle short name"
                  year: 2006
                  vehiclepictures: [z104, z103]
                VEHICLEPICTURE z103
                  picturename: "picture_1"
                  sequence: 0
                  picturesforvehicle: z102
                VEHICLEPICTURE z104
                  picturename: "picture_2 picture name"
                  sequence: 0
                  picturesforvehicle: z102

                """, "\(result)")
        try box.copyFixture("XML/Foreign/Recipes.xml", as: "Recipes.xml")
        let objects = try #require(try box.run("dump", "Recipes.xml", "--json").jsonObject()["objects"] as? [[String: Any]])
        let soup = try #require(objects.first { $0["id"] as? String == "z102" }?["attributes"] as? [String: Any])
        let toast = try #require(objects.first { $0["id"] as? String == "z105" }?["attributes"] as? [String: Any])
        #expect(soup["notes"] as? String == "", "an empty string stays empty")
        #expect(toast["notes"] is NSNull, "a nil value stays nil")
        #expect(soup["title"] as? String == "Lentil soup & bread" && toast["title"] as? String == "Toast <quick>")
        #expect(soup["vegetarian"] as? Bool == true && soup["servings"] as? Int == 4 && soup["rating"] as? Double == 4.5)
        #expect(soup["created"] as? String == "2025-12-04T12:00:00.250Z")
        let links = try #require(objects.first { $0["id"] as? String == "z102" }?["relationships"] as? [String: Any])
        #expect(links["ingredients"] as? [String] == ["z104", "z103"], "the stored (ordered) order")
    }

    @Test(arguments: [["show", "Recipes.xml"], ["add", "Recipes.xml", "Soup"], ["remove", "Recipes.xml", "1"]])
    func outlineCommandsOnAForeignStoreSaySoInOneLine(arguments: [String]) throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Foreign/Recipes.xml", as: "Recipes.xml")
        let before = try box.bytes("Recipes.xml")
        let result = try box.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "Error: Recipes.xml: the document is not an outline: its model has the entities Ingredient, Recipe, Tag and "
                + "no outline Item (an entity with order, text or title, children and parent). Run `outline dump Recipes.xml` to list its "
                + "objects; info, validate, migrate and convert (to binary or XML) work on it too.\n", "\(result)")
        #expect(try box.bytes("Recipes.xml") == before)
    }

    @Test func withItsModelAStoreOpensByItsHashesAndNothingIsDerived() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Foreign/Recipes.xml", as: "Recipes.xml")
        let model = CLI.packageRoot.appendingPathComponent("Fixtures/Models/Recipes.xcdatamodel").path
        let info = try box.run("info", "Recipes.xml", "--model", model)
        #expect(info.status == 0 && info.stderr.isEmpty, "\(info)")
        #expect(info.stdout.contains("Schema version:    Recipes (current)\n"), "\(info)")
        let dump = try box.run("dump", "Recipes.xml", "--model", model, "--json")
        #expect(try dump.jsonObject()["model"] as? String == "Recipes")
        let validate = try box.run("validate", "Recipes.xml", "--model", model)
        #expect(validate.stdout == "Recipes.xml: valid (xml, Recipes, 7 objects)\n")
    }

    @Test func validateWithAModelThatIsNotTheStoresSaysTheModelIsMissing() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Real/Vehicles.xml", as: "Vehicles.xml")
        let model = CLI.packageRoot.appendingPathComponent("Fixtures/Models/Recipes.xcdatamodel").path
        let result = try box.run("validate", "Vehicles.xml", "--model", model)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "nothing was checked, so no verdict: \(result)")
        #expect(
            result.stderr == "Error: Vehicles.xml: no version of the model \"Recipes\" matches the document "
                + "(it records no version hashes to match), and the document does not "
                + "embed its model. Pass the model it was written with (--model MODEL), or leave --model out to read it with a model derived "
                + "from the file.\n")
    }

    /// Without --model, the advice does not say to leave it out.
    @Test func migratingAForeignStoreWithoutItsModelAsksForIt() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Foreign/Recipes.xml", as: "Recipes.xml")
        let result = try box.run("migrate", "Recipes.xml", "--to", "Outline 2")
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: Recipes.xml: no version of the model \"Outline\" matches the document, and the document does not "
                + "embed its model. Pass the model it was written with (--model MODEL).\n", "\(result)")
    }

    /// A document of another model with a higher version identifier than any outline version
    /// is not "newer": it shares no entity with the outline model, so it is read with its own.
    @Test func aDocumentOfAnotherModelIsNotTakenForANewerOutline() throws {
        let box = try CLISandbox()
        let schema = try Schema(
            name: "Journal", versionIdentifier: "7",
            entities: [Entity(name: "Entry", attributes: [Attribute(name: "body", type: .string)])])
        let store = PersistentStore(schema: schema, path: box.path("journal.outline"))
        try store.context.setValue(.string("Dear diary"), forKey: "body", of: try store.context.insert("Entry"))
        try store.save()
        let info = try box.run("info", "journal.outline", "--json")
        #expect(info.status == 0, "\(info)")
        #expect(try info.jsonObject()["schemaVersion"] as? String == "Journal")
        #expect(try info.jsonObject()["ownModel"] as? Bool == true)
        let dump = try box.run("dump", "journal.outline")
        #expect(dump.stdout == "Entry z102\n  body: \"Dear diary\"\n", "\(dump)")
        #expect(try box.run("validate", "journal.outline").stdout == "journal.outline: valid (binary, Journal, 1 object)\n")
    }

    @Test func validateOfAStoreWhoseModelCannotBeDerivedSaysSoInsteadOfAVerdict() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Malformed/DerivedModelInconsistent.xml", as: "staff.xml")
        let result = try box.run("validate", "staff.xml")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr == "Error: staff.xml: the model derived from the file is inconsistent (EMPLOYEE.age: two properties are "
                + "called \"age\". Fix the model and load it again.). Open the store with the model it was written with.\n")
    }

    /// A binary document converted without the model follows the derived model; its model
    /// refuses it with a way out, and converting it back to XML lets the model read it again.
    @Test func aBinaryConvertedWithoutItsModelPointsBackToXML() throws {
        let box = try CLISandbox()
        try box.copyFixture("XML/Foreign/Recipes.xml", as: "Recipes.xml")
        let model = CLI.packageRoot.appendingPathComponent("Fixtures/Models/Recipes.xcdatamodel").path
        try #require(try box.run("convert", "Recipes.xml", "r.outline").status == 0)
        let refused = try box.run("dump", "r.outline", "--model", model)
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "Error: r.outline: the document was converted from a store of the model \"Recipes\" (version Recipes) "
                + "while that model was not at hand; its objects follow a model derived from the store's data. Convert it back to a Core "
                + "Data XML store, which opens with version Recipes.\n")
        let other = try box.run("dump", "r.outline", "--model", ModelVersionTests.shop, "--model-version", "Shop")
        #expect(other.status == 1)
        #expect(
            other.stderr == "Error: r.outline: the document follows a model derived from the data of a store that came without its "
                + "model, and no version of \"Shop\" matches that store. Open it with the model it embeds, or with the model of the app "
                + "that wrote the store.\n", "never migrated from a derived model: \(other)")
        try #require(try box.run("convert", "r.outline", "back.xml").status == 0)
        let reopened = try box.run("validate", "back.xml", "--model", model)
        #expect(reopened.stdout == "back.xml: valid (xml, Recipes, 7 objects)\n", "\(reopened)")
    }
}
