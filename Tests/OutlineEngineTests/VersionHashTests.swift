import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

/// A named edit of a schema's parts, for parameterized tests.
struct SchemaEdit: Sendable, CustomTestStringConvertible {
    /// The parts of a schema an edit may change.
    struct Parts: Sendable {
        var name = "Sample"
        var versionIdentifier = "1"
        var entities: [Entity]
    }

    let testDescription: String
    let apply: @Sendable (inout Parts) -> Void

    init(_ label: String, _ apply: @escaping @Sendable (inout Parts) -> Void) {
        self.testDescription = label
        self.apply = apply
    }

    /// Edits the entity called `entity`.
    static func entity(_ label: String, _ entity: String, _ edit: @escaping @Sendable (inout Entity) -> Void) -> SchemaEdit {
        SchemaEdit(label) { parts in
            if let i = parts.entities.firstIndex(where: { $0.name == entity }) { edit(&parts.entities[i]) }
        }
    }

    /// Edits attribute `attribute` of entity `Item`.
    static func attribute(_ label: String, _ attribute: String, _ edit: @escaping @Sendable (inout Attribute) -> Void) -> SchemaEdit {
        entity(label, "Item") { e in
            if let i = e.attributes.firstIndex(where: { $0.name == attribute }) { edit(&e.attributes[i]) }
        }
    }

    /// Edits relationship `relationship` of entity `Item`.
    static func relationship(
        _ label: String, _ relationship: String,
        _ edit: @escaping @Sendable (inout Relationship) -> Void
    ) -> SchemaEdit {
        entity(label, "Item") { e in
            if let i = e.relationships.firstIndex(where: { $0.name == relationship }) { edit(&e.relationships[i]) }
        }
    }
}

@Suite struct VersionHashTests {
    /// The nested-list `Item`, plus an unrelated `Base` entity and a `link` without inverse,
    /// so that edits of destinations and parents stay valid schemas.
    static func baseParts() -> SchemaEdit.Parts {
        var item = SampleEntities.nestedListItem
        item.relationships.append(Relationship(name: "link", destination: "Item"))
        return SchemaEdit.Parts(entities: [Entity(name: "Base"), item])
    }

    static func hashes(after edit: SchemaEdit?) throws -> (entities: [String: Data], model: Data) {
        var parts = baseParts()
        edit?.apply(&parts)
        let schema = try Schema(name: parts.name, versionIdentifier: parts.versionIdentifier, entities: parts.entities)
        return (schema.entityVersionHashes, schema.versionHash)
    }

    @Test func nestedListModelMatchesTheGoldenVector() throws {
        let schema = try Schema(entities: [SampleEntities.nestedListItem])
        let properties = schema.propertyVersionHashes(ofEntity: 0)
        #expect(properties["children"]?.hex == "e559707373612a0c997c9ebd592dab732557f2b44949f7fac048d0152efe559e")
        #expect(properties["order"]?.hex == "8d60d7377ed803bb882eb30e16e5b838b90aca5ba8e4fe8225f565eebefea7b8")
        #expect(properties["parent"]?.hex == "40cd75d9efc220daec57e31db98fe841ee049d5686a3a92660aafa3e9215c27a")
        #expect(properties["title"]?.hex == "9548c47648ef821ebefdf568164d8eccda1c057ca05bf40466fe890c35e0a767")
        let item = schema.versionHash(ofEntity: 0)
        #expect(item.hex == "015448ed9cffbeb932fb29482daded508b51e0f9f3511fcde8c528656711eaf5")
        #expect(item.base64EncodedString() == "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=")
        #expect(schema.entityVersionHashes == ["Item": item])
        #expect(schema.versionHash(ofEntityNamed: "Item") == item)
        #expect(schema.versionHash(ofEntityNamed: "Missing") == nil)
        // The model hash is SHA-256 of the single entity hash (value computed from the recipe).
        #expect(schema.versionChecksum == "fxRBSZFaHmhNg4L6FlFkebRiO/4IF86th1kC9mEVdRM=")
    }

