/// Resolved information about one entity: flattened properties, hierarchy and inverse links.
public struct EntityInfo: Sendable {
    /// The entity's index in ``Schema/entities``.
    public let index: EntityIndex
    /// The entity as declared.
    public let entity: Entity
    /// All attributes, inherited ones first (root-most entity first), then the entity's own.
    /// ``AttributeIndex`` values are positions in this list.
    public let attributes: [Attribute]
    /// All relationships, inherited ones first, then the entity's own.
    /// ``RelationshipIndex`` values are positions in this list.
    public let relationships: [Relationship]
    /// Parent, grandparent, ... up to the root of the hierarchy.
    public let superentities: [EntityIndex]
    /// Every descendant entity (children, grandchildren, ...), in declaration order.
    public let subentities: [EntityIndex]
    /// Per relationship: the destination entity's index.
    public let destinations: [EntityIndex]
    /// Per relationship: the index of its inverse in the destination's relationships, if any.
    public let inverses: [RelationshipIndex?]
    /// Per relationship: the entity among this one and its ancestors that declares it.
    public let declaringEntities: [EntityIndex]

    let attributeIndexByName: [String: AttributeIndex]
    let relationshipIndexByName: [String: RelationshipIndex]
    let attributeIndexByLowercasedName: [String: AttributeIndex]
    let relationshipIndexByLowercasedName: [String: RelationshipIndex]

    /// The entity's name.
    public var name: String { entity.name }

    /// The attribute at `attribute`.
    @inlinable public subscript(_ attribute: AttributeIndex) -> Attribute { attributes[attribute.rawValue] }
    /// The relationship at `relationship`.
    @inlinable public subscript(_ relationship: RelationshipIndex) -> Relationship { relationships[relationship.rawValue] }

    /// The index of every attribute, in ``attributes`` order.
    public var attributeIndices: LazyMapSequence<Range<Int>, AttributeIndex> {
        attributes.indices.lazy.map(AttributeIndex.init)
    }
    /// The index of every relationship, in ``relationships`` order.
    public var relationshipIndices: LazyMapSequence<Range<Int>, RelationshipIndex> {
        relationships.indices.lazy.map(RelationshipIndex.init)
    }

    /// The destination entity of `relationship`.
    public func destination(of relationship: RelationshipIndex) -> EntityIndex { destinations[relationship.rawValue] }
    /// The inverse of `relationship` in its destination entity, if it has one.
    public func inverse(of relationship: RelationshipIndex) -> RelationshipIndex? { inverses[relationship.rawValue] }
    /// The entity among this one and its ancestors that declares `relationship`.
    public func declaringEntity(of relationship: RelationshipIndex) -> EntityIndex {
        declaringEntities[relationship.rawValue]
    }

    /// The index of the attribute called `name` in ``attributes``.
    public func attributeIndex(named name: String) -> AttributeIndex? { attributeIndexByName[name] }
    /// The index of the relationship called `name` in ``relationships``.
    public func relationshipIndex(named name: String) -> RelationshipIndex? { relationshipIndexByName[name] }
    /// Attribute lookup ignoring case (XML stores write property names in lower case).
    public func attributeIndex(caseInsensitive name: String) -> AttributeIndex? {
        attributeIndexByName[name] ?? attributeIndexByLowercasedName[name.lowercased()]
    }
    /// Relationship lookup ignoring case.
    public func relationshipIndex(caseInsensitive name: String) -> RelationshipIndex? {
        relationshipIndexByName[name] ?? relationshipIndexByLowercasedName[name.lowercased()]
    }

    /// Whether this entity is `other` or inherits from it.
    public func isKind(of other: EntityIndex) -> Bool { index == other || superentities.contains(other) }

    /// Attributes that are stored (not transient).
    public var storedAttributeIndices: [AttributeIndex] {
        attributeIndices.filter { !attributes[$0.rawValue].isTransient }
    }
    /// Relationships that are stored (not transient).
    public var storedRelationshipIndices: [RelationshipIndex] {
        relationshipIndices.filter { !relationships[$0.rawValue].isTransient }
    }
}
