import Foundation
import OutlineEngine

/// Reads one Xcode model `contents` document into a ``Schema``, remembering the line of every
/// entity and property so that consistency errors found by the engine point into the file.
struct ModelContentsReader {
    /// The file name used in error messages.
    let file: String
    /// Line and element kind of each model element, by engine location (`Entity`, `Entity.property`).
    private(set) var elements: [String: (kind: String, line: Int)] = [:]
    /// Values in odd but accepted forms, one warning each.
    private(set) var warnings: [InterchangeWarning] = []

    init(file: String) { self.file = file }

    /// Parses `data` and builds the schema called `name`.
    mutating func read(_ data: Data, name: String) throws -> Schema {
        if data.starts(with: Array("bplist".utf8)) {
            throw ModelReader.xcode3Error(file: file)
        }
        let root = try ModelXMLElement.parse(data, file: file)
        guard root.name == "model" else {
            throw StorageError(
                .malformedXML, file: file, at: "line \(root.line)",
                "the root element is <\(root.name)>, not <model>",
                hint: "This is not the contents file of an Xcode data model; check the path.")
        }
        var entities: [Entity] = []
        for (index, element) in root.children(named: "entity").enumerated() {
            entities.append(try readEntity(element, number: index + 1))
        }
        do {
            return try Schema(
                name: name, versionIdentifier: root["userDefinedModelVersionIdentifier"] ?? "",
                entities: entities)
        } catch let error as EngineError {
            throw locate(error)
        }
    }

    // MARK: Elements

    private mutating func readEntity(_ element: ModelXMLElement, number: Int) throws -> Entity {
        let name = element["name"] ?? ""
        record(name.isEmpty ? "entity #\(number)" : name, kind: "entity", line: element.line)
        var entity = Entity(
            name: name,
            parent: nonEmpty(element["parentEntity"]),
            isAbstract: element.flag("isAbstract"),
            renamingIdentifier: nonEmpty(element["elementID"]),
            versionHashModifier: nonEmpty(element["versionHashModifier"]),
            className: nonEmpty(element["representedClassName"]),
            userInfo: userInfo(of: element))
        for attribute in element.children(named: "attribute") {
            entity.attributes.append(try readAttribute(attribute, entity: name))
        }
        for relationship in element.children(named: "relationship") {
            entity.relationships.append(try readRelationship(relationship, entity: name))
        }
        for list in element.children(named: "uniquenessConstraints") {
            for constraint in list.children(named: "uniquenessConstraint") {
                let names = constraint.children(named: "constraint").compactMap { nonEmpty($0["value"]) }
                if !names.isEmpty { entity.uniquenessConstraints.append(names) }
            }
        }
        return entity
    }

    private mutating func readAttribute(_ element: ModelXMLElement, entity: String) throws -> Attribute {
        let name = element["name"] ?? ""
        let location = "\(entity).\(name)"
        record(location, kind: "attribute", line: element.line)
        let type: AttributeType
        if let spelling = element["attributeType"] {
            guard let known = AttributeType(modelName: spelling) else {
                throw StorageError(
                    .invalidModel, file: file, at: "line \(element.line)",
                    "attribute \(location): unknown attributeType \"\(spelling)\"",
                    hint: "Use one of " + AttributeType.allCases.map(\.modelName).joined(separator: ", ") + ".")
            }
            type = known
        } else {
            type = .undefined
        }
        var attribute = Attribute(
            name: name, type: type,
            isOptional: element.flag("optional"),
            isTransient: element.flag("transient"),
            regularExpression: nonEmpty(element["regularExpressionString"]),
            allowsExternalBinaryDataStorage: element.flag("allowsExternalBinaryDataStorage"),
            preservesValueInHistoryOnDeletion: element.flag("preserveAfterDeletion"),
            renamingIdentifier: nonEmpty(element["elementID"]),
            versionHashModifier: nonEmpty(element["versionHashModifier"]),
            valueTransformerName: nonEmpty(element["valueTransformerName"]),
            userInfo: userInfo(of: element))
        let isDate = type == .date
        attribute.defaultValue = try value(
            element, isDate ? "defaultDateTimeInterval" : "defaultValueString", as: isDate ? .date : type,
            what: "default value", location: location)
        let boundType = ModelValues.boundType(of: type)
        attribute.minValue = try value(
            element, isDate ? "minDateTimeInterval" : "minValueString", as: boundType,
            what: "minimum", location: location)
        attribute.maxValue = try value(
            element, isDate ? "maxDateTimeInterval" : "maxValueString", as: boundType,
            what: "maximum", location: location)
        return attribute
    }

