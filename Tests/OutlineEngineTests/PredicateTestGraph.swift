import Foundation
import OutlineTestSupport

@testable import OutlineEngine

/// A small in-memory object graph for predicate tests, following ``PredicateTestGraph/schema``.
///
/// Items (label: text, order, done, parent, tags, other attributes):
///
///     a  "Buy milk"       1  NO   -      [work]        created t0, score 1.5, price 2.50, uid U1
///     b  "Crème Brûlée"   2  YES  a      [home, work]  created t1, score 2.0
///     c  "café"           3  NO   a      []            created t2
///     d  nil             10  NO   b      []
///     e  "Write REPORT"  -5  YES  -      [home]        score -0.5
///     t  "Task one"       4  NO   a      [untitled]    Task with priority 2
///
/// Children in order: a → [b, c, t], b → [d]. Tags: work "work", home "Home", untitled nil.
struct PredicateTestGraph: ObjectGraphReading {
    let schema: Schema
    private(set) var attributes: [ManagedObject: [AttributeIndex: Value]] = [:]
    private(set) var toOne: [ManagedObject: [RelationshipIndex: ManagedObject]] = [:]
    private(set) var toMany: [ManagedObject: [RelationshipIndex: [ManagedObject]]] = [:]
    private(set) var labels: [ManagedObject: String] = [:]
    private(set) var objectsByLabel: [String: ManagedObject] = [:]
    private var rowCount: [EntityIndex: Int] = [:]

    static let item: EntityIndex = 0
    static let tag: EntityIndex = 1
    static let task: EntityIndex = 2

    static func makeSchema() throws -> Schema {
        try Schema(entities: [
            Entity(
                name: "Item",
                attributes: [
                    Attribute(name: "text", type: .string),
                    Attribute(name: "order", type: .integer64),
                    Attribute(name: "done", type: .boolean),
                    Attribute(name: "created", type: .date),
                    Attribute(name: "score", type: .double),
                    Attribute(name: "price", type: .decimal),
                    Attribute(name: "uid", type: .uuid),
                    Attribute(name: "blob", type: .binary),
                ],
                relationships: [
                    Relationship(name: "parent", destination: "Item", inverse: "children"),
                    Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, isOrdered: true),
                    Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                ]),
            Entity(
                name: "Tag", attributes: [Attribute(name: "name", type: .string)],
                relationships: [
                    Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true)
                ]),
            Entity(name: "Task", parent: "Item", attributes: [Attribute(name: "priority", type: .integer16)]),
        ])
    }

    static let t0 = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let t1 = Date(timeIntervalSinceReferenceDate: 700_086_400)
    static let t2 = Date(timeIntervalSinceReferenceDate: 700_172_800)
    static let uid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// The graph described above.
    static func make() throws -> PredicateTestGraph {
        var g = PredicateTestGraph(schema: try makeSchema())
        let work = g.add("work", entity: tag, ["name": .string("work")])
        let home = g.add("home", entity: tag, ["name": .string("Home")])
        let untitled = g.add("untitled", entity: tag, [:])
        let a = g.add(
            "a", entity: item,
            [
                "text": .string("Buy milk"), "order": .integer(1), "done": .boolean(false),
                "created": .date(t0), "score": .double(1.5), "price": .decimal(Decimal(string: "2.50")!),
                "uid": .uuid(uid), "blob": .binary(Data([1, 2, 3])),
            ])
        let b = g.add(
            "b", entity: item,
            [
                "text": .string("Crème Brûlée"), "order": .integer(2), "done": .boolean(true),
                "created": .date(t1), "score": .double(2.0),
            ])
        let c = g.add("c", entity: item, ["text": .string("café"), "order": .integer(3), "done": .boolean(false), "created": .date(t2)])
        let d = g.add("d", entity: item, ["order": .integer(10), "done": .boolean(false)])
        let e = g.add("e", entity: item, ["text": .string("Write REPORT"), "order": .integer(-5), "done": .boolean(true), "score": .double(-0.5)])
        let t = g.add("t", entity: task, ["text": .string("Task one"), "order": .integer(4), "done": .boolean(false), "priority": .integer(2)])
        g.link(parent: a, children: [b, c, t])
        g.link(parent: b, children: [d])
        g.tag(a, [work])
        g.tag(b, [home, work])
        g.tag(e, [home])
        g.tag(t, [untitled])
        return g
    }

    init(schema: Schema) {
        self.schema = schema
    }

    /// All Item objects (including the Task), in label order.
    var items: [ManagedObject] {
        labels.filter { schema.infos[$0.key.entity].isKind(of: Self.item) }.map(\.key).sorted { labels[$0]! < labels[$1]! }
    }

    subscript(label: String) -> ManagedObject { objectsByLabel[label]! }

    func label(_ object: ManagedObject) -> String { labels[object] ?? "?" }

    mutating func add(_ label: String, entity: EntityIndex, _ values: [String: Value]) -> ManagedObject {
        let row = rowCount[entity, default: 0]
        rowCount[entity] = row + 1
        let object = ManagedObject(entity: entity, row: row)
        let info = schema.infos[entity]
        for (name, value) in values { attributes[object, default: [:]][info.attributeIndex(named: name)!] = value }
        labels[object] = label
        objectsByLabel[label] = object
        return object
    }

    mutating func link(parent: ManagedObject, children: [ManagedObject]) {
        let info = schema.infos[Self.item]
        let parentIndex = info.relationshipIndex(named: "parent")!
        let childrenIndex = info.relationshipIndex(named: "children")!
        toMany[parent, default: [:]][childrenIndex] = children
        for child in children { toOne[child, default: [:]][parentIndex] = parent }
    }

    mutating func tag(_ object: ManagedObject, _ tags: [ManagedObject]) {
        let tagsIndex = schema.infos[Self.item].relationshipIndex(named: "tags")!
        let itemsIndex = schema.infos[Self.tag].relationshipIndex(named: "items")!
        toMany[object, default: [:]][tagsIndex] = tags
        for tag in tags { toMany[tag, default: [:]][itemsIndex, default: []].append(object) }
    }

    func attributeValue(of object: ManagedObject, _ attribute: AttributeIndex) -> Value? { attributes[object]?[attribute] }
    func relatedObject(of object: ManagedObject, _ relationship: RelationshipIndex) -> ManagedObject? { toOne[object]?[relationship] }
    func relatedObjects(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject] { toMany[object]?[relationship] ?? [] }

    /// The labels of the items that satisfy `format`, sorted.
    func matches(_ format: String, _ arguments: [FetchPredicate.Argument] = [], entity: EntityIndex = item) throws -> [String] {
        let bound = try FetchPredicate(format: format, arguments: arguments).bound(to: schema, entity: entity)
        return try bound.filter(items.filter { schema.infos[$0.entity].isKind(of: entity) }, in: self).map(label).sorted()
    }
}

extension EngineError {
    /// `location: message` without the hint, as tests compare it.
    var locatedMessage: String { (location.map { "\($0): " } ?? "") + message }
}