    @Test func propertyHashesOfTheGoldenVectorHaveBase64Forms() throws {
        let schema = try Schema(entities: [SampleEntities.nestedListItem])
        let properties = schema.propertyVersionHashes(ofEntity: 0).mapValues { $0.base64EncodedString() }
        #expect(
            properties == [
                "children": "5Vlwc3NhKgyZfJ69WS2rcyVX8rRJSff6wEjQFS7+VZ4=",
                "order": "jWDXN37YA7uILrMOFuW4OLkKyluo5P6CJfVl7r7+p7g=",
                "parent": "QM112e/CINrsV+MduY/oQe4EnVaGo6kmYKr6PpIVwno=",
                "title": "lUjEdkjvgh6+/fVoFk2OzNocBXygW/QEZv6JDDXgp2c=",
            ])
    }

    @Test func hashesAreDeterministicAndThirtyTwoBytes() throws {
        let first = try Self.hashes(after: nil)
        let second = try Self.hashes(after: nil)
        #expect(first.entities == second.entities)
        #expect(first.model == second.model)
        #expect(first.entities.count == 2)
        #expect(first.entities.values.allSatisfy { $0.count == 32 })
        #expect(first.model.count == 32)
    }

    static let changes: [SchemaEdit] = [
        .attribute("attribute name", "title") { $0.name = "heading" },
        .attribute("attribute optional flag", "order") { $0.isOptional = true },
        .attribute("attribute transient flag", "title") { $0.isTransient = true },
        .attribute("attribute type", "order") { $0.type = .integer32 },
        .attribute("external binary storage", "title") { $0.allowsExternalBinaryDataStorage = true },
        .attribute("preserved in history on deletion", "title") { $0.preservesValueInHistoryOnDeletion = true },
        .attribute("attribute version hash modifier", "order") { $0.versionHashModifier = "2" },
        .relationship("relationship name", "link") { $0.name = "reference" },
        .relationship("relationship optional flag", "link") { $0.isOptional = false },
        .relationship("relationship transient flag", "link") { $0.isTransient = true },
        .relationship("relationship version hash modifier", "link") { $0.versionHashModifier = "2" },
        .relationship("destination", "link") { $0.destination = "Base" },
        .entity("inverse", "Item") { e in
            for i in e.relationships.indices { e.relationships[i].inverse = nil }
        },
        .relationship("minimum count", "children") { $0.minCount = 1 },
        .relationship("maximum count", "children") { $0.maxCount = 5 },
        .relationship("ordered flag", "children") { $0.isOrdered = true },
        .entity("entity name", "Base") { $0.name = "Root" },
        .entity("abstract flag", "Item") { $0.isAbstract = true },
        .entity("parent entity", "Item") { $0.parent = "Base" },
        .entity("uniqueness constraint", "Item") { $0.uniquenessConstraints = [["title"]] },
        .entity("entity version hash modifier", "Item") { $0.versionHashModifier = "2" },
        .entity("new attribute", "Item") { $0.attributes.append(Attribute(name: "note", type: .string)) },
    ]

    @Test(arguments: changes)
    func storedShapeChangesAlterTheHashes(_ change: SchemaEdit) throws {
        let before = try Self.hashes(after: nil)
        let after = try Self.hashes(after: change)
        #expect(before.entities != after.entities)
        #expect(before.model != after.model)
    }

    static let nonChanges: [SchemaEdit] = [
        .attribute("default value", "order") { $0.defaultValue = .integer(7) },
        .attribute("regular expression", "title") { $0.regularExpression = "[a-z]+" },
        .attribute("minimum and maximum values", "order") {
            $0.minValue = .integer(0)
            $0.maxValue = .integer(9)
        },
        .attribute("attribute user info", "title") { $0.userInfo = ["purpose": "heading"] },
        .attribute("attribute renaming identifier", "title") { $0.renamingIdentifier = "heading" },
        .attribute("value transformer name", "title") { $0.valueTransformerName = "NSSecureUnarchiveFromData" },
        .relationship("delete rule", "children") { $0.deleteRule = .deny },
        .relationship("relationship renaming identifier", "link") { $0.renamingIdentifier = "ref" },
        .relationship("relationship user info", "link") { $0.userInfo = ["a": "b"] },
        .entity("class name", "Item") { $0.className = "OutlineItem" },
        .entity("entity renaming identifier", "Item") { $0.renamingIdentifier = "Node" },
        .entity("entity user info", "Item") { $0.userInfo = ["a": "b"] },
        .entity("property declaration order", "Item") {
            $0.attributes.reverse()
            $0.relationships.reverse()
        },
        SchemaEdit("entity declaration order") { $0.entities.reverse() },
        SchemaEdit("version identifier") { $0.versionIdentifier = "99" },
        SchemaEdit("schema name") { $0.name = "Other" },
    ]

    @Test(arguments: nonChanges)
    func changesOutsideTheStoredShapeKeepTheHashes(_ change: SchemaEdit) throws {
        let before = try Self.hashes(after: nil)
        let after = try Self.hashes(after: change)
        #expect(before.entities == after.entities)
        #expect(before.model == after.model)
    }

    @Test func transientPropertiesHaveHashesButDoNotCountForTheEntity() throws {
        var item = SampleEntities.nestedListItem
        let plain = try Schema(entities: [item]).versionHash(ofEntity: 0)
        item.attributes.append(Attribute(name: "scratch", type: .undefined, isTransient: true))
        let schema = try Schema(entities: [item])
        #expect(schema.versionHash(ofEntity: 0) == plain)
        #expect(schema.propertyVersionHashes(ofEntity: 0)["scratch"]?.count == 32)
    }

    @Test func subentityHashIncludesInheritedPropertiesAndTheSuperentityHash() throws {
        var node = Entity(name: "Node", isAbstract: true, attributes: [Attribute(name: "name", type: .string)])
        let leaf = Entity(name: "Leaf", parent: "Node", attributes: [Attribute(name: "weight", type: .double)])
        let schema = try Schema(entities: [node, leaf])
        #expect(Set(schema.propertyVersionHashes(ofEntity: 1).keys) == ["name", "weight"])
        #expect(schema.entityVersionHashes.count == 2)
        #expect(schema.versionHash(ofEntity: 0) != schema.versionHash(ofEntity: 1))

        node.attributes[0].isOptional = false
        let changed = try Schema(entities: [node, leaf])
        #expect(changed.versionHash(ofEntity: 1) != schema.versionHash(ofEntity: 1))
        node.attributes[0].isOptional = true
        node.versionHashModifier = "2"
        let modified = try Schema(entities: [node, leaf])
        #expect(modified.versionHash(ofEntity: 1) != schema.versionHash(ofEntity: 1), "the superentity hash is part of it")
    }

    @Test func ownInverseIsNotHashedAsAnInverse() {
        let symmetric = Relationship(name: "friends", destination: "Person", inverse: "friends", isToMany: true)
        let without = Relationship(name: "friends", destination: "Person", isToMany: true)
        #expect(symmetric.versionHash(declaredOn: "Person") == without.versionHash(declaredOn: "Person"))
        #expect(symmetric.versionHash(declaredOn: "Group") != without.versionHash(declaredOn: "Group"))
    }

    @Test func storageCompatibilityComparesEntityHashes() throws {
        let a = try Schema(name: "A", versionIdentifier: "1", entities: [SampleEntities.nestedListItem])
        var renamed = SampleEntities.nestedListItem
        renamed.className = "Other"
        let b = try Schema(name: "B", versionIdentifier: "2", entities: [renamed])
        renamed.attributes[1].isOptional = false
        let c = try Schema(entities: [renamed])
        #expect(a.isStorageCompatible(with: b))
        #expect(!a.isStorageCompatible(with: c))
        #expect(!a.isStorageCompatible(withEntityHashes: [:]))
    }
}