    private mutating func readRelationship(_ element: ModelXMLElement, entity: String) throws -> Relationship {
        let name = element["name"] ?? ""
        let location = "\(entity).\(name)"
        record(location, kind: "relationship", line: element.line)
        guard let destination = nonEmpty(element["destinationEntity"]) else {
            throw StorageError(
                .invalidModel, file: file, at: "line \(element.line)",
                "relationship \(location): no destinationEntity",
                hint: "Choose the destination entity of the relationship in Xcode's model editor.")
        }
        let deleteRule: DeleteRule
        if let spelling = element["deletionRule"] {
            guard let rule = DeleteRule(rawValue: spelling) else {
                throw StorageError(
                    .invalidModel, file: file, at: "line \(element.line)",
                    "relationship \(location): unknown deletionRule \"\(spelling)\"",
                    hint: "Use Nullify, Cascade, Deny or No Action.")
            }
            deleteRule = rule
        } else {
            deleteRule = .nullify
        }
        return Relationship(
            name: name, destination: destination,
            inverse: nonEmpty(element["inverseName"]),
            isToMany: element.flag("toMany"),
            isOrdered: element.flag("ordered"),
            isOptional: element.flag("optional"),
            isTransient: element.flag("transient"),
            minCount: try count(element, "minCount", location: location),
            maxCount: try count(element, "maxCount", location: location),
            deleteRule: deleteRule,
            renamingIdentifier: nonEmpty(element["elementID"]),
            versionHashModifier: nonEmpty(element["versionHashModifier"]),
            userInfo: userInfo(of: element))
    }

    // MARK: Values

    /// The value of XML attribute `key` read for `type` (see ``ModelValues/read(_:as:)``); `nil`
    /// when absent, empty for a non-string type, or when `type` has no textual form (such as
    /// Binary defaults, which Xcode never writes). Odd forms are read with a warning.
    private mutating func value(
        _ element: ModelXMLElement, _ key: String, as type: AttributeType?, what: String,
        location: String
    ) throws -> Value? {
        guard let type, let text = element[key], ModelValues.hasTextForm(type) else { return nil }
        guard let reading = ModelValues.read(text, as: type) else {
            throw StorageError(
                .invalidModel, file: file, at: "line \(element.line)",
                "attribute \(location): the \(what) \"\(text)\" (\(key)) is not a valid \(type.modelName)",
                hint: ModelValues.hint(for: type, key: key))
        }
        if let oddity = reading.oddity {
            warnings.append(
                InterchangeWarning(
                    file: file, line: element.line,
                    "attribute \(location): the \(what) (\(key)) \(oddity)",
                    hint: "Write \(reading.value.map(ModelValues.format) ?? "nothing") to say the same without this warning."))
        }
        return reading.value
    }

    private func count(_ element: ModelXMLElement, _ key: String, location: String) throws -> Int? {
        guard let text = element[key] else { return nil }
        guard let count = ModelValues.count(text) else {
            throw StorageError(
                .invalidModel, file: file, at: "line \(element.line)",
                "relationship \(location): \(key) \"\(text)\" is not a whole number of 0 or more",
                hint: "Write a count such as \(key)=\"1\", or remove \(key).")
        }
        return count
    }

    private func userInfo(of element: ModelXMLElement) -> [String: String] {
        var info: [String: String] = [:]
        for list in element.children(named: "userInfo") {
            for entry in list.children(named: "entry") {
                if let key = entry["key"] { info[key] = entry["value"] ?? "" }
            }
        }
        return info
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private mutating func record(_ location: String, kind: String, line: Int) {
        elements[location] = (kind, line)
    }

    // MARK: Engine errors

    /// Maps a schema error of the engine to the line of the element it names.
    private func locate(_ error: EngineError) -> StorageError {
        let hint = "Correct the model in Xcode's model editor (or in the file) and read it again."
        var mapped = error
        mapped.details = error.details.map { detail in
            guard let colon = detail.range(of: ": ") else { return detail }
            let location = String(detail[..<colon.lowerBound])
            let message = String(detail[colon.upperBound...])
            return describe(location: location, message: message).joined(separator: ": ")
        }
        let parts = describe(location: error.location, message: error.message)
        return StorageError(
            .invalidModel, file: file, at: parts.count > 1 ? parts[0] : nil,
            parts.dropFirst(parts.count > 1 ? 1 : 0).joined(separator: ": "),
            hint: hint, underlying: mapped)
    }

    /// `["line 7", "relationship Item.owner: message"]`, or just the message without a known line.
    private func describe(location: String?, message: String) -> [String] {
        guard let location else { return [message] }
        guard let element = elements[location] else { return ["\(location): \(message)"] }
        return ["line \(element.line)", "\(element.kind) \(location): \(message)"]
    }
}
