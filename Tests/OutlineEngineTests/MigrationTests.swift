import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// One test per migration rule, with small models defined here.
@Suite struct MigrationTests {
    // MARK: Helpers

    static func schema(_ name: String, _ entities: [Entity]) throws -> Schema {
        try Schema(name: name, entities: entities)
    }

    static func item(
        _ attributes: [Attribute], _ relationships: [Relationship] = [], name: String = "Item",
        renamingIdentifier: String? = nil
    ) -> Entity {
        Entity(name: name, attributes: attributes, relationships: relationships, renamingIdentifier: renamingIdentifier)
    }

    /// A context with objects made by `fill`, then migrated to `destination`.
    static func migrate(
        _ source: Schema, to destination: Schema, options: MigrationOptions = MigrationOptions(),
        fill: (EditingContext) throws -> Void
    ) throws -> (Migrator.Result, MigrationPlan) {
        let context = EditingContext(schema: source)
        try fill(context)
        let plan = MigrationPlan.infer(from: source, to: destination, options: options)
        return (try Migrator(plan: plan).run(context.graph), plan)
    }

    static func values(_ graph: ObjectGraph, _ entity: String, _ key: String) -> [Value?] {
        let info = graph.schema.info(named: entity)!
        let a = info.attributeIndex(named: key)!
        return graph.objects(ofEntity: info.index).map { graph.attributeValue(of: $0, a) }
    }

    // MARK: Rules 2, 3, 5: copy, add, remove, rename

    @Test func unchangedEntitiesCopyAndAddedOnesStartEmpty() throws {
        let v1 = try Self.schema(
            "v1",
            [
                Self.item([Attribute(name: "title", type: .string)]),
                Entity(name: "Old", attributes: [Attribute(name: "x", type: .integer16)]),
            ])
        let v2 = try Self.schema(
            "v2",
            [
                Self.item([Attribute(name: "title", type: .string)]),
                Entity(name: "New", attributes: [Attribute(name: "y", type: .string)]),
            ])
        let (result, plan) = try Self.migrate(v1, to: v2) { context in
            try context.setValue(.string("a"), forKey: "title", of: try context.insert("Item"))
            try context.insert("Old")
        }
        #expect(plan.entities.map(\.kind) == [.copy, .add])
        #expect(plan.removedEntities == ["Old"])
        let graph = try #require(result.graph)
        #expect(Self.values(graph, "Item", "title") == [.string("a")])
        #expect(graph.count(ofEntity: 1) == 0)
        #expect(result.report.droppedObjects == ["Old": 1])
    }

    @Test func renamesThroughRenamingIdentifiersKeepObjectIdentity() throws {
        let v1 = try Self.schema(
            "v1",
            [
                Self.item(
                    [Attribute(name: "title", type: .string)],
                    [Relationship(name: "parent", destination: "Node")], name: "Node")
            ])
        let v2 = try Self.schema(
            "v2",
            [
                Self.item(
                    [Attribute(name: "text", type: .string, renamingIdentifier: "title")],
                    [Relationship(name: "up", destination: "Item", renamingIdentifier: "parent")],
                    renamingIdentifier: "Node")
            ])
        var ids: [ObjectID] = []
        let (result, _) = try Self.migrate(v1, to: v2) { context in
            let a = try context.insert("Node")
            let b = try context.insert("Node")
            try context.setValue(.string("child"), forKey: "title", of: b)
            try context.setObject(a, forKey: "parent", of: b)
            ids = [context.objectID(of: a), context.objectID(of: b)]
        }
        let graph = try #require(result.graph)
        let b = try #require(graph.object(with: ids[1]))
        #expect(graph.attributeValue(of: b, 0) == .string("child"))
        #expect(graph.relatedObject(of: b, 0) == graph.object(with: ids[0]))
    }

