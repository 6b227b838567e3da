import Foundation
import OutlineEngine

/// Writes a `Schema` as the `contents` file of an Xcode data model, laid out as Xcode lays it out.
///
/// The output is deterministic: entities and properties in declared order, flags only when
/// YES, user info entries sorted by key, 4-space indentation, no newline after `</model>`.
/// Reading it back with ``ModelReader`` gives an equal schema with equal version hashes.
/// Things a `Schema` does not hold (fetch requests, configurations, code generation
/// settings, diagram layout) are not written.
public enum ModelWriter {
    /// The tools and system versions written on the root element (Xcode 15.4 on macOS 14.5).
    public static let toolsVersion = "22758"
    /// The macOS build written as `systemVersion` on the root element.
    public static let systemVersion = "23F79"

    /// The `contents` document of `schema`.
    public static func contents(of schema: Schema) -> String {
        var text = [#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#]
        let root = tag(
            "model",
            [
                ("type", "com.apple.IDECoreDataModeler.DataModel"),
                ("documentVersion", "1.0"),
                ("lastSavedToolsVersion", toolsVersion),
                ("systemVersion", systemVersion),
                ("minimumToolsVersion", "Automatic"),
                ("sourceLanguage", "Swift"),
                ("userDefinedModelVersionIdentifier", schema.versionIdentifier),
            ])
        var body: [String] = []
        for entity in schema.entities { body += lines(of: entity) }
        text += element(root, "model", body)
        return text.joined(separator: "\n")
    }

    /// The `contents` document of `schema` as UTF-8 bytes.
    public static func data(of schema: Schema) -> Data {
        Data(contents(of: schema).utf8)
    }

    // MARK: Elements

    private static func lines(of entity: Entity) -> [String] {
        let open = tag(
            "entity",
            [
                ("name", entity.name),
                ("representedClassName", entity.className),
                ("parentEntity", entity.parent),
                ("isAbstract", yes(entity.isAbstract)),
                ("elementID", entity.renamingIdentifier),
                ("versionHashModifier", entity.versionHashModifier),
                ("syncable", "YES"),
            ])
        var body: [String] = []
        for attribute in entity.attributes { body += lines(of: attribute) }
        for relationship in entity.relationships { body += lines(of: relationship) }
        if !entity.uniquenessConstraints.isEmpty {
            var constraints: [String] = []
            for constraint in entity.uniquenessConstraints {
                let values = constraint.map { tag("constraint", [("value", $0)]) + "/>" }
                constraints += element("<uniquenessConstraint", "uniquenessConstraint", values)
            }
            body += element("<uniquenessConstraints", "uniquenessConstraints", constraints)
        }
        body += userInfo(entity.userInfo)
        return element(open, "entity", body)
    }

    private static func lines(of attribute: Attribute) -> [String] {
        let type = attribute.type
        let isDate = type == .date
        // Values of types without a text form (Binary, Transformable) cannot be written; the reader ignores them too.
        let text = { (value: Value?) in ModelValues.hasTextForm(type) ? value.map(ModelValues.format) : nil }
        let bound = { (value: Value?) in ModelValues.boundType(of: type) == nil ? nil : value.map(ModelValues.format) }
        let open = tag(
            "attribute",
            [
                ("name", attribute.name),
                ("optional", yes(attribute.isOptional)),
                ("transient", yes(attribute.isTransient)),
                ("attributeType", type == .undefined ? nil : type.modelName),
                (isDate ? "minDateTimeInterval" : "minValueString", bound(attribute.minValue)),
                (isDate ? "maxDateTimeInterval" : "maxValueString", bound(attribute.maxValue)),
                (isDate ? "defaultDateTimeInterval" : "defaultValueString", text(attribute.defaultValue)),
                ("regularExpressionString", attribute.regularExpression),
                ("allowsExternalBinaryDataStorage", yes(attribute.allowsExternalBinaryDataStorage)),
                ("valueTransformerName", attribute.valueTransformerName),
                ("usesScalarValueType", scalarFlag(type)),
                ("preserveAfterDeletion", yes(attribute.preservesValueInHistoryOnDeletion)),
                ("elementID", attribute.renamingIdentifier),
                ("versionHashModifier", attribute.versionHashModifier),
            ])
        return element(open, "attribute", userInfo(attribute.userInfo))
    }

    private static func lines(of relationship: Relationship) -> [String] {
        let toOne = !relationship.isToMany
        let open = tag(
            "relationship",
            [
                ("name", relationship.name),
                ("optional", yes(relationship.isOptional)),
                ("transient", yes(relationship.isTransient)),
                ("toMany", yes(relationship.isToMany)),
                ("minCount", relationship.minCount == 0 ? nil : String(relationship.minCount)),
                ("maxCount", toOne || relationship.maxCount != 0 ? String(relationship.maxCount) : nil),
                ("deletionRule", relationship.deleteRule.rawValue),
                ("ordered", yes(relationship.isOrdered)),
                ("destinationEntity", relationship.destination),
                ("inverseName", relationship.inverse),
                ("inverseEntity", relationship.inverse == nil ? nil : relationship.destination),
                ("elementID", relationship.renamingIdentifier),
                ("versionHashModifier", relationship.versionHashModifier),
            ])
        return element(open, "relationship", userInfo(relationship.userInfo))
    }

    private static func userInfo(_ info: [String: String]) -> [String] {
        guard !info.isEmpty else { return [] }
        let entries = info.keys.sorted().map { tag("entry", [("key", $0), ("value", info[$0])]) + "/>" }
        return element("<userInfo", "userInfo", entries)
    }

    // MARK: Text

    /// `open` (a start tag without its closing `>`) with `body` indented one level below it,
    /// or `open/>` when there is no body. Lines are relative to the element's own indentation.
    private static func element(_ open: String, _ name: String, _ body: [String]) -> [String] {
        guard !body.isEmpty else { return [open + "/>"] }
        return [open + ">"] + body.map { "    " + $0 } + ["</\(name)>"]
    }

    /// `<name a="1" b="2"` without the closing `>`; attributes with a `nil` value are left out.
    private static func tag(_ name: String, _ attributes: [(String, String?)]) -> String {
        var text = "<" + name
        for (key, value) in attributes {
            guard let value else { continue }
            text += " \(key)=\"\(escaped(value))\""
        }
        return text
    }

    private static func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }

    /// Xcode writes `usesScalarValueType` for numbers, booleans, dates and UUIDs.
    private static func scalarFlag(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "YES"
        case .date, .uuid: "NO"
        default: nil
        }
    }

    /// An attribute value with XML's special characters and line breaks escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
