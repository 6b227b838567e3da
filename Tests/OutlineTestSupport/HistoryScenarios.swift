import Foundation
import OutlineEngine

/// Edits of every kind of primitive change, on a small graph with every relationship kind and
/// value type, for the tests of undo histories kept in documents (engine, storage, tool).
public enum HistoryScenarios {
    /// Items in a tree (cascade and nullify), tags (many-to-many) and badges (one-to-one),
    /// attributes of every type the history encodes.
    public static func schema() throws -> Schema {
        try Schema(
            name: "Journal",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                        Attribute(name: "title", type: .string),
                        Attribute(name: "note", type: .string),
                        Attribute(name: "done", type: .boolean, isOptional: false, defaultValue: .boolean(false)),
                        Attribute(name: "level", type: .integer16),
                        Attribute(name: "score", type: .double),
                        Attribute(name: "weight", type: .float),
                        Attribute(name: "price", type: .decimal),
                        Attribute(name: "created", type: .date),
                        Attribute(name: "blob", type: .binary),
                        Attribute(name: "uid", type: .uuid),
                        Attribute(name: "link", type: .uri),
                        Attribute(name: "scratch", type: .string, isTransient: true),
                    ],
                    relationships: [
                        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
                        Relationship(name: "parent", destination: "Item", inverse: "children", deleteRule: .nullify),
                        Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true, deleteRule: .nullify),
                        Relationship(name: "badge", destination: "Badge", inverse: "holder", deleteRule: .nullify),
                    ]),
                Entity(
                    name: "Tag", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Badge", attributes: [Attribute(name: "label", type: .string)],
                    relationships: [
                        Relationship(name: "holder", destination: "Item", inverse: "badge", deleteRule: .nullify)
                    ]),
            ])
    }

    /// The objects of the base graph, by the names the scenarios use.
    public struct Base {
        /// The context holding the base graph.
        public var context: EditingContext
        /// The objects by name.
        public var objects: [String: ManagedObject]

        /// The object named `name` (a scenario naming a missing one is a test bug).
        public subscript(_ name: String) -> ManagedObject { objects[name]! }
    }

    /// Root R with A (children A1 with A11, and A2), B and C; tags T1 (A, B) and T2 (B); badge X
    /// held by A. Saved (no changes, no steps).
    public static func base() throws -> Base {
        let context = EditingContext(schema: try schema())
        var objects: [String: ManagedObject] = [:]
        func item(_ name: String, under parent: String?) throws {
            let object = try context.insert("Item")
            try context.setValue(.string("\(name) – é"), forKey: "title", of: object)
            try context.setValue(.double(Double(name.count) + 0.25), forKey: "score", of: object)
            try context.setValue(.date(Date(timeIntervalSinceReferenceDate: 800_000_000.125)), forKey: "created", of: object)
            if let parent { try context.add(object, toKey: "children", of: objects[parent]!) }
            objects[name] = object
        }
        try item("R", under: nil)
        for name in ["A", "B", "C"] { try item(name, under: "R") }
        for name in ["A1", "A2"] { try item(name, under: "A") }
        try item("A11", under: "A1")
        try context.setValue(.decimal(Decimal(string: "12.50")!), forKey: "price", of: objects["A1"]!)
        try context.setValue(.binary(Data([0, 1, 2, 255])), forKey: "blob", of: objects["A11"]!)
        try context.setValue(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), forKey: "uid", of: objects["A2"]!)
        try context.setValue(.integer(-7), forKey: "level", of: objects["A"]!)
        try context.setValue(.string("https://example.com/a?b=c&d"), forKey: "link", of: objects["A"]!)
        try context.setValue(.string("transient"), forKey: "scratch", of: objects["A"]!)
        for (name, members) in [("T1", ["A", "B"]), ("T2", ["B"])] {
            let tag = try context.insert("Tag")
            try context.setValue(.string(name), forKey: "name", of: tag)
            for member in members { try context.add(objects[member]!, toKey: "items", of: tag) }
            objects[name] = tag
        }
        let badge = try context.insert("Badge")
        try context.setValue(.string("gold"), forKey: "label", of: badge)
        try context.setObject(objects["A"]!, forKey: "holder", of: badge)
        objects["X"] = badge
        context.removeAllUndoSteps()
        context.markSaved()
        return Base(context: context, objects: objects)
    }

    /// One kind of change: its name, and the edits that make it (each call one undo step).
    public struct Scenario: Sendable, CustomStringConvertible {
        /// What the scenario changes, as test output names it.
        public var name: String
        /// Makes the steps; returns how many of them to undo again before the history is
        /// kept, so that it has redo steps too.
        public var edit: @Sendable (Base) throws -> Int
        /// The name.
        public var description: String { name }
    }

    /// Every kind of change the engine records, each in its own scenario.
    public static let all: [Scenario] = [
        Scenario(name: "insert") { base in
            let context = base.context
            try context.perform("Add item") {
                let new = try context.insert("Item")
                try context.setValue(.string("New"), forKey: "title", of: new)
                try context.setValue(.double(1.5), forKey: "weight", of: new)
                try context.setObject(base["B"], forKey: "parent", of: new)
                try context.add(new, toKey: "items", of: base["T2"])
            }
            return 0
        },
        Scenario(name: "delete with cascade") { base in
            try base.context.perform("Delete A") { try base.context.delete(base["A"]) }
            return 0
        },
        Scenario(name: "attribute") { base in
            try base.context.perform("Edit B") {
                try base.context.setValue(.string("B again"), forKey: "title", of: base["B"])
                try base.context.setValue(.string("a note"), forKey: "note", of: base["B"])
                try base.context.setValue(nil, forKey: "score", of: base["B"])
                try base.context.setValue(.boolean(true), forKey: "done", of: base["B"])
                try base.context.setValue(.decimal(Decimal(string: "-0.001")!), forKey: "price", of: base["B"])
            }
            return 0
        },
        Scenario(name: "to-one") { base in
            try base.context.setObject(base["C"], forKey: "parent", of: base["A2"])
            return 0
        },
        Scenario(name: "to-many insert") { base in
            try base.context.add(base["C"], toKey: "items", of: base["T1"])
            return 0
        },
        Scenario(name: "to-many remove") { base in
            try base.context.remove(base["B"], fromKey: "items", of: base["T1"])
            return 0
        },
        Scenario(name: "to-many replace") { base in
            try base.context.delete([base["A1"], base["A2"]])
            return 0
        },
        Scenario(name: "to-many move") { base in
            try base.context.add(base["C"], toKey: "children", of: base["R"], at: 0)
            return 0
        },
        Scenario(name: "one-to-one") { base in
            try base.context.setObject(base["X"], forKey: "badge", of: base["B"])
            return 0
        },
        Scenario(name: "insert undone (redo recreates it)") { base in
            try base.context.perform("Add item") {
                let new = try base.context.insert("Item")
                try base.context.setValue(.string("Short-lived"), forKey: "title", of: new)
                try base.context.add(new, toKey: "children", of: base["C"])
            }
            return 1
        },
        Scenario(name: "several steps, some undone") { base in
            try base.context.setValue(.string("first"), forKey: "note", of: base["C"])
            try base.context.delete(base["A1"])
            try base.context.add(base["B"], toKey: "children", of: base["A"])
            try base.context.delete(base["A"])
            try base.context.setValue(.string("last"), forKey: "note", of: base["C"])
            return 2
        },
    ]
}

