import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport

/// Models built in code for store tests, and helpers to fill and compare graphs.
enum StoreTestSchemas {
    /// One attribute of every stored type, plus a transient one.
    static func allTypes() throws -> Schema {
        try Schema(
            name: "AllTypes", versionIdentifier: "v1",
            entities: [
                Entity(
                    name: "Sample",
                    attributes: [
                        Attribute(name: "int16", type: .integer16),
                        Attribute(name: "int32", type: .integer32),
                        Attribute(name: "int64", type: .integer64),
                        Attribute(name: "decimal", type: .decimal),
                        Attribute(name: "double", type: .double),
                        Attribute(name: "float", type: .float),
                        Attribute(name: "string", type: .string),
                        Attribute(name: "boolean", type: .boolean),
                        Attribute(name: "date", type: .date),
                        Attribute(name: "binary", type: .binary),
                        Attribute(name: "uuid", type: .uuid),
                        Attribute(name: "uri", type: .uri),
                        Attribute(name: "transformable", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData"),
                        Attribute(name: "objectID", type: .objectID),
                        Attribute(name: "scratch", type: .undefined, isTransient: true),
                    ])
            ])
    }

    /// Every relationship kind: one-to-many ordered and self-referential (children/parent),
    /// many-to-many (tags/nodes), symmetric many-to-many (friends), one-to-one (badge/owner),
    /// to-one and to-many without inverse (favorite, followers).
    static func relationships() throws -> Schema {
        try Schema(
            name: "Relationships",
            entities: [
                Entity(
                    name: "Node", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(name: "children", destination: "Node", inverse: "parent", isToMany: true, isOrdered: true, deleteRule: .cascade),
                        Relationship(name: "parent", destination: "Node", inverse: "children"),
                        Relationship(name: "friends", destination: "Node", inverse: "friends", isToMany: true),
                        Relationship(name: "tags", destination: "Tag", inverse: "nodes", isToMany: true, isOrdered: true),
                        Relationship(name: "badge", destination: "Badge", inverse: "owner"),
                        Relationship(name: "favorite", destination: "Tag"),
                        Relationship(name: "followers", destination: "Node", isToMany: true),
                    ]),
                Entity(
                    name: "Tag", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(name: "nodes", destination: "Node", inverse: "tags", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Badge", attributes: [Attribute(name: "label", type: .string)],
                    relationships: [
                        Relationship(name: "owner", destination: "Node", inverse: "badge")
                    ]),
            ])
    }

    /// An abstract parent with two concrete children, a concrete parent with a child, and a
    /// to-many relationship whose destination is the abstract entity.
    static func hierarchy() throws -> Schema {
        try Schema(
            name: "Hierarchy",
            entities: [
                Entity(
                    name: "Shape", isAbstract: true, attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(name: "group", destination: "Group", inverse: "shapes")
                    ]),
                Entity(name: "Circle", parent: "Shape", attributes: [Attribute(name: "radius", type: .double)]),
                Entity(name: "Square", parent: "Shape", attributes: [Attribute(name: "side", type: .double)]),
                Entity(name: "RoundedSquare", parent: "Square", attributes: [Attribute(name: "corner", type: .double)]),
                Entity(
                    name: "Group", attributes: [Attribute(name: "title", type: .string)],
                    relationships: [
                        Relationship(name: "shapes", destination: "Shape", inverse: "group", isToMany: true, isOrdered: true)
                    ]),
            ])
    }

    /// The nested-list model of the notes (Item: order, title, children, parent).
    static func nestedList() throws -> Schema {
        try Schema(
            name: "NestedList",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                        Attribute(name: "title", type: .string),
                    ],
                    relationships: [
                        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                        Relationship(name: "parent", destination: "Item", inverse: "children", minCount: 1, maxCount: 1),
                    ])
            ])
    }

    /// A small outline: `count` items under one root, in a few levels, with a non-ASCII title.
    static func outline(_ count: Int = 12) throws -> EditingContext {
        let context = EditingContext(schema: try nestedList())
        let root = try context.insert("Item")
        try context.setValue(.string("Groceries & more"), forKey: "title", of: root)
        var parents = [root]
        for i in 1 ..< count {
            let item = try context.insert("Item")
            try context.setValue(.integer(Int64(i % 4)), forKey: "order", of: item)
            try context.setValue(i % 5 == 0 ? nil : .string("Item \(i) – café"), forKey: "title", of: item)
            try context.add(item, toKey: "children", of: parents[(i - 1) / 3])
            parents.append(item)
        }
        return context
    }
}

/// A canonical text form of a graph for comparisons: one line per live object, by id, with
/// every stored attribute (exact bits for numbers and dates) and relationships as id lists.
func snapshot(_ graph: ObjectGraph) -> [String] {
    var lines: [(UInt64, String)] = []
    for info in graph.schema.infos {
        for object in graph.objects(ofEntity: info.index, includingSubentities: false) {
            var line = "\(graph.objectID(of: object)) \(info.name)"
            for (a, attribute) in zip(info.attributeIndices, info.attributes) where !attribute.isTransient {
                line += " \(attribute.name)=\(render(graph.attributeValue(of: object, a)))"
            }
            for (r, relationship) in zip(info.relationshipIndices, info.relationships) where !relationship.isTransient {
                let targets =
                    relationship.isToMany
                    ? graph.relatedObjects(of: object, r)
                    : graph.relatedObject(of: object, r).map { [$0] } ?? []
                line += " \(relationship.name)=[\(targets.map { graph.objectID(of: $0).description }.joined(separator: ","))]"
            }
            lines.append((graph.objectID(of: object).rawValue, line))
        }
    }
    return lines.sorted { $0.0 < $1.0 }.map(\.1)
}

private func render(_ value: Value?) -> String {
    switch value {
    case nil: "nil"
    case .double(let d)?: "double(\(d.bitPattern))"
    case .date(let d)?: "date(\(d.timeIntervalSinceReferenceDate.bitPattern))"
    case .string(let s)?: "string(\(s.debugDescription))"
    case let v?: "\(v)"
    }
}

/// A fresh temporary folder, removed by the caller through `defer`.
func makeTemporaryFolder() throws -> String {
    try TemporaryFolder.make("outline-tests").path
}

func removeFolder(_ path: String) {
    // Folders made read-only by a test must become writable again to be removed.
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    try? FileManager.default.removeItem(atPath: path)
}

/// Whether the tests run as root, for whom permissions do not stop writes.
var runningAsRoot: Bool { getuid() == 0 }