    @Test func removedAttributesAreDroppedAndCounted() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "a", type: .string), Attribute(name: "b", type: .string)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "a", type: .string)])])
        let (result, plan) = try Self.migrate(v1, to: v2) { context in
            for i in 0 ..< 3 { try context.setValue(.string("\(i)"), forKey: "b", of: try context.insert("Item")) }
        }
        #expect(plan.entities[0].removedAttributes == ["b"])
        #expect(result.report.droppedValues == ["Item.b": 3])
    }

    // MARK: Rules 4 and 6: new attributes, optionality

    @Test func newAttributesGetTheirDefault() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "a", type: .string)])])
        let v2 = try Self.schema(
            "v2",
            [
                Self.item([
                    Attribute(name: "a", type: .string),
                    Attribute(name: "done", type: .boolean, isOptional: false, defaultValue: .boolean(false)),
                    Attribute(name: "note", type: .string),
                ])
            ])
        let (result, _) = try Self.migrate(v1, to: v2) {
            try $0.insert("Item")
            try $0.insert("Item")
        }
        let graph = try #require(result.graph)
        #expect(Self.values(graph, "Item", "done") == [.boolean(false), .boolean(false)])
        #expect(Self.values(graph, "Item", "note") == [nil, nil])
    }

    @Test func newMandatoryAttributeWithoutDefaultIsAViolationOnlyWithObjects() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "a", type: .string)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "a", type: .string), Attribute(name: "b", type: .string, isOptional: false)])])
        let (empty, _) = try Self.migrate(v1, to: v2) { _ in }
        #expect(empty.graph != nil)
        let (result, _) = try Self.migrate(v1, to: v2) { for _ in 0 ..< 7 { try $0.insert("Item") } }
        #expect(result.graph == nil)
        #expect(
            result.report.violations.map(\.description) == [
                "Item.b: 7 objects get no value: the new attribute is required and has no default (z102, z103, z104, z105, z106 and 2 more)"
            ])
    }

    @Test func optionalToMandatoryFillsDefaultsOrNamesTheNils() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "a", type: .string), Attribute(name: "n", type: .integer32)])])
        let v2 = try Self.schema(
            "v2",
            [
                Self.item([
                    Attribute(name: "a", type: .string, isOptional: false),
                    Attribute(name: "n", type: .integer32, isOptional: false, defaultValue: .integer(5)),
                ])
            ])
        let (result, _) = try Self.migrate(v1, to: v2) { context in
            try context.setValue(.string("x"), forKey: "a", of: try context.insert("Item"))
            try context.insert("Item")
        }
        #expect(
            result.report.violations.map(\.description) == [
                "Item.a: 1 object have no value, but a becomes required without a default (z103)"
            ])
        #expect(result.report.defaultedValues == ["Item.n": 2])
        let v3 = try Self.schema(
            "v3",
            [
                Self.item([
                    Attribute(name: "a", type: .string),
                    Attribute(name: "n", type: .integer32),
                ])
            ])
        let (back, _) = try Self.migrate(v2, to: v3) { context in
            try context.setValue(.string("x"), forKey: "a", of: try context.insert("Item"))
        }
        #expect(Self.values(try #require(back.graph), "Item", "n") == [.integer(5)], "mandatory -> optional copies")
    }

    // MARK: Rules 7, 8, 9: types

    @Test(arguments: [
        (AttributeType.integer16, AttributeType.integer64, Value.integer(-7), Value.integer(-7)),
        (.integer32, .double, .integer(123_456), .double(123_456)),
        (.float, .double, .double(1.5), .double(1.5)),
        (.integer64, .decimal, .integer(9_000_000_000), .decimal(Decimal(9_000_000_000))),
        (.boolean, .integer16, .boolean(true), .integer(1)),
    ])
    func losslessPromotionsConvertEveryValue(from: AttributeType, to: AttributeType, value: Value, expected: Value) throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "x", type: from)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "x", type: to)])])
        let (result, plan) = try Self.migrate(v1, to: v2) { try $0.setValue(value, forKey: "x", of: try $0.insert("Item")) }
        #expect(plan.entities[0].attributes[0].action == .promote(from: from, to: to))
        #expect(Self.values(try #require(result.graph), "Item", "x") == [expected])
    }

    @Test(arguments: [
        (AttributeType.integer64, AttributeType.integer16, Value.integer(40_000), Value.integer(12)),
        (.double, .integer32, .double(2.5), .double(7)),
        (.integer32, .boolean, .integer(2), .integer(1)),
        (.double, .float, .double(0.1), .double(0.5)),
    ])
    func lossyConversionsCheckEveryValue(from: AttributeType, to: AttributeType, bad: Value, good: Value) throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "x", type: from)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "x", type: to)])])
        let fill: (EditingContext) throws -> Void = { context in
            try context.setValue(good, forKey: "x", of: try context.insert("Item"))
            try context.setValue(bad, forKey: "x", of: try context.insert("Item"))
        }
        let (checked, plan) = try Self.migrate(v1, to: v2, fill: fill)
        #expect(plan.entities[0].attributes[0].action == .narrow(from: from, to: to))
        #expect(checked.graph == nil)
        #expect(
            checked.report.violations.first?.description
                == "Item.x: 1 object have values that do not fit \(to.modelName) exactly (from \(from.modelName)) (z103)")
        let (unchecked, _) = try Self.migrate(v1, to: v2, options: MigrationOptions(allowsLossyConversions: true), fill: fill)
        #expect(unchecked.graph != nil, "the option restores Core Data's unchecked behaviour")
    }

    @Test(arguments: [(AttributeType.string, AttributeType.integer32), (.date, .double), (.integer64, .string), (.binary, .string), (.uuid, .string)])
    func incompatibleTypesAreBlockers(from: AttributeType, to: AttributeType) throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "x", type: from)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "x", type: to)])])
        let plan = MigrationPlan.infer(from: v1, to: v2)
        #expect(
            plan.blockers.map(\.description) == [
                "Item.x: \(from.modelName) -> \(to.modelName): \(from.modelName) values cannot be converted to \(to.modelName). Keep the type, or add a new attribute under another name (with its own renaming identifier) and fill it in code."
            ])
        #expect(throws: EngineError.self) { try Migrator(plan: plan).run(EditingContext(schema: v1).graph) }
    }

    @Test func binaryToTransformableNeedsTheUserInfoKey() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "x", type: .binary)])])
        let plain = try Self.schema("v2", [Self.item([Attribute(name: "x", type: .transformable)])])
        let allowed = try Self.schema(
            "v2", [Self.item([Attribute(name: "x", type: .transformable, userInfo: ["NSMigrationAllowTypeTransformation": "YES"])])])
        #expect(!MigrationPlan.infer(from: v1, to: plain).isInferable)
        #expect(MigrationPlan.infer(from: v1, to: allowed).isInferable)
    }

    // MARK: Rules 10, 11, 12: relationships

    static let people = Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)])

    static func pets(toMany: Bool, ordered: Bool = false, rule: DeleteRule = .nullify) -> [Entity] {
        [
            Entity(
                name: "Person", attributes: [Attribute(name: "name", type: .string)],
                relationships: [
                    Relationship(name: "pets", destination: "Pet", inverse: "owner", isToMany: toMany, isOrdered: ordered, deleteRule: rule)
                ]),
            Entity(
                name: "Pet", attributes: [Attribute(name: "name", type: .string)],
                relationships: [Relationship(name: "owner", destination: "Person", inverse: "pets")]),
        ]
    }

    @Test func toOneBecomesToManyByWrapping() throws {
        let v1 = try Self.schema("v1", Self.pets(toMany: false))
        let v2 = try Self.schema("v2", Self.pets(toMany: true))
        let (result, plan) = try Self.migrate(v1, to: v2) { context in
            let ann = try context.insert("Person")
            let rex = try context.insert("Pet")
            try context.setObject(rex, forKey: "pets", of: ann)
        }
        #expect(plan.entities[0].relationships[0].action == .wrap)
        let graph = try #require(result.graph)
        let ann = graph.objects(ofEntity: 0)[0]
        #expect(graph.relatedObjects(of: ann, 0) == graph.objects(ofEntity: 1))
        #expect(graph.relatedObject(of: graph.objects(ofEntity: 1)[0], 0) == ann)
    }

    @Test func toManyToToOneIsBlockedUnlessAllowedAndThenChecked() throws {
        let v1 = try Self.schema("v1", Self.pets(toMany: true))
        let v2 = try Self.schema("v2", Self.pets(toMany: false))
        let plan = MigrationPlan.infer(from: v1, to: v2)
        #expect(plan.blockers.map(\.code) == [.toManyToToOne])
        #expect(plan.blockers[0].description.hasPrefix("Person.pets: to-many -> to-one: a to-many relationship cannot become to-one"))
        let allow = MigrationOptions(allowsToManyToToOne: true)
        let (ok, _) = try Self.migrate(v1, to: v2, options: allow) { context in
            try context.add(try context.insert("Pet"), toKey: "pets", of: try context.insert("Person"))
        }
        #expect(ok.graph != nil)
        let (bad, _) = try Self.migrate(v1, to: v2, options: allow) { context in
            let ann = try context.insert("Person")
            try context.add(try context.insert("Pet"), toKey: "pets", of: ann)
            try context.add(try context.insert("Pet"), toKey: "pets", of: ann)
        }
        #expect(
            bad.report.violations.map(\.description) == [
                "Person.pets: 1 object have more than one destination, but the relationship becomes to-one (z102)"
            ])
    }

    @Test func orderingAndDeleteRuleChangesNeedNoDataChange() throws {
        let v1 = try Self.schema("v1", Self.pets(toMany: true, ordered: false))
        let v2 = try Self.schema("v2", Self.pets(toMany: true, ordered: true, rule: .cascade))
        var order: [ObjectID] = []
        let (result, plan) = try Self.migrate(v1, to: v2) { context in
            let ann = try context.insert("Person")
            for _ in 0 ..< 3 { try context.add(try context.insert("Pet"), toKey: "pets", of: ann, at: 0) }
            order = try context.objects(forKey: "pets", of: ann).map(context.objectID(of:))
        }
        #expect(plan.isInferable)
        #expect(plan.entities[0].relationships[0].notes == ["becomes ordered (in stored order)", "delete rule Nullify -> Cascade"])
        let graph = try #require(result.graph)
        #expect(graph.relatedObjects(of: graph.objects(ofEntity: 0)[0], 0).map(graph.objectID(of:)) == order)
    }

    @Test func attributeBecomingRelationshipIsABlocker() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "owner", type: .string)]), Self.people])
        let v2 = try Self.schema("v2", [Self.item([], [Relationship(name: "owner", destination: "Person")]), Self.people])
        let plan = MigrationPlan.infer(from: v1, to: v2)
        #expect(plan.blockers.map(\.code) == [.kindChanged])
        #expect(plan.blockers[0].from == "attribute owner (String)")
    }

    @Test func newMandatoryRelationshipFailsOnlyWhereObjectsAreLeftEmpty() throws {
        let v1 = try Self.schema("v1", [Self.item([]), Self.people])
        let v2 = try Self.schema("v2", [Self.item([], [Relationship(name: "owner", destination: "Person", isOptional: false)]), Self.people])
        let (empty, _) = try Self.migrate(v1, to: v2) { try $0.insert("Person") }
        #expect(empty.graph != nil)
        let (result, _) = try Self.migrate(v1, to: v2) { try $0.insert("Item") }
        #expect(
            result.report.violations.map(\.description) == [
                "Item.owner: 1 object are left without a destination, but the relationship is required (z102)"
            ])
    }

    @Test func hierarchyChangesAreInferred() throws {
        let v1 = try Self.schema(
            "v1", [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string), Attribute(name: "body", type: .string)])])
        let v2 = try Self.schema(
            "v2",
            [
                Entity(name: "Base", isAbstract: true, attributes: [Attribute(name: "title", type: .string)]),
                Entity(name: "Note", parent: "Base", attributes: [Attribute(name: "body", type: .string)]),
            ])
        let (result, plan) = try Self.migrate(v1, to: v2) { context in
            let note = try context.insert("Note")
            try context.setValue(.string("T"), forKey: "title", of: note)
            try context.setValue(.string("B"), forKey: "body", of: note)
        }
        #expect(plan.isInferable)
        let graph = try #require(result.graph)
        #expect(Self.values(graph, "Note", "title") == [.string("T")])
        #expect(Self.values(graph, "Note", "body") == [.string("B")])
    }

    // MARK: Rules 13, 15, 16, 17

    @Test func multiStepRouteWhenTheDirectMappingIsNotInferable() throws {
        // v1 -> v3 directly: "n" goes from String to Integer 64 under one identifier: incompatible.
        // v1 -> v2 drops the String; v2 -> v3 adds an Integer 64 with the same name: both inferable.
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "t", type: .string), Attribute(name: "n", type: .string)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "t", type: .string)])])
        let v3 = try Self.schema(
            "v3",
            [
                Self.item([
                    Attribute(name: "t", type: .string),
                    Attribute(name: "n", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                ])
            ])
        let route = MigrationRoute.find(from: v1, to: v3, through: [v3, v1, v2])
        #expect(!route.direct.isInferable)
        #expect(route.path == ["v1", "v2", "v3"])
        let context = EditingContext(schema: v1)
        let item = try context.insert("Item")
        try context.setValue(.string("keep"), forKey: "t", of: item)
        try context.setValue(.string("drop"), forKey: "n", of: item)
        var phases: [MigrationProgress] = []
        let result = try route.run(context.graph, progress: { phases.append($0) })
        let graph = try #require(result.graph)
        #expect(Self.values(graph, "Item", "t") == [.string("keep")])
        #expect(Self.values(graph, "Item", "n") == [.integer(0)])
        #expect(result.report.droppedValues == ["Item.n": 1])
        #expect(Set(phases.map(\.step)) == [1, 2] && phases.allSatisfy { $0.steps == 2 })
        let none = MigrationRoute.find(from: v1, to: v3, through: [v3])
        #expect(!none.isPossible)
        #expect(throws: EngineError.self) { try none.run(context.graph) }
    }

    @Test func everyBlockerIsReportedAtOnce() throws {
        let v1 = try Self.schema(
            "v1",
            [
                Self.item([
                    Attribute(name: "a", type: .string), Attribute(name: "b", type: .date),
                    Attribute(name: "c", type: .string),
                ]), Self.people,
            ])
        let v2 = try Self.schema(
            "v2",
            [
                Self.item(
                    [Attribute(name: "a", type: .integer16), Attribute(name: "b", type: .string)],
                    [Relationship(name: "c", destination: "Person")]), Self.people,
            ])
        let plan = MigrationPlan.infer(from: v1, to: v2)
        #expect(plan.blockers.map(\.code) == [.incompatibleTypes, .incompatibleTypes, .kindChanged])
        #expect(plan.blockers.allSatisfy { !$0.hint.isEmpty && $0.entity == "Item" && $0.property != nil })
    }

    @Test func cancellationStopsAndLeavesTheSourceAlone() throws {
        let v1 = try Self.schema("v1", [Self.item([Attribute(name: "a", type: .string)])])
        let v2 = try Self.schema("v2", [Self.item([Attribute(name: "a", type: .string), Attribute(name: "b", type: .string)])])
        let context = EditingContext(schema: v1)
        try context.insert("Item")
        let error = #expect(throws: EngineError.self) {
            try Migrator(plan: MigrationPlan.infer(from: v1, to: v2)).run(context.graph, isCancelled: { true })
        }
        #expect(error?.code == .cancelled)
        #expect(context.graph.count(ofEntity: 0) == 1)
    }

    @Test func migrationIsDeterministic() throws {
        let v1 = try Self.schema("v1", Self.pets(toMany: true))
        let v2 = try Self.schema("v2", Self.pets(toMany: true, ordered: true))
        let context = EditingContext(schema: v1)
        for i in 0 ..< 20 {
            let person = try context.insert("Person")
            try context.setValue(.string("p\(i)"), forKey: "name", of: person)
            for _ in 0 ..< i % 4 { try context.add(try context.insert("Pet"), toKey: "pets", of: person, at: 0) }
        }
        let plan = MigrationPlan.infer(from: v1, to: v2)
        let a = try #require(try Migrator(plan: plan).run(context.graph).graph)
        let b = try #require(try Migrator(plan: plan).run(context.graph).graph)
        for e in [EntityIndex(0), EntityIndex(1)] {
            for (x, y) in zip(a.objects(ofEntity: e), b.objects(ofEntity: e)) {
                #expect(a.objectID(of: x) == b.objectID(of: y))
                #expect(a.attributeValue(of: x, 0) == b.attributeValue(of: y, 0))
                if e == 0 {
                    #expect(a.relatedObjects(of: x, 0).map(a.objectID(of:)) == b.relatedObjects(of: y, 0).map(b.objectID(of:)))
                } else {
                    #expect(a.relatedObject(of: x, 0).map(a.objectID(of:)) == b.relatedObject(of: y, 0).map(b.objectID(of:)))
                }
            }
        }
    }
}
