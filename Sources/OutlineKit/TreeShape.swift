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
              info.inverse(of: parent) == children, info.destination(of: parent) == info.index else { return nil }
        entity = info.index
        self.parent = parent
        self.children = children
        order = info.attributeIndex(named: "order").flatMap { info[$0].type.isInteger ? $0 : nil }
    }
}
