import Foundation

@testable import OutlineEngine

/// Small models defined in code for engine tests.
enum TestSchemas {
    /// The nested-list example model (`Item` with order, title, children, parent).
    static func nestedList() throws -> Schema {
        try Schema(
            name: "Nested",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                        Attribute(name: "title", type: .string),
                    ],
                    relationships: [
                        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                        Relationship(name: "parent", destination: "Item", inverse: "children", minCount: 1, maxCount: 1, deleteRule: .nullify),
                    ])
            ])
    }

    /// People, pets, tags and passports: every relationship kind and delete rule.
    static func everything() throws -> Schema {
        try Schema(
            name: "Everything",
            entities: [
                Entity(
                    name: "Person",
                    attributes: [
                        Attribute(
                            name: "name", type: .string, isOptional: false, minValue: .integer(1), maxValue: .integer(20),
                            regularExpression: "[A-Z][a-z]*"),
                        Attribute(name: "age", type: .integer16, minValue: .integer(0), maxValue: .integer(150)),
                        Attribute(name: "scratch", type: .undefined, isTransient: true),
                    ],
                    relationships: [
                        Relationship(name: "pets", destination: "Pet", inverse: "owner", isToMany: true, deleteRule: .cascade),
                        Relationship(name: "tags", destination: "Tag", inverse: "people", isToMany: true, deleteRule: .nullify),
                        Relationship(name: "passport", destination: "Passport", inverse: "holder", deleteRule: .deny),
                        Relationship(name: "friends", destination: "Person", inverse: "friends", isToMany: true),
                        Relationship(name: "bookmark", destination: "Tag", deleteRule: .noAction),
                    ]),
                Entity(
                    name: "Pet", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(name: "owner", destination: "Person", inverse: "pets", isOptional: false)
                    ]),
                Entity(
                    name: "Tag", attributes: [Attribute(name: "name", type: .string, isOptional: false)],
                    relationships: [
                        Relationship(name: "people", destination: "Person", inverse: "tags", isToMany: true, isOrdered: true)
                    ], uniquenessConstraints: [["name"]]),
                Entity(
                    name: "Passport", attributes: [Attribute(name: "number", type: .string)],
                    relationships: [
                        Relationship(name: "holder", destination: "Person", inverse: "passport", deleteRule: .nullify)
                    ]),
            ])
    }
}