/// Every live object of a graph with its stored values and links, one line each in id order:
/// what "the same document" means in the history tests.
public struct GraphState: Equatable, CustomStringConvertible {
    /// One line per live object.
    public var lines: [String]

    /// The state of `graph`.
    public init(_ graph: ObjectGraph) {
        var entries: [(UInt64, String)] = []
        for info in graph.schema.infos {
            for object in graph.objects(ofEntity: info.index, includingSubentities: false) {
                var line = "\(info.name) \(graph.objectID(of: object))"
                for a in info.attributeIndices where !info[a].isTransient {
                    if let value = graph.attributeValue(of: object, a) { line += " \(info[a].name)=\(Self.render(value))" }
                }
                for r in info.relationshipIndices where !info[r].isTransient {
                    let targets =
                        info[r].isToMany
                        ? graph.relatedObjects(of: object, r)
                        : graph.relatedObject(of: object, r).map { [$0] } ?? []
                    let live = targets.filter(graph.contains).map { graph.objectID(of: $0).description }
                    if !live.isEmpty { line += " \(info[r].name)=[\(live.joined(separator: ","))]" }
                }
                entries.append((graph.objectID(of: object).rawValue, line))
            }
        }
        lines = entries.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The lines, one per object.
    public var description: String { lines.joined(separator: "\n") }

    /// Values spelled exactly (dates and doubles by their bits).
    static func render(_ value: Value) -> String {
        switch value {
        case .integer(let n): "\(n)"
        case .double(let d): "d\(d.bitPattern)"
        case .decimal(let d): "m\(d)"
        case .string(let s): s.debugDescription
        case .boolean(let b): b ? "YES" : "NO"
        case .date(let t): "t\(t.timeIntervalSinceReferenceDate.bitPattern)"
        case .binary(let data): "b\(data.base64EncodedString())"
        case .uuid(let u): u.uuidString
        }
    }
}

extension ObjectGraph {
    /// The live objects copied into a new graph as a store would read them back: rows in id
    /// order, no dead rows, transient values and links to deleted objects dropped, the same
    /// next id.
    public func reloaded() throws -> ObjectGraph {
        var loader = GraphLoader(schema: schema)
        var rows: [ManagedObject: ManagedObject] = [:]
        let live = schema.infos.flatMap { objects(ofEntity: $0.index, includingSubentities: false) }
            .sorted { objectID(of: $0) < objectID(of: $1) }
        for object in live { rows[object] = loader.appendObject(entity: object.entity, id: objectID(of: object)) }
        for object in live {
            let info = schema.infos[object.entity]
            let copy = rows[object]!
            for a in info.attributeIndices where !info[a].isTransient {
                loader.setAttribute(copy, a, attributeValue(of: object, a))
            }
            for r in info.relationshipIndices where !info[r].isTransient {
                if info[r].isToMany {
                    loader.setRelated(copy, r, relatedObjects(of: object, r).compactMap { rows[$0] })
                } else {
                    loader.setRelated(copy, r, relatedObject(of: object, r).flatMap { rows[$0] })
                }
            }
        }
        loader.declareNextID(nextID)
        return try loader.finish()
    }
}
