import OutlineEngine

/// An entity that nests like an outline: a to-one `parent` whose inverse is a to-many
/// `children` on the same entity, and optionally an integer `order` among siblings.
///
/// Validation checks trees of any schema with this shape (one root, no cycles, siblings
/// numbered 0…n-1); ``OutlineShape`` adds what an outline document needs on top of it.
public struct TreeShape: Sendable, Equatable {
    /// The entity's index in the schema.
    public var entity: EntityIndex
    /// The to-one `parent` relationship.
    public var parent: RelationshipIndex
    /// The to-many `children` relationship.
    public var children: RelationshipIndex
    /// The integer `order` attribute, when the entity has one.
    public var order: AttributeIndex?

    /// The tree entity of `schema` (`Item` first, else the first entity that qualifies), if any.
    public init?(schema: Schema) {
        let candidates = (schema.info(named: "Item").map { [$0] } ?? []) + schema.infos
        guard let shape = candidates.lazy.compactMap(TreeShape.init(entity:)).first else { return nil }
        self = shape
    }

    /// The shape of `info`'s entity, if it nests like an outline.
    public init?(entity info: EntityInfo) {
        guard let parent = info.relationshipIndex(named: "parent"), let children = info.relationshipIndex(named: "children"),
            !info[parent].isToMany, info[children].isToMany,
            info.inverse(of: parent) == children, info.destination(of: parent) == info.index
        else { return nil }
        entity = info.index
        self.parent = parent
        self.children = children
        order = info.attributeIndex(named: "order").flatMap { info[$0].type.isInteger ? $0 : nil }
    }
}

extension TreeShape {
    /// Each cycle of parent links among `objects` (of this entity) once, its members in chain order starting at the lowest id.
    ///
    /// - Complexity: O(objects): every object is walked up to a visited one once.
    public func parentCycles(in graph: ObjectGraph, among objects: [ManagedObject]) -> [[ManagedObject]] {
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
                    current = graph.relatedObject(of: object, parent)
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
