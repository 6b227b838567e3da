import Foundation
import OutlineEngine
import Testing

/// Data-dependent risks: listed by inference apart from blockers, and each one named by the
/// data violations of a run that hits it.
@Suite struct MigrationRiskTests {
    static let v1 = try! Schema(
        name: "v1",
        entities: [
            Entity(
                name: "Item",
                attributes: [
                    Attribute(name: "title", type: .string),
                    Attribute(name: "count", type: .integer64),
                    Attribute(name: "note", type: .string),
                ],
                relationships: [
                    Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                    Relationship(name: "box", destination: "Box", inverse: "items"),
                ]),
            Entity(name: "Tag", relationships: [Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true)]),
            Entity(name: "Box", relationships: [Relationship(name: "items", destination: "Item", inverse: "box", isToMany: true)]),
        ])

    /// `title` required without default, `code` new and required, `count` narrowed, `tags`
    /// to-one, `box` required; `note` required but with a default (no risk).
    static let v2 = try! Schema(
        name: "v2",
        entities: [
            Entity(
                name: "Item",
                attributes: [
                    Attribute(name: "title", type: .string, isOptional: false),
                    Attribute(name: "code", type: .string, isOptional: false),
                    Attribute(name: "count", type: .integer16),
                    Attribute(name: "note", type: .string, isOptional: false, defaultValue: .string("")),
                ],
                relationships: [
                    Relationship(name: "tags", destination: "Tag", inverse: "items"),
                    Relationship(name: "box", destination: "Box", inverse: "items", isOptional: false),
                ]),
            Entity(name: "Tag", relationships: [Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true)]),
            Entity(name: "Box", relationships: [Relationship(name: "items", destination: "Item", inverse: "box", isToMany: true)]),
        ])

    @Test func everyRiskKindIsListedWithItsFormsAndWhatFails() {
        let plan = MigrationPlan.infer(from: Self.v1, to: Self.v2, options: MigrationOptions(allowsToManyToToOne: true))
        #expect(plan.isInferable)
        #expect(
            plan.risks.map(\.description) == [
                "Item.title: optional String -> required String without a default: fails for every object whose value is nil, \(MigrationRisk.atMigration)",
                "Item.code: absent -> required String without a default: fails for every object, if any exists, \(MigrationRisk.atMigration)",
                "Item.count: Integer 64 -> Integer 16: fails for every object whose value does not fit Integer 16 exactly, \(MigrationRisk.atMigration)",
                "Item.tags: to-many -> to-one: fails for every object with more than one destination, \(MigrationRisk.atMigration)",
                "Item.box: optional to-one -> required to-one: fails for every object left without a destination, \(MigrationRisk.atMigration)",
            ])
        #expect(plan.risks.map(\.kind) == [.optionalToRequired, .newRequiredAttribute, .checkedNarrowing, .toManyToToOne, .requiredRelationship])
    }

    @Test func optionsThatChangeWhatFailsChangeTheRisks() {
        let strict = MigrationPlan.infer(from: Self.v1, to: Self.v2)
        #expect(!strict.risks.contains { $0.kind == .toManyToToOne }, "without the option it is a blocker")
        #expect(strict.blockers.map(\.code) == [.toManyToToOne])
        let lossy = MigrationPlan.infer(
            from: Self.v1, to: Self.v2, options: MigrationOptions(allowsLossyConversions: true, allowsToManyToToOne: true))
        #expect(!lossy.risks.contains { $0.kind == .checkedNarrowing }, "unchecked narrowing truncates instead of failing")
        let same = MigrationPlan.infer(from: Self.v2, to: Self.v2)
        #expect(same.risks.isEmpty)
    }

    @Test func aRunNamesTheObjectsOfEachRisk() throws {
        let context = EditingContext(schema: Self.v1)
        let item = try context.insert("Item")
        let tag = try context.insert("Tag")
        try context.setValue(.integer(70_000), forKey: "count", of: item)
        try context.add(tag, toKey: "tags", of: item)
        let plan = MigrationPlan.infer(from: Self.v1, to: Self.v2, options: MigrationOptions(allowsToManyToToOne: true))
        let result = try Migrator(plan: plan).run(context.graph)
        #expect(result.graph == nil)
        let failed = Set(result.report.violations.map { "\($0.entity).\($0.property)" })
        #expect(failed == ["Item.title", "Item.code", "Item.count", "Item.box"])
        #expect(Set(plan.risks.map { "\($0.entity).\($0.property)" }).isSuperset(of: failed))
    }
}
