import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import Testing

/// Xcode bundles that name no current version (`Fixtures/Models/Shop.xcdatamodeld`), models with
/// odd default forms, and the migration risks of `Shop` -> `Shop 2`: every risk kind once.
@Suite struct ModelVersionTests {
    static var shop: String { CLI.packageRoot.appendingPathComponent("Fixtures/Models/Shop.xcdatamodeld").path }

    /// A `Shop` (v1) document: z102 has no name, a stock that does not fit Integer 16, two tags
    /// (one with `twoTags` false) and no category; z103 is complete with one tag. Then two tags
    /// (z104, z105) and a category (z106).
    static func writeShop(_ box: CLISandbox, _ name: String, twoTags: Bool = true, format: DocumentFormat = .binary) throws {
        let schema = try #require(try ModelReader.read(at: URL(fileURLWithPath: shop)).version(named: "Shop"))
        let store = PersistentStore(schema: schema, path: box.path(name), format: format)
        let context = store.context
        let lamp = try context.insert("Product")
        let pen = try context.insert("Product")
        let red = try context.insert("Tag")
        let sale = try context.insert("Tag")
        let office = try context.insert("Category")
        try context.setValue(.integer(100_000), forKey: "stock", of: lamp)
        try context.setValue(.string("Pen"), forKey: "name", of: pen)
        try context.setValue(.integer(5), forKey: "stock", of: pen)
        try context.add(red, toKey: "tags", of: lamp)
        if twoTags { try context.add(sale, toKey: "tags", of: lamp) }
        try context.add(red, toKey: "tags", of: pen)
        try context.setObject(office, forKey: "category", of: pen)
        try store.save()
    }

