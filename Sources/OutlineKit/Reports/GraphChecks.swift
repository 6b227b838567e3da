import OutlineEngine

/// Structural checks of a loaded object graph that go beyond the model's per-object rules:
/// inverse relationships that mirror each other, and for outline-shaped entities one root,
/// no cycles in parent chains and siblings' `order` 0…n-1.
///
/// Every check walks the graph iteratively (no recursion, any depth) in O(objects + links).
public enum GraphChecks {
    /// How many objects a problem lists by id before "and N more".
    static let listedObjects = 5

    // MARK: Inverses

    /// Every link whose inverse does not point back, per inverse pair of the schema.
    public static func inverses(_ graph: ObjectGraph) -> [ValidationReport.Problem] {
        let schema = graph.schema
        var problems: [ValidationReport.Problem] = []
        for info in schema.infos {
            let inherited = info.entity.parent.flatMap(schema.info(named:))?.relationships.count ?? 0
            for r in inherited ..< info.relationships.count where !info.relationships[r].isTransient {
                guard let inverse = info.inverses[r] else { continue }
                let destination = info.destinations[r]
                // Check each pair once: from the side declared first.
                let back = schema.infos[destination]
                let backDeclaring = declaringEntity(of: inverse, in: destination, schema)
                if (backDeclaring, inverse) < (info.index, r) { continue }
                problems += mirror(graph, entity: info.index, r, destination: back.index, inverse)
            }
        }
        return problems
    }

    private struct Link: Hashable, Comparable {
        var owner: ManagedObject
        var target: ManagedObject

        static func < (a: Link, b: Link) -> Bool { (a.owner, a.target) < (b.owner, b.target) }
    }

