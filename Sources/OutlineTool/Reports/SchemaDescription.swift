import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// `outline schema show`: one version of an Xcode model with its entities, attributes,
/// relationships and version hashes (base64, as stores record them).
public struct SchemaDescription: Sendable {
    /// The whole model, for its name and list of versions.
    public var model: ModelBundle
    /// The version described.
    public var schema: Schema

    /// The version called `versionName` of `model` (its current version when nil).
    ///
    /// - Throws: ``OutlineError`` `noSuchVersion` listing the versions.
    public init(model: ModelBundle, versionName: String? = nil, file: String? = nil) throws {
        self.model = model
        schema = try Self.version(versionName, of: model, file: file)
    }

    /// The version called `name` of `model`, its current version when nil.
    ///
    /// - Throws: ``OutlineError`` `noSuchVersion` listing the versions.
    public static func version(_ name: String?, of model: ModelBundle, file: String? = nil) throws -> Schema {
        guard let name else { return try model.current }
        guard let schema = model.version(named: name) else {
            throw OutlineError(
                .noSuchVersion, file: file, "there is no version called \"\(name)\"",
                hint: "Versions are: \(model.versions.map(\.name).joined(separator: ", ")).")
        }
        return schema
    }

    private func hash(_ data: Data) -> String { data.base64EncodedString() }

    private func flags(_ attribute: Attribute) -> [String] {
        var flags = [attribute.isOptional ? "optional" : "required"]
        if attribute.isTransient { flags.append("transient") }
        if let value = attribute.defaultValue { flags.append("default \(value.displayString)") }
        if let min = attribute.minValue { flags.append("min \(min.displayString)") }
        if let max = attribute.maxValue { flags.append("max \(max.displayString)") }
        if let pattern = attribute.regularExpression, !pattern.isEmpty { flags.append("matches \(pattern)") }
        if attribute.allowsExternalBinaryDataStorage { flags.append("external storage") }
        if let id = attribute.renamingIdentifier, id != attribute.name { flags.append("renaming identifier \(id)") }
        return flags
    }

    private func flags(_ relationship: Relationship) -> [String] {
        var flags = [relationship.isOptional ? "optional" : "required"]
        if relationship.isTransient { flags.append("transient") }
        if relationship.isOrdered { flags.append("ordered") }
        if relationship.minCount > 0 { flags.append("min \(relationship.minCount)") }
        if relationship.isToMany && relationship.maxCount > 0 { flags.append("max \(relationship.maxCount)") }
        flags.append("delete rule \(relationship.deleteRule.rawValue)")
        if let id = relationship.renamingIdentifier, id != relationship.name { flags.append("renaming identifier \(id)") }
        return flags
    }

    /// The version as indented text: the model and its versions, then each entity with its
    /// hash, attributes (type, flags, hash) and relationships (destination, inverse, flags, hash).
    public func renderText() -> String {
        var out = "Model \(model.name): \(model.versions.count) \(model.versions.count == 1 ? "version" : "versions") ("
        out += model.versions.map { $0.name == model.currentVersionName ? "\($0.name) (current)" : $0.name }.joined(separator: ", ")
        out += (model.currentVersionName == nil ? "; none named current" : "") + ")\n"
        out += "Version \(schema.name)" + (schema.versionIdentifier.isEmpty ? "" : " (identifier \(schema.versionIdentifier))") + "\n"
        out += "Version hash: \(hash(schema.versionHash))\n"
        for info in schema.infos {
            let entity = info.entity
            out += "\nEntity \(entity.name)"
            if let parent = entity.parent { out += " : \(parent)" }
            if entity.isAbstract { out += " (abstract)" }
            out += "\n  hash \(hash(schema.versionHash(ofEntity: info.index)))\n"
            let propertyHashes = schema.propertyVersionHashes(ofEntity: info.index)
            let inheritedAttributes = info.attributes.count - entity.attributes.count
            let inheritedRelationships = info.relationships.count - entity.relationships.count
            for (index, attribute) in info.attributes.enumerated() {
                out += "  \(attribute.name): \(attribute.type.modelName), \(flags(attribute).joined(separator: ", "))"
                if index < inheritedAttributes { out += ", inherited" }
                out += "\n    hash \(propertyHashes[attribute.name].map(hash) ?? "none")\n"
            }
            for (index, relationship) in info.relationships.enumerated() {
                out += "  \(relationship.name): \(relationship.isToMany ? "to-many" : "to-one") \(relationship.destination)"
                out += relationship.inverse.map { ", inverse \($0)" } ?? ", no inverse"
                out += ", \(flags(relationship).joined(separator: ", "))"
                if index < inheritedRelationships { out += ", inherited" }
                out += "\n    hash \(propertyHashes[relationship.name].map(hash) ?? "none")\n"
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                out += "  unique: \(constraint.joined(separator: ", "))\n"
            }
        }
        return out
    }