    @Test func diffWorksOnABundleWithoutCurrentVersionAndListsEveryRiskKind() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "diff", Self.shop, "--from", "Shop", "--to", "Shop 2", "--allow-to-one")
        #expect(result.status == 0, "risks do not stop an inferable mapping: \(result)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout.hasSuffix(
                """

                Risks: 5 (the mapping can be inferred; migrating a document fails only where its data is in the way, and leaves it unchanged)
                  Risk: Product.name: optional String -> required String without a default: fails for every object whose value is nil.
                  Risk: Product.sku: absent -> required String without a default: fails for every object, if any exists.
                  Risk: Product.stock: Integer 64 -> Integer 16: fails for every object whose value does not fit Integer 16 exactly.
                  Risk: Product.category: optional to-one -> required to-one: fails for every object left without a destination.
                  Risk: Product.tags: to-many -> to-one: fails for every object with more than one destination.

                """), "\(result)")
        let json = try box.run("schema", "diff", Self.shop, "--from", "Shop", "--to", "Shop 2", "--allow-to-one", "--json")
        #expect(json.status == 0)
        let risks = try #require(try json.jsonObject()["risks"] as? [[String: Any]])
        #expect(
            risks.compactMap { $0["kind"] as? String }
                == ["optionalToRequired", "newRequiredAttribute", "checkedNarrowing", "requiredRelationship", "toManyToToOne"])
        let first = risks[0]
        #expect(first["entity"] as? String == "Product" && first["property"] as? String == "name")
        #expect(first["from"] as? String == "optional String" && first["to"] as? String == "required String without a default")
        #expect(first["fails"] as? String == "every object whose value is nil")
        #expect(first["when"] as? String == "when a document is migrated (the migration stops and the document is left unchanged)")
        #expect(first["failing"] is NSNull, "no document, no count")
    }

    @Test func withoutAllowingToOneTheToManyChangeIsABlockerAndTheRestStayRisks() throws {
        let box = try CLISandbox()
        let result = try box.run("schema", "diff", Self.shop, "--from", "Shop", "--to", "Shop 2", "--json")
        #expect(result.status == 1)
        let plan = try result.jsonObject()
        #expect((plan["blockers"] as? [[String: Any]])?.compactMap { $0["code"] as? String } == ["toManyToToOne"])
        #expect(
            (plan["blockers"] as? [[String: Any]])?.first?["hint"] as? String
                == "Keep it to-many, or pass --allow-to-one when no object has more than one destination.",
            "the tool names its own flag where the engine names its option")
        #expect((plan["risks"] as? [Any])?.count == 4)
    }

    @Test func aDryRunCountsTheObjectsEachRiskWouldFail() throws {
        let box = try CLISandbox()
        try Self.writeShop(box, "shop.outline")
        let before = try box.bytes("shop.outline")
        let dry = try box.run("migrate", "shop.outline", "--model", Self.shop, "--to", "Shop 2", "--allow-to-one", "--dry-run")
        #expect(dry.status == 1, "objects would fail: \(dry)")
        #expect(
            dry.stdout.contains(
                """
                Risks: 5 (the mapping can be inferred; migrating a document fails only where its data is in the way, and leaves it unchanged)
                  Risk: Product.name: optional String -> required String without a default: fails for every object whose value is nil: 1 object would fail (z102).
                  Risk: Product.sku: absent -> required String without a default: fails for every object, if any exists: 2 objects would fail (z102, z103).
                  Risk: Product.stock: Integer 64 -> Integer 16: fails for every object whose value does not fit Integer 16 exactly: 1 object would fail (z102).
                  Risk: Product.category: optional to-one -> required to-one: fails for every object left without a destination: not checked (the other problems stop the migration first).
                  Risk: Product.tags: to-many -> to-one: fails for every object with more than one destination: 1 object would fail (z102).
                """), "\(dry)")
        let json = try box.run("migrate", "shop.outline", "--model", Self.shop, "--to", "Shop 2", "--allow-to-one", "--dry-run", "--json")
        let risks = try #require(try json.jsonObject()["risks"] as? [[String: Any]])
        let failing = risks.compactMap { $0["failing"] as? [String: Any] }
        #expect(failing.map { $0["checked"] as? Bool } == [true, true, true, false, true])
        #expect(failing.map { $0["count"] as? Int } == [1, 2, 1, nil, 1])
        #expect(failing.compactMap { $0["objects"] as? [String] } == [["z102"], ["z102", "z103"], ["z102"], [], ["z102"]])
        #expect(try box.bytes("shop.outline") == before)

        try Self.writeShop(box, "one-tag.outline", twoTags: false)
        let linked = try box.run("migrate", "one-tag.outline", "--model", Self.shop, "--to", "Shop 2", "--allow-to-one", "--dry-run")
        #expect(
            linked.stdout.contains(
                """
                  Risk: Product.category: optional to-one -> required to-one: fails for every object left without a destination: 1 object would fail (z102).
                  Risk: Product.tags: to-many -> to-one: fails for every object with more than one destination: no object would fail.
                """), "\(linked)")
    }

    @Test func aDryRunWhoseRisksFindNoObjectSaysSoAndExitsWith0() throws {
        let box = try CLISandbox()
        let schema = try #require(try ModelReader.read(at: URL(fileURLWithPath: Self.shop)).version(named: "Shop"))
        let store = PersistentStore(schema: schema, path: box.path("empty.outline"))
        _ = try store.context.insert("Tag")
        try store.save()
        let dry = try box.run("migrate", "empty.outline", "--model", Self.shop, "--model-version", "Shop 2", "--allow-to-one", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(
            dry.stdout.contains(
                "  Risk: Product.sku: absent -> required String without a default: fails for every object, if any exists: no object would fail.\n"),
            "\(dry)")
    }

    @Test func whereACurrentVersionIsNeededTheMessageListsTheVersionsAndHowToChoose() throws {
        let box = try CLISandbox()
        try Self.writeShop(box, "shop.outline")
        let message =
            "the model \"Shop\" has 3 versions (Shop, Shop 2, Shop 10) and names no current version. Choose one with "
            + "--model-version NAME (or --to NAME to migrate), or name the current one in the bundle's .xccurrentversion.\n"
        let migrate = try box.run("migrate", "shop.outline", "--model", Self.shop, "--dry-run")
        #expect(migrate.status == 1)
        #expect(migrate.stderr == "Error: " + message, "\(migrate)")
        let show = try box.run("schema", "show", Self.shop)
        #expect(show.status == 1)
        #expect(show.stderr == "Error: " + message)
        #expect(try box.run("schema", "show", Self.shop, "--model-version", "Shop 10").status == 0)
    }

    @Test func commandsThatNeedNoCurrentVersionWorkWithoutOne() throws {
        let box = try CLISandbox()
        try Self.writeShop(box, "shop.outline")
        let info = try box.run("info", "shop.outline", "--model", Self.shop)
        #expect(info.status == 0, "\(info)")
        let lines = info.stdout.replacingOccurrences(of: ": +", with: ": ", options: .regularExpression)
        #expect(lines.contains("Schema version: Shop\n") && lines.contains("Current version: none named\n"), "\(info)")
        #expect(lines.contains("Migration needed: unknown: the model names no current version (versions: Shop, Shop 2, Shop 10)\n"))
        let validate = try box.run("validate", "shop.outline", "--model", Self.shop)
        #expect(validate.stdout == "shop.outline: valid (binary, Shop, 5 objects)\n", "\(validate)")
        let convert = try box.run("convert", "shop.outline", "shop.xml", "--model", Self.shop)
        #expect(convert.status == 0 && convert.stderr.isEmpty, "kept at its version: \(convert)")
        let dump = try box.run("dump", "shop.xml", "--model", Self.shop, "--json")
        #expect(try dump.jsonObject()["model"] as? String == "Shop")
    }

    @Test func oddModelFormsAreWarningsAndTheCommandGoesOn() throws {
        let box = try CLISandbox()
        let model = CLI.packageRoot.appendingPathComponent("Fixtures/Models/OddDefaultValues.xcdatamodel").path
        let result = try box.run("schema", "show", model)
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 3)
        #expect(
            result.stderr.hasPrefix(
                "Warning: \(model)/contents: line 4: attribute Item.count: the default value (defaultValueString) "
                    + "\"1.5\" is not a whole number; read as 1."), "\(result)")
        #expect(result.stdout.contains("count: Integer 32, optional, default 1"), "\(result)")
    }
}