    /// Compares the links of `entity.r` with the flipped links of `destination.inverse`.
    ///
    /// Both link lists are sorted and compared in one merge (no hashing of a million links).
    private static func mirror(_ graph: ObjectGraph, entity: Int, _ r: Int,
                               destination: Int, _ inverse: Int) -> [ValidationReport.Problem] {
        let schema = graph.schema
        func links(_ entity: Int, _ relationship: Int, flipped: Bool) -> [Link] {
            var list: [Link] = []
            let toMany = schema.infos[entity].relationships[relationship].isToMany
            for object in graph.objects(ofEntity: entity) {
                if toMany {
                    for target in graph.relatedObjects(of: object, relationship) {
                        list.append(flipped ? Link(owner: target, target: object) : Link(owner: object, target: target))
                    }
                } else if let target = graph.relatedObject(of: object, relationship) {
                    list.append(flipped ? Link(owner: target, target: object) : Link(owner: object, target: target))
                }
            }
            list.sort()
            return list
        }
        let forward = links(entity, r, flipped: false)
        let backward = links(destination, inverse, flipped: true)
        guard forward != backward else { return [] }
        // The links each side has more of than the other (a link stored twice counts twice).
        var onlyForward: [Link] = [], onlyBackward: [Link] = []
        var i = 0, j = 0
        while i < forward.count || j < backward.count {
            if j == backward.count || (i < forward.count && forward[i] < backward[j]) {
                onlyForward.append(forward[i])
                i += 1
            } else if i == forward.count || backward[j] < forward[i] {
                onlyBackward.append(backward[j])
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        let name = schema.infos[entity].relationships[r].name
        let inverseName = schema.infos[destination].relationships[inverse].name
        func describe(_ missing: [Link], _ from: String, _ to: String) -> ValidationReport.Problem {
            let sorted = missing.sorted { ($0.owner.entity, graph.objectID(of: $0.owner)) < ($1.owner.entity, graph.objectID(of: $1.owner)) }
            let shown = sorted.prefix(listedObjects).map {
                "\(graph.objectID(of: $0.owner)) -> \(graph.objectID(of: $0.target))"
            }.joined(separator: ", ")
            let more = missing.count > listedObjects ? " and \(missing.count - listedObjects) more" : ""
            return ValidationReport.Problem(
                at: "\(schema.entities[entity].name).\(name)",
                "\(missing.count) \(missing.count == 1 ? "link" : "links") of \(from) \(missing.count == 1 ? "has" : "have") no matching link in \(to) (\(shown)\(more))",
                hint: "The two sides of a relationship must mirror each other; restore the file from a backup.")
        }
        var problems: [ValidationReport.Problem] = []
        let forwardName = "\(schema.entities[entity].name).\(name)"
        let backwardName = "\(schema.entities[destination].name).\(inverseName)"
        if !onlyForward.isEmpty { problems.append(describe(onlyForward, forwardName, backwardName)) }
        if !onlyBackward.isEmpty { problems.append(describe(onlyBackward, backwardName, forwardName)) }
        return problems
    }

    private static func declaringEntity(of r: Int, in entity: Int, _ schema: Schema) -> Int {
        var current = entity
        for ancestor in schema.infos[entity].superentities {
            if r < schema.infos[ancestor].relationships.count { current = ancestor } else { break }
        }
        return current
    }

    // MARK: Trees

    /// An entity that nests like an outline: a to-one `parent` whose inverse is a to-many
    /// `children` on the same entity, and optionally an integer `order` among siblings.
    public struct TreeShape: Sendable {
        /// The entity's index in the schema.
        public var entity: Int
        /// The index of the to-one `parent` relationship.
        public var parent: Int
        /// The index of the to-many `children` relationship.
        public var children: Int
        /// The index of the integer `order` attribute, when the entity has one.
        public var order: Int?

        /// The tree entity of `schema` (`Item` first, else the first that qualifies), if any.
        public init?(schema: Schema) {
            let candidates = (schema.info(named: "Item").map { [$0] } ?? []) + schema.infos
            for info in candidates {
                guard let parent = info.relationshipIndex(named: "parent"), let children = info.relationshipIndex(named: "children"),
                      !info.relationships[parent].isToMany, info.relationships[children].isToMany,
                      info.inverses[parent] == children, info.destinations[parent] == info.index else { continue }
                entity = info.index
                self.parent = parent
                self.children = children
                order = info.attributeIndex(named: "order").flatMap { info.attributes[$0].type.isInteger ? $0 : nil }
                return
            }
            return nil
        }
    }

    /// One root, no cycles in parent chains, and (with `order`) siblings numbered 0…n-1.
    public static func tree(_ graph: ObjectGraph, shape: TreeShape) -> [ValidationReport.Problem] {
        tree(graph, shape: shape, limit: .max).problems
    }

    /// The first `limit` problems of ``tree(_:shape:)`` and how many there are in all, so that
    /// a graph with millions of bad objects takes no more memory than `limit` messages.
    public static func tree(_ graph: ObjectGraph, shape: TreeShape, limit: Int) -> (problems: [ValidationReport.Problem], count: Int) {
        let schema = graph.schema
        let name = schema.entities[shape.entity].name
        let objects = graph.objects(ofEntity: shape.entity)
        var problems = ProblemList(limit: limit)
        func ids(_ list: [ManagedObject]) -> String {
            let shown = list.prefix(listedObjects).map { graph.objectID(of: $0).description }.joined(separator: ", ")
            return shown + (list.count > listedObjects ? " and \(list.count - listedObjects) more" : "")
        }

        let roots = objects.filter { graph.relatedObject(of: $0, shape.parent) == nil }
        if roots.count > 1 {
            problems.add(ValidationReport.Problem(
                at: name, "\(roots.count) items have no parent (\(ids(roots))); an outline has exactly one root",
                hint: "Move the extra top-level items under the root, or restore the file from a backup."))
        }

        for cycle in cycles(graph, objects, shape) {
            problems.add(ValidationReport.Problem(
                at: "\(name) \(graph.objectID(of: cycle[0])).parent",
                "\(cycle.count) \(cycle.count == 1 ? "item is its own parent" : "items are each other's ancestors") (\(ids(cycle))); parent chains must end at the root",
                hint: "Restore the file from a backup."))
        }

        if let order = shape.order {
            for parent in objects {
                let kids = graph.relatedObjects(of: parent, shape.children)
                guard !kids.isEmpty else { continue }
                let orders = kids.map { graph.attributeValue(of: $0, order)?.integerValue }
                // Nil first, then the numbers: a negative order is a number like any other.
                let sorted = orders.sorted { ($0 == nil ? 0 : 1, $0 ?? 0) < ($1 == nil ? 0 : 1, $1 ?? 0) }
                guard sorted.enumerated().contains(where: { $0.element != Int64($0.offset) }) else { continue }
                let shown = sorted.prefix(8).map { $0.map(String.init) ?? "nil" }.joined(separator: ", ") + (sorted.count > 8 ? ", …" : "")
                problems.add(ValidationReport.Problem(
                    at: "\(name) \(graph.objectID(of: parent)).children",
                    "the \(kids.count) children have orders \(shown); siblings must be numbered 0…\(kids.count - 1)",
                    hint: "Until it is fixed the items are shown in the order of these numbers; restore the file from a backup."))
            }
        }
        return (problems.listed, problems.count)
    }

    /// Each cycle of parent links once, its members in chain order starting at the lowest id.
    ///
    /// - Complexity: O(objects): every object is walked up to a visited one once.
    static func cycles(_ graph: ObjectGraph, _ objects: [ManagedObject], _ shape: TreeShape) -> [[ManagedObject]] {
        // Per entity, per row: 0 unvisited, 1 on the current chain, 2 finished.
        var rows = [Int](repeating: 0, count: graph.schema.entities.count)
        for object in objects { rows[object.entity] = max(rows[object.entity], object.row + 1) }
        var state = rows.map { [UInt8](repeating: 0, count: $0) }
        var found: [[ManagedObject]] = []
        for start in objects where state[start.entity][start.row] == 0 {
            var chain: [ManagedObject] = []
            var current: ManagedObject? = start
            while let object = current, object.row < state[object.entity].count, graph.contains(object) {
                switch state[object.entity][object.row] {
                case 0:
                    state[object.entity][object.row] = 1
                    chain.append(object)
                    current = graph.relatedObject(of: object, shape.parent)
                case 1:
                    // Back at an object of this walk: the chain from it on is a cycle.
                    if let first = chain.firstIndex(of: object) {
                        var cycle = Array(chain[first...])
                        if let lowest = cycle.indices.min(by: { graph.objectID(of: cycle[$0]) < graph.objectID(of: cycle[$1]) }) {
                            cycle = Array(cycle[lowest...] + cycle[..<lowest])
                        }
                        found.append(cycle)
                    }
                    current = nil
                default:
                    current = nil
                }
            }
            for object in chain { state[object.entity][object.row] = 2 }
        }
        return found
    }
}

/// Problems as they are found: the first `limit` kept, all of them counted.
struct ProblemList {
    let limit: Int
    private(set) var listed: [ValidationReport.Problem] = []
    private(set) var count = 0

    init(limit: Int) { self.limit = limit }

    /// Counts a problem; `make` runs only while fewer than `limit` are kept.
    mutating func add(_ make: @autoclosure () -> ValidationReport.Problem) {
        count += 1
        if listed.count < limit { listed.append(make()) }
    }
}
