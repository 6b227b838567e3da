import Foundation
import OutlineEngine
import OutlineTestSupport

@testable import OutlineStorage

/// Fixtures and schemas of the XML store tests.
enum XMLFixture {
    /// The package's `Fixtures/XML/` folder.
    static let folder = PackagePaths.fixture("XML")

    static func url(_ name: String) -> URL { folder.appending(path: name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// Reads fixture `name` with `schema` (derived from the file when nil).
    static func read(_ name: String, schema: Schema?) throws -> (graph: ObjectGraph, metadata: StoreMetadata) {
        try XMLStore.read(data(name), schema: schema, file: name)
    }

    /// The v1 outline model (`Item`: order, title, children, parent), read from `Fixtures/Models`.
    static func nestedListSchema() throws -> Schema {
        let url = folder.deletingLastPathComponent().appending(path: "Models").appending(path: "NestedTodoList.xcdatamodeld")
        return try ModelReader.read(at: url).current
    }
}

extension ObjectGraph {
    /// The live object with id `zN`.
    func object(_ id: UInt64) -> ManagedObject? { object(with: ObjectID(id)) }

    /// The value of the attribute called `name` of `object`.
    func value(_ object: ManagedObject, _ name: String) -> Value? {
        guard let index = schema.infos[object.entity].attributeIndex(named: name) else { return nil }
        return attributeValue(of: object, index)
    }

    /// The ids of the to-many relationship called `name` of `object`, in stored order.
    func ids(_ object: ManagedObject, _ name: String) -> [UInt64] {
        guard let index = schema.infos[object.entity].relationshipIndex(named: name) else { return [] }
        return relatedObjects(of: object, index).map { objectID(of: $0).rawValue }
    }

    /// The id of the to-one relationship called `name` of `object`.
    func id(_ object: ManagedObject, _ name: String) -> UInt64? {
        guard let index = schema.infos[object.entity].relationshipIndex(named: name) else { return nil }
        return relatedObject(of: object, index).map { objectID(of: $0).rawValue }
    }
}

extension XMLFixture {
    /// Every attribute type, an abstract parent with two subentities, ordered, to-one,
    /// self-referential and self-inverse relationships, and transient attributes.
    static func allTypesSchema() throws -> Schema {
        try Schema(
            name: "AllTypes",
            entities: [
                Entity(
                    name: "Base", isAbstract: true, attributes: [Attribute(name: "created", type: .date)],
                    relationships: [Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true)]),
                Entity(
                    name: "Record", parent: "Base",
                    attributes: [
                        Attribute(name: "small", type: .integer16), Attribute(name: "medium", type: .integer32),
                        Attribute(name: "large", type: .integer64), Attribute(name: "flag", type: .boolean),
                        Attribute(name: "ratio", type: .float), Attribute(name: "amount", type: .double),
                        Attribute(name: "price", type: .decimal), Attribute(name: "when", type: .date),
                        Attribute(name: "blob", type: .binary), Attribute(name: "name", type: .string),
                        Attribute(name: "ident", type: .uuid), Attribute(name: "link", type: .uri),
                        Attribute(name: "payload", type: .transformable),
                        Attribute(name: "scratch", type: .undefined, isTransient: true),
                        Attribute(name: "cache", type: .string, isTransient: true),
                    ],
                    relationships: [
                        Relationship(name: "owner", destination: "Person", inverse: "records"),
                        Relationship(name: "next", destination: "Record", inverse: "previous"),
                        Relationship(name: "previous", destination: "Record", inverse: "next"),
                        Relationship(name: "related", destination: "Record", inverse: "related", isToMany: true),
                    ]),
                Entity(name: "Note", parent: "Base", attributes: [Attribute(name: "text", type: .string)]),
                Entity(
                    name: "Person", attributes: [Attribute(name: "fullName", type: .string)],
                    relationships: [
                        Relationship(name: "records", destination: "Record", inverse: "owner", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Tag", attributes: [Attribute(name: "label", type: .string)],
                    relationships: [
                        Relationship(name: "items", destination: "Base", inverse: "tags", isToMany: true, isOrdered: true)
                    ]),
            ])
    }
}

extension XMLFixture {
    /// The model of `PrologPlain.xml`: vehicles and their pictures.
    static func garageSchema() throws -> Schema {
        try Schema(
            name: "Garage",
            entities: [
                Entity(
                    name: "Picture", attributes: [Attribute(name: "name", type: .string), Attribute(name: "sequence", type: .integer32)],
                    relationships: [Relationship(name: "vehicle", destination: "Vehicle", inverse: "pictures")]),
                Entity(
                    name: "Vehicle", attributes: [Attribute(name: "make", type: .string), Attribute(name: "year", type: .integer32)],
                    relationships: [
                        Relationship(
                            name: "pictures", destination: "Picture", inverse: "vehicle", isToMany: true,
                            deleteRule: .cascade)
                    ]),
            ])
    }

    /// The bytes of `data` as text, for comparisons that print readable differences.
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