    /// The version as JSON: `{"model", "versions", "currentVersion", "version",
    /// "versionIdentifier", "versionHash", "entities": [{"name", "parent", "abstract", "hash",
    /// "attributes": [...], "relationships": [...], "uniquenessConstraints"}]}`.
    public func renderJSON() -> String {
        let entities: [JSONValue] = schema.infos.map { info in
            let entity = info.entity
            let hashes = schema.propertyVersionHashes(ofEntity: info.index)
            let inheritedAttributes = info.attributes.count - entity.attributes.count
            let inheritedRelationships = info.relationships.count - entity.relationships.count
            return .object([
                ("name", .string(entity.name)),
                ("parent", .string(entity.parent)),
                ("abstract", .bool(entity.isAbstract)),
                ("hash", .string(hash(schema.versionHash(ofEntity: info.index)))),
                (
                    "attributes",
                    .array(
                        info.attributes.enumerated().map { index, attribute in
                            .object([
                                ("name", .string(attribute.name)),
                                ("type", .string(attribute.type.modelName)),
                                ("optional", .bool(attribute.isOptional)),
                                ("transient", .bool(attribute.isTransient)),
                                ("default", .string(attribute.defaultValue?.displayString)),
                                ("minValue", .string(attribute.minValue?.displayString)),
                                ("maxValue", .string(attribute.maxValue?.displayString)),
                                ("renamingIdentifier", .string(attribute.renamingIdentifier)),
                                ("inherited", .bool(index < inheritedAttributes)),
                                ("hash", .string(hashes[attribute.name].map(hash))),
                            ])
                        })
                ),
                (
                    "relationships",
                    .array(
                        info.relationships.enumerated().map { index, relationship in
                            .object([
                                ("name", .string(relationship.name)),
                                ("destination", .string(relationship.destination)),
                                ("inverse", .string(relationship.inverse)),
                                ("toMany", .bool(relationship.isToMany)),
                                ("ordered", .bool(relationship.isOrdered)),
                                ("optional", .bool(relationship.isOptional)),
                                ("transient", .bool(relationship.isTransient)),
                                ("minCount", .int(relationship.minCount)),
                                ("maxCount", .int(relationship.maxCount)),
                                ("deleteRule", .string(relationship.deleteRule.rawValue)),
                                ("renamingIdentifier", .string(relationship.renamingIdentifier)),
                                ("inherited", .bool(index < inheritedRelationships)),
                                ("hash", .string(hashes[relationship.name].map(hash))),
                            ])
                        })
                ),
                ("uniquenessConstraints", .array(entity.uniquenessConstraints.map(JSONValue.strings))),
            ])
        }
        return JSONValue.object([
            ("model", .string(model.name)),
            ("versions", .strings(model.versions.map(\.name))),
            ("currentVersion", .string(model.currentVersionName)),
            ("version", .string(schema.name)),
            ("versionIdentifier", .string(schema.versionIdentifier)),
            ("versionHash", .string(hash(schema.versionHash))),
            ("entities", .array(entities)),
        ]).rendered()
    }
}
