import Foundation
@_spi(Storage) import OutlineEngine
@testable import OutlineStorage

/// Fixtures and schemas of the XML store tests.
enum XMLFixture {
    /// The package's `Fixtures/XML/` folder.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures").appending(path: "XML").standardizedFileURL

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
