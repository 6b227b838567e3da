import OutlineEngine
import OutlineKit
import OutlineStorage

/// The data a migration would drop because the target version has no place for it (migrating
/// to an older version: notes, done states and dates to version 1, tags and folding to version
/// 2): per entity, attribute and relationship that no step of the route carries over, the
/// objects, values and links of the document that would be gone.
///
/// Values equal to their attribute's default (an item not done, not collapsed) are not counted:
/// the older version loses nothing by not holding them.
public struct MigrationLoss: Sendable, Hashable {
    /// One kind of data that would be lost.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// `Item.note`, `Tag`, `Item.tags`.
        public var name: String
        /// How many values, objects or links.
        public var count: Int
        /// `value`, `object` or `link`.
        public var unit: String

        /// `Item.note: 3 values`.
        public var description: String {
            "\(name): \(DocumentInfo.grouped(count)) \(unit)\(count == 1 ? "" : "s")"
        }
    }

    /// What would be lost, entities first, then by name.
    public var entries: [Entry]

    /// Whether nothing would be lost.
    public var isEmpty: Bool { entries.isEmpty }

    /// What running `route` on `graph` (written with the route's first source version) would drop.
    ///
    /// - Complexity: O(objects × lost properties).
    public init(graph: ObjectGraph, route: MigrationRoute) {
        entries = []
        let schema = graph.schema
        for info in schema.infos {
            let objects = graph.objects(ofEntity: info.index, includingSubentities: false)
            guard !objects.isEmpty else { continue }
            guard let fate = Self.follow(entity: info.name, through: route.steps) else {
                entries.append(Entry(name: info.name, count: objects.count, unit: "object"))
                continue
            }
            for attribute in info.attributeIndices where fate.lostAttributes.contains(info[attribute].name) {
                let definition = info[attribute]
                let fallback = definition.defaultValue.flatMap { $0.converted(to: definition.type) }
                let count = objects.reduce(0) { count, object in
                    let value = graph.attributeValue(of: object, attribute)
                    return count + (value != nil && value != fallback ? 1 : 0)
                }
                if count > 0 { entries.append(Entry(name: "\(info.name).\(definition.name)", count: count, unit: "value")) }
            }
            for relationship in info.relationshipIndices where fate.lostRelationships.contains(info[relationship].name) {
                let count = objects.reduce(0) { $0 + graph.relatedObjects(of: $1, relationship).count }
                if count > 0 { entries.append(Entry(name: "\(info.name).\(info[relationship].name)", count: count, unit: "link")) }
            }
        }
        entries.sort { ($0.unit == "object" ? 0 : 1, $0.name) < ($1.unit == "object" ? 0 : 1, $1.name) }
    }

    /// Which properties of `entity` the steps drop (nil when the entity itself is dropped),
    /// following renamed entities and properties from step to step.
    private static func follow(entity: String, through steps: [MigrationPlan]) -> (lostAttributes: Set<String>, lostRelationships: Set<String>)? {
        guard let first = steps.first, let info = first.source.info(named: entity) else { return ([], []) }
        // Current name of each original property, until it is dropped.
        var attributes = Dictionary(uniqueKeysWithValues: info.attributes.map { ($0.name, $0.name) })
        var relationships = Dictionary(uniqueKeysWithValues: info.relationships.map { ($0.name, $0.name) })
        var lostAttributes: Set<String> = []
        var lostRelationships: Set<String> = []
        var current = entity
        for step in steps {
            guard let mapping = step.entities.first(where: { $0.source == current }) else { return nil }
            for (original, name) in attributes {
                if let next = mapping.attributes.first(where: { $0.source == name }) {
                    attributes[original] = next.destination
                } else {
                    attributes[original] = nil
                    lostAttributes.insert(original)
                }
            }
            for (original, name) in relationships {
                if let next = mapping.relationships.first(where: { $0.source == name }) {
                    relationships[original] = next.destination
                } else {
                    relationships[original] = nil
                    lostRelationships.insert(original)
                }
            }
            current = mapping.destination
        }
        return (lostAttributes, lostRelationships)
    }

    /// Whether some step of `route` drops an entity, attribute or relationship at all (when
    /// none does, nothing can be lost and the document need not be looked at).
    public static func canLose(_ route: MigrationRoute) -> Bool {
        route.steps.contains { step in
            !step.removedEntities.isEmpty || step.entities.contains { !$0.removedAttributes.isEmpty || !$0.removedRelationships.isEmpty }
        }
    }

    /// The error that stops a migration losing this data, listing it.
    public func refusal(file: String, target: String) -> OutlineError {
        let list = entries.map(\.description).joined(separator: "; ")
        return OutlineError(
            .migrationBlocked, file: file, at: target,
            "the version \(target) has no place for data the document holds, which would be lost: \(list)",
            hint: "Pass --allow-loss to migrate all the same (in place, the old version is kept as a backup), or leave the document at its version.")
    }
}
