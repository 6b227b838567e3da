/// All objects of a document in memory: one `EntityTable` per entity, typed columns, no
/// per-object instances.
///
/// The graph itself does no bookkeeping (no undo, no change tracking, no inverse maintenance);
/// ``EditingContext`` does that on top of it. Storage code builds graphs with the package's
/// bulk loader and reads their tables directly.
public final class ObjectGraph: ObjectGraphReading {
    /// The schema every object of the graph follows.
    public let schema: Schema
    package internal(set) var tables: [EntityTable]
    /// The next id number to hand out; always above every id in use (until the ids run out:
    /// see ``ObjectID/maximum``).
    package internal(set) var nextID: UInt64
    private var idIndex: [UInt64: ManagedObject]?

    /// An empty graph. The first object gets id `firstID` (Core Data starts at ``ObjectID/first``).
    public init(schema: Schema, firstID: UInt64 = ObjectID.first.rawValue) {
        self.schema = schema
        self.tables = schema.infos.map(EntityTable.init(info:))
        self.nextID = firstID
    }

    package init(schema: Schema, tables: [EntityTable], nextID: UInt64) {
        self.schema = schema
        self.tables = tables
        self.nextID = nextID
    }

    // MARK: Reading

    /// Whether `object` is a live object of this graph.
    public func contains(_ object: ManagedObject) -> Bool {
        object.entity.rawValue < tables.count && object.row < tables[object.entity].rowCount && tables[object.entity].alive[object.row]
    }

    /// The value of `attribute` of `object` (nil when it has none).
    public func attributeValue(of object: ManagedObject, _ attribute: AttributeIndex) -> Value? {
        tables[object.entity].attributes[attribute].value(object.row)
    }

    /// The destination of to-one `relationship` of `object`, nil when there is none.
    public func relatedObject(of object: ManagedObject, _ relationship: RelationshipIndex) -> ManagedObject? {
        tables[object.entity].relationships[relationship].object(object.row)
    }

    /// The members of to-many `relationship` of `object`, in stored order.
    public func relatedObjects(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject] {
        tables[object.entity].relationships[relationship].many[object.row]
    }

    /// The persistent id of `object`.
    public func objectID(of object: ManagedObject) -> ObjectID {
        ObjectID(tables[object.entity].ids[object.row])
    }

    /// The live object with persistent id `id`, if any.
    ///
    /// - Complexity: O(1) after a first call that indexes every object.
    public func object(with id: ObjectID) -> ManagedObject? {
        if idIndex == nil {
            var index: [UInt64: ManagedObject] = [:]
            index.reserveCapacity(tables.reduce(0) { $0 + $1.rowCount })
            for table in tables {
                for row in 0 ..< table.rowCount {
                    index[table.ids[row]] = ManagedObject(entity: table.entity, row: row)
                }
            }
            idIndex = index
        }
        guard let object = idIndex?[id.rawValue], contains(object) else { return nil }
        return object
    }

    /// Number of live objects of the entity at `entity` (not counting subentities).
    public func count(ofEntity entity: EntityIndex) -> Int { tables[entity].liveCount }

    /// Number of live objects in the whole graph.
    public var objectCount: Int { tables.reduce(0) { $0 + $1.liveCount } }

    /// Every live object of `entity` and, when `includingSubentities`, of its subentities, in row order.
    public func objects(ofEntity entity: EntityIndex, includingSubentities: Bool = true) -> [ManagedObject] {
        var result: [ManagedObject] = []
        let entities = includingSubentities ? [entity] + schema.infos[entity].subentities : [entity]
        for e in entities {
            let table = tables[e]
            result.reserveCapacity(result.count + table.liveCount)
            for row in 0 ..< table.rowCount where table.alive[row] {
                result.append(ManagedObject(entity: e, row: row))
            }
        }
        return result
    }

    // MARK: Raw mutation (no bookkeeping; used by EditingContext)

    /// Forgets the id index (the tables were replaced).
    func dropIDIndex() { idIndex = nil }

    func appendObject(entity: EntityIndex, id: UInt64? = nil, values: [Value?]) -> ManagedObject {
        let id = id ?? nextID
        nextID = max(nextID, id == .max ? .max : id + 1)
        let row = tables[entity].appendRow(id: id, values: values)
        let object = ManagedObject(entity: entity, row: row)
        idIndex?[id] = object
        return object
    }

    func setAlive(_ object: ManagedObject, _ alive: Bool) {
        guard tables[object.entity].alive[object.row] != alive else { return }
        tables[object.entity].alive[object.row] = alive
        tables[object.entity].liveCount += alive ? 1 : -1
    }

    func setAttribute(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Value?) {
        tables[object.entity].attributes[attribute].set(object.row, value)
    }

    func setRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, _ target: ManagedObject?) {
        tables[object.entity].relationships[relationship].setObject(object.row, target)
    }

    func insertRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, _ member: ManagedObject, at index: Int) {
        tables[object.entity].relationships[relationship].many.insert(member, at: index, row: object.row)
    }

    func removeRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, at index: Int) -> ManagedObject {
        tables[object.entity].relationships[relationship].many.remove(at: index, row: object.row)
    }

    func replaceRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, with members: [ManagedObject]) {
        tables[object.entity].relationships[relationship].many.setMembers(members, row: object.row)
    }
}
