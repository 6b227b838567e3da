import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// What `outline dump` prints: every object of a document of any model, in id order, with its
/// entity, id, stored attributes (nil shown as nil) and relationships.
///
/// The document is read as it is stored, never migrated: with a registered version of the
/// model when one matches, else with its own model (embedded, or derived from its data).
public struct DocumentDump {
    /// The document, as the user named it.
    public var file: String
    /// The objects, read as stored.
    public let store: PersistentStore
    /// How the model the objects follow is called (a version name, or what it is).
    public var modelName: String
    /// What the user should know about how the document was read, one `FILE: ...` line each.
    public var notes: [String] = []

    /// Reads the document at `path` (`-`: standard input) with `model` (its own model when it belongs to no version
    /// of the outline model and none was named).
    ///
    /// - Throws: ``OutlineStorage/StorageError`` when the file cannot be read, or its model
    ///   cannot be found.
    public static func read(path: String, model: ModelBundle) throws -> DocumentDump {
        // One open: the metadata, then the objects, from the same descriptor (a pipe works).
        let document = try StandardStreams.openDocument(path)
        let path = document.path
        let metadata = try PersistentStore.readMetadata(document)
        let versioning = try DocumentVersioning.find(
            metadata: metadata, model: model, file: path,
            allowingOwnModel: OwnModels.areAllowed(with: model))
        let store = try PersistentStore.open(document, schema: versioning?.source)
        let name = versioning?.source.name ?? OwnModels.name(of: store.schema, derived: OwnModels.isReadWithDerivedModel(store))
        var dump = DocumentDump(file: path, store: store, modelName: name)
        if let note = OwnModels.derivationNote(store, file: path) { dump.notes.append(note) }
        return dump
    }

    /// Every live object, in id order.
    ///
    /// - Complexity: O(n log n) in the objects.
    func objectsInIDOrder() -> [ManagedObject] {
        let graph = store.context.graph
        var objects: [ManagedObject] = []
        objects.reserveCapacity(graph.objectCount)
        for entity in graph.schema.entityIndices {
            objects += graph.objects(ofEntity: entity, includingSubentities: false)
        }
        let ids = objects.map { graph.objectID(of: $0).rawValue }
        return objects.indices.sorted { ids[$0] < ids[$1] }.map { objects[$0] }
    }

    // MARK: Text

    /// One block per object: `Entity zID`, then one indented `name: value` line per stored
    /// attribute and relationship. Strings are quoted, binary data shows its size and start.
    public func renderText() -> String {
        let graph = store.context.graph
        var out = ""
        for object in objectsInIDOrder() {
            let info = graph.schema.infos[object.entity]
            out += "\(info.name) \(graph.objectID(of: object))\n"
            for (index, attribute) in zip(info.attributeIndices, info.attributes) where !attribute.isTransient {
                out += "  \(attribute.name): \(Self.text(graph.attributeValue(of: object, index), type: attribute.type))\n"
            }
            for (index, relationship) in zip(info.relationshipIndices, info.relationships) where !relationship.isTransient {
                let value: String
                if relationship.isToMany {
                    value = "[" + graph.relatedObjects(of: object, index).map { graph.objectID(of: $0).description }.joined(separator: ", ") + "]"
                } else {
                    value = graph.relatedObject(of: object, index).map { graph.objectID(of: $0).description } ?? "nil"
                }
                out += "  \(relationship.name): \(value)\n"
            }
        }
        return out
    }

    static func text(_ value: Value?, type: AttributeType) -> String {
        guard let value else { return "nil" }
        switch value {
        case .string(let text):
            var json = JSONWriter()
            json.string(text)
            return json.text
        case .binary(let data):
            let base64 = data.base64EncodedString()
            let start = base64.count > 48 ? String(base64.prefix(48)) + "..." : base64
            return "<\(DocumentInfo.grouped(data.count)) \(data.count == 1 ? "byte" : "bytes")>" + (data.isEmpty ? "" : " \(start)")
        case .date(let date):
            return isoText(date)
        case .integer(let number) where type == .boolean:
            return number == 0 ? "NO" : "YES"
        default:
            return value.displayString
        }
    }

    /// ISO 8601 in UTC, with fractional seconds only when there are any.
    static func isoText(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down) == seconds
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }

    // MARK: JSON

    /// `{"file", "model", "objects": [...]}`, one object per line: `{"entity", "id",
    /// "attributes": {name: value or null}, "relationships": {name: "zID", null or ["zID", ...]}}`.
    /// Numbers are JSON numbers (non-finite ones strings), dates ISO 8601 strings, binary data
    /// base64 strings.
    public func renderJSON() -> String {
        let graph = store.context.graph
        var json = JSONWriter()
        json.raw("{")
        json.key("file")
        json.string(file)
        json.raw(", ")
        json.key("model")
        json.string(modelName)
        json.raw(", ")
        json.key("objects")
        json.raw("[")
        for (position, object) in objectsInIDOrder().enumerated() {
            let info = graph.schema.infos[object.entity]
            json.raw(position == 0 ? "\n" : ",\n")
            json.raw("{")
            json.key("entity")
            json.string(info.name)
            json.raw(", ")
            json.key("id")
            json.string(graph.objectID(of: object).description)
            json.raw(", ")
            json.key("attributes")
            json.raw("{")
            var first = true
            for (index, attribute) in zip(info.attributeIndices, info.attributes) where !attribute.isTransient {
                if !first { json.raw(", ") }
                first = false
                json.key(attribute.name)
                Self.write(graph.attributeValue(of: object, index), type: attribute.type, to: &json)
            }
            json.raw("}, ")
            json.key("relationships")
            json.raw("{")
            first = true
            for (index, relationship) in zip(info.relationshipIndices, info.relationships) where !relationship.isTransient {
                if !first { json.raw(", ") }
                first = false
                json.key(relationship.name)
                if relationship.isToMany {
                    json.raw("[")
                    for (i, target) in graph.relatedObjects(of: object, index).enumerated() {
                        if i > 0 { json.raw(", ") }
                        json.string(graph.objectID(of: target).description)
                    }
                    json.raw("]")
                } else {
                    json.string(graph.relatedObject(of: object, index).map { graph.objectID(of: $0).description })
                }
            }
            json.raw("}}")
        }
        json.raw("\n]}\n")
        return json.text
    }

    static func write(_ value: Value?, type: AttributeType, to json: inout JSONWriter) {
        guard let value else { return json.raw("null") }
        switch value {
        case .integer(let number) where type == .boolean: json.bool(number != 0)
        case .integer(let number): json.raw(String(number))
        case .double(let number) where number.isFinite:
            json.raw(number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number))
        case .double(let number): json.string(String(number))
        case .decimal(let number) where number.isNaN: json.string("NaN")
        case .decimal(let number): json.raw(number.description)
        case .string(let text): json.string(text)
        case .boolean(let flag): json.bool(flag)
        case .date(let date): json.string(isoText(date))
        case .binary(let data): json.string(data.base64EncodedString())
        case .uuid(let uuid): json.string(uuid.uuidString)
        }
    }
}
