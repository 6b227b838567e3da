/// Read access to an object graph by property index, as predicates and writers need it.
///
/// Property indices are those of ``EntityInfo/attributes`` and ``EntityInfo/relationships``
/// of the object's entity; an index valid for an entity is valid for all its subentities.
public protocol ObjectGraphReading {
    /// The schema the graph's objects follow.
    var schema: Schema { get }
    /// The value of attribute `attribute` of `object`; `nil` when the object has none.
    func attributeValue(of object: ManagedObject, _ attribute: AttributeIndex) -> Value?
    /// The destination of to-one relationship `relationship` of `object`.
    func relatedObject(of object: ManagedObject, _ relationship: RelationshipIndex) -> ManagedObject?
    /// The destinations of to-many relationship `relationship` of `object`, in stored order.
    func relatedObjects(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject]
}
