/// The objects of a graph at one moment, as an immutable value that any thread may read.
///
/// Taking a snapshot copies the table of columns, not the rows: O(entities × properties),
/// whatever the size of the graph. The graph and the snapshot then share their pages; a write
/// to the graph afterwards copies the one page it touches (see ``PagedArray``), so the graph
/// can go on being edited while a save encodes the snapshot elsewhere.
///
/// Object handles (``ManagedObject``) of the graph are valid in the snapshot: the same entity
/// and row. Dead rows (deleted objects) are kept, as in the graph.
public struct GraphSnapshot: Sendable, ObjectGraphReading {
    /// The schema the objects follow.
    public let schema: Schema
    package let tables: [EntityTable]
    /// The next id number the graph would hand out.
    package let nextID: UInt64

    package init(schema: Schema, tables: [EntityTable], nextID: UInt64) {
        self.schema = schema
        self.tables = tables
        self.nextID = nextID
    }

    /// Whether `object` is a live object of the snapshot.
    public func contains(_ object: ManagedObject) -> Bool {
        object.entity.rawValue < tables.count && object.row < tables[object.entity].rowCount && tables[object.entity].alive[object.row]
    }

    public func attributeValue(of object: ManagedObject, _ attribute: AttributeIndex) -> Value? {
        tables[object.entity].attributes[attribute].value(object.row)
    }

    public func relatedObject(of object: ManagedObject, _ relationship: RelationshipIndex) -> ManagedObject? {
        tables[object.entity].relationships[relationship].object(object.row)
    }

    public func relatedObjects(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject] {
        tables[object.entity].relationships[relationship].many[object.row]
    }

    /// The persistent id of `object`.
    public func objectID(of object: ManagedObject) -> ObjectID {
        ObjectID(tables[object.entity].ids[object.row])
    }

    /// Number of live objects of the entity at `entity` (not counting subentities).
    public func count(ofEntity entity: EntityIndex) -> Int { tables[entity].liveCount }

    /// Number of live objects in the whole snapshot.
    public var objectCount: Int { tables.reduce(0) { $0 + $1.liveCount } }

    /// The number of rows of each entity's table, live or dead: handles with a row at or above
    /// this were made after the snapshot.
    package var rowCounts: [Int] { tables.map(\.rowCount) }
}

extension ObjectGraph {
    /// The graph's objects as they are now, as a value another thread can read or save.
    ///
    /// - Complexity: O(entities × properties); the rows are shared, not copied.
    public func snapshot() -> GraphSnapshot {
        GraphSnapshot(schema: schema, tables: tables, nextID: nextID)
    }

    /// A graph holding the objects of `snapshot`, with the same handles and ids; editing it
    /// copies the pages it changes and leaves the snapshot as it was.
    ///
    /// - Complexity: O(entities × properties).
    public convenience init(snapshot: GraphSnapshot) {
        self.init(schema: snapshot.schema, tables: snapshot.tables, nextID: snapshot.nextID)
    }
}
