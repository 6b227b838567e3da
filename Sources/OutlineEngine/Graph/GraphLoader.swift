/// Builds an ``ObjectGraph`` in bulk, as stores do when they open a file.
///
/// Loading bypasses change tracking and undo. A store sets attribute values and relationship
/// destinations as the file has them; ``finish()`` then completes the side of each inverse
/// pair that the file did not provide and checks the sides it did provide against each other.
package struct GraphLoader {
    package let schema: Schema
    package private(set) var tables: [EntityTable]
    private var maxID: UInt64 = 0
    private var declaredNextID: UInt64 = 0
    /// Per entity, per relationship: whether the file supplied this side.
    private var supplied: [[Bool]]
    /// Per entity, per relationship: whether the store filled this side as the mirror of the other.
    private var mirrored: [[Bool]]
    /// Per entity, per relationship: whether the store checked every destination already.
    private var checked: [[Bool]]
    /// Per entity: the column rows appended ahead that no object has taken yet (see
    /// ``appendObjectAhead(entity:id:)``).
    private var rowsAhead: [Int]

    package init(schema: Schema) {
        self.schema = schema
        self.tables = schema.infos.map(EntityTable.init(info:))
        self.supplied = schema.infos.map { [Bool](repeating: false, count: $0.relationships.count) }
        self.mirrored = self.supplied
        self.checked = self.supplied
        self.rowsAhead = [Int](repeating: 0, count: schema.infos.count)
    }

    /// Reserves room for `count` objects of `entity`.
    package mutating func reserve(entity: EntityIndex, count: Int) { tables[entity].reserve(count) }

    /// Adds an object with all attributes nil and no relationships.
    package mutating func appendObject(entity: EntityIndex, id: ObjectID) -> ManagedObject {
        maxID = max(maxID, id.rawValue)
        let row = tables[entity].appendRow(id: id.rawValue)
        return ManagedObject(entity: entity, row: row)
    }

    /// Adds an object with all attributes nil and no relationships, as
    /// ``appendObject(entity:id:)`` does, appending the rows of the table's columns ahead in
    /// runs (growing with the table, up to a page) rather than one per object: stores reading
    /// objects one by one call this for each.
    ///
    /// Until ``finish()`` drops the rows no object took, the columns of `entity` may hold more
    /// rows than ``EntityTable/rowCount``: a caller sets values of rows it was given only, and
    /// does not replace whole columns of `entity`.
    package mutating func appendObjectAhead(entity: EntityIndex, id: ObjectID) -> ManagedObject {
        maxID = max(maxID, id.rawValue)
        if rowsAhead[entity] == 0 {
            let rows = tables[entity].rowCount
            let toPageEnd = PagedArray<UInt64>.pageSize - rows & (PagedArray<UInt64>.pageSize - 1)
            let run = min(max(rows, 16), toPageEnd)
            tables[entity].appendColumnRowsAhead(run)
            rowsAhead[entity] = run
        }
        rowsAhead[entity] -= 1
        return ManagedObject(entity: entity, row: tables[entity].appendObjectRow(id: id.rawValue))
    }

    /// Adds one live object per id to `entity` in bulk, as columnar stores load them.
    ///
    /// Unlike ``appendObject(entity:id:)`` this appends no column values: the caller then fills
    /// every attribute and relationship column of the table with exactly `ids.count` more rows
    /// through ``withTable(_:_:)``.
    package mutating func appendObjects(entity: EntityIndex, ids: [UInt64]) {
        if let highest = ids.max() { maxID = max(maxID, highest) }
        tables[entity].ids.append(contentsOf: ids)
        tables[entity].alive.append(repeating: true, count: ids.count)
        tables[entity].liveCount += ids.count
    }

    /// Adds one live object per id of another table, as the overload taking an array does.
    /// A table without objects yet takes the pages of `ids` as they are.
    package mutating func appendObjects(entity: EntityIndex, ids: PagedArray<UInt64>) {
        let adopts = tables[entity].ids.isEmpty
        ids.forEachPage { _, page in
            if let highest = page.max() { maxID = max(maxID, highest) }
            if !adopts { tables[entity].ids.append(contentsOf: page) }
        }
        if adopts { tables[entity].ids = ids }
        tables[entity].alive.append(repeating: true, count: ids.count)
        tables[entity].liveCount += ids.count
    }

    /// The id the file declares as next (Core Data's `nextObjectID`); new ids start above the
    /// larger of this and the highest id in use.
    package mutating func declareNextID(_ next: UInt64) { declaredNextID = next }

    /// Direct access to a table's columns for fast decoding.
    package mutating func withTable<R>(_ entity: EntityIndex, _ body: (inout EntityTable) throws -> R) rethrows -> R {
        try body(&tables[entity])
    }

    /// Sets an Integer 16, 32 or 64 attribute: ``setAttribute(_:_:_:)`` with `.integer(value)`,
    /// without making a ``Value``.
    package mutating func setInteger(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Int64) {
        tables[object.entity].attributes[attribute].setInteger(object.row, value)
    }

    /// Sets a Boolean attribute: ``setAttribute(_:_:_:)`` with `.boolean(value)`, without making a ``Value``.
    package mutating func setBoolean(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Bool) {
        tables[object.entity].attributes[attribute].setBoolean(object.row, value)
    }

    /// Sets a Double, Float or Date attribute (a date as seconds since 2001), without making a ``Value``.
    package mutating func setDouble(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Double) {
        tables[object.entity].attributes[attribute].setDouble(object.row, value)
    }

    /// Sets a String, URI, Binary or Transformable attribute to `bytes` (UTF-8 for text),
    /// without making a ``Value``.
    package mutating func setBytes(_ object: ManagedObject, _ attribute: AttributeIndex, _ bytes: UnsafeRawBufferPointer) {
        tables[object.entity].attributes[attribute].setBytes(object.row, bytes)
    }

    /// Sets an attribute value; `value` must already have the attribute type's storage form.
    package mutating func setAttribute(_ object: ManagedObject, _ attribute: AttributeIndex, _ value: Value?) {
        tables[object.entity].attributes[attribute].set(object.row, value)
    }

    /// Sets a to-one destination as read from the file.
    package mutating func setRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, _ target: ManagedObject?) {
        supplied[object.entity][relationship] = true
        tables[object.entity].relationships[relationship].setObject(object.row, target)
    }

    /// Sets the destinations of a to-many relationship, in stored order, as read from the file.
    package mutating func setRelated(_ object: ManagedObject, _ relationship: RelationshipIndex, _ members: [ManagedObject]) {
        supplied[object.entity][relationship] = true
        tables[object.entity].relationships[relationship].many.setMembers(members, row: object.row)
    }

    /// Marks a relationship of an entity as supplied by the file even where no object set it.
    package mutating func markSupplied(entity: EntityIndex, relationship: RelationshipIndex) {
        supplied[entity][relationship] = true
    }

    /// Marks a relationship of an entity as filled by the store itself as the exact mirror of
    /// its supplied inverse, so ``finish()`` neither derives nor checks that pair again.
    ///
    /// A store uses this when it derives the inverse while decoding, more cheaply than
    /// ``finish()`` can; it is then responsible for the two sides mirroring each other.
    package mutating func markMirrored(entity: EntityIndex, relationship: RelationshipIndex) {
        supplied[entity][relationship] = true
        mirrored[entity][relationship] = true
    }

    /// Marks a relationship column of an entity as holding only destinations the store checked
    /// itself (rows that exist, of the destination entity or a subentity), so ``finish()`` does
    /// not check them again.
    package mutating func markDestinationsChecked(entity: EntityIndex, relationship: RelationshipIndex) {
        checked[entity][relationship] = true
    }

    /// Completes inverse sides, checks supplied pairs, and returns the graph.
    ///
    /// - Throws: ``EngineError`` (`inconsistentGraph`) when a relationship points at an object of
    ///   the wrong entity or when two supplied sides of an inverse pair disagree, naming the objects.
    package consuming func finish() throws -> ObjectGraph {
        for entity in rowsAhead.indices where rowsAhead[entity] > 0 {
            tables[entity].removeColumnRowsAhead(rowsAhead[entity])
            rowsAhead[entity] = 0
        }
        try checkDestinations()
        for pair in InversePair.all(in: schema) {
            if pair.forward.family.contains(where: { mirrored[$0][pair.forward.relationship] })
                || pair.inverse.family.contains(where: { mirrored[$0][pair.inverse.relationship] })
            {
                continue
            }
            let forwardSupplied = pair.forward.family.contains { supplied[$0][pair.forward.relationship] }
            let inverseSupplied = pair.inverse.family.contains { supplied[$0][pair.inverse.relationship] }
            switch (forwardSupplied, inverseSupplied) {
            case (false, false): continue
            case (true, false): try derive(pair.inverse, from: pair.forward)
            case (false, true): try derive(pair.forward, from: pair.inverse)
            case (true, true):
                if pair.forwardIsToOne {
                    try verify(pair.forward, against: pair.inverse)
                } else {
                    try verify(pair.inverse, against: pair.forward)
                }
            }
        }
        let next = max(declaredNextID, maxID == .max ? .max : maxID + 1)
        return ObjectGraph(schema: schema, tables: tables, nextID: next)
    }

    private func checkDestinations() throws {
        for info in schema.infos {
            let table = tables[info.index]
            for (position, column) in table.relationships.enumerated() where !checked[info.index][position] {
                let r = RelationshipIndex(position)
                let destination = info.destination(of: r)
                func check(_ target: ManagedObject, _ row: Int) throws {
                    guard target.entity.rawValue < tables.count, target.row < tables[target.entity].rowCount,
                        schema.infos[target.entity].isKind(of: destination)
                    else {
                        throw EngineError(
                            .inconsistentGraph, at: "\(info.name) \(ObjectID(table.ids[row]))",
                            "relationship \"\(info[r].name)\" points at an object that is not entity \(schema.entities[destination].name) or one of its subentities",
                            hint: "The data is damaged.")
                    }
                }
                if column.isToMany {
                    try column.many.forEachList(in: 0 ..< column.many.count) { row, list in
                        for t in list { try check(t, row) }
                    }
                } else {
                    try column.single.forEachPage { start, targets in
                        for (j, raw) in targets.enumerated() {
                            if let t = RelationshipColumn.object(stored: raw) { try check(t, start + j) }
                        }
                    }
                }
            }
        }
    }

    /// Calls `body(source, target)` for every link stored on `side`, in table, row and member order.
    private func forEachLink(_ side: InversePair.Side, _ body: (ManagedObject, ManagedObject) throws -> Void) rethrows {
        for entity in side.family {
            let column = tables[entity].relationships[side.relationship]
            if column.isToMany {
                try column.many.forEachList(in: 0 ..< column.many.count) { row, list in
                    for target in list { try body(ManagedObject(entity: entity, row: row), target) }
                }
            } else {
                for row in 0 ..< column.single.count {
                    if let target = column.object(row) { try body(ManagedObject(entity: entity, row: row), target) }
                }
            }
        }
    }

    /// Fills `side` (empty so far) as the mirror image of `source`.
    private mutating func derive(_ side: InversePair.Side, from source: InversePair.Side) throws {
        var links: [(ManagedObject, ManagedObject)] = []
        forEachLink(source) { links.append(($0, $1)) }
        let toMany = schema.infos[side.family[0]].relationships[side.relationship].isToMany
        for (owner, target) in links {
            if toMany {
                tables[target.entity].relationships[side.relationship].many.append(owner, row: target.row)
            } else if let existing = tables[target.entity].relationships[side.relationship].object(target.row), existing != owner {
                throw conflict(target, side, source, "it is listed by both \(id(existing)) and \(id(owner)), but can name only one of them")
            } else {
                tables[target.entity].relationships[side.relationship].setObject(target.row, owner)
            }
        }
    }

    /// Checks that `side` holds exactly the mirror image of `source`: the same links, each once.
    ///
    /// One direction suffices: equal link sets seen from one side are equal from the other.
    private func verify(_ side: InversePair.Side, against source: InversePair.Side) throws {
        let toMany = schema.infos[side.family[0]].relationships[side.relationship].isToMany
        if !toMany {
            // Flat arrays per table: the owner each target should point back to.
            var expected = tables.map { [UInt64](repeating: RelationshipColumn.none, count: $0.rowCount) }
            try forEachLink(source) { owner, target in
                let previous = expected[target.entity][target.row]
                if previous != RelationshipColumn.none {
                    throw conflict(
                        target, side, source,
                        previous == owner.raw
                            ? "\(id(owner)) lists it more than once"
                            : "it is listed by both \(id(ManagedObject(raw: previous))) and \(id(owner)), but can name only one of them")
                }
                expected[target.entity][target.row] = owner.raw
            }
            for entity in side.family {
                let column = tables[entity].relationships[side.relationship]
                for row in 0 ..< column.single.count where column.single[row] != expected[entity][row] {
                    let object = ManagedObject(entity: entity, row: row)
                    let want = expected[entity][row]
                    let have = column.single[row]
                    let what =
                        if have == RelationshipColumn.none {
                            "it names nothing, but \(id(ManagedObject(raw: want))) lists it"
                        } else if want == RelationshipColumn.none {
                            "it names \(id(ManagedObject(raw: have))), which does not list it"
                        } else {
                            "it names \(id(ManagedObject(raw: have))), but \(id(ManagedObject(raw: want))) lists it"
                        }
                    throw conflict(object, side, source, what)
                }
            }
            return
        }
        var expected: [ManagedObject: [ManagedObject]] = [:]
        forEachLink(source) { owner, target in expected[target, default: []].append(owner) }
        for entity in side.family {
            let column = tables[entity].relationships[side.relationship]
            for row in 0 ..< column.many.count {
                let object = ManagedObject(entity: entity, row: row)
                let want = expected.removeValue(forKey: object) ?? []
                let have = column.many[row]
                if want.count == have.count && (want == have || want.sorted() == have.sorted()) { continue }
                let what =
                    if let missing = want.first(where: { !have.contains($0) }) {
                        "it does not list \(id(missing)), which names it"
                    } else if let extra = have.first(where: { !want.contains($0) }) {
                        "it lists \(id(extra)), which does not name it"
                    } else {
                        "it lists \(id(Self.repeated(in: have) ?? object)) more than once"
                    }
                throw conflict(object, side, source, what)
            }
        }
    }

    /// An element that `list` holds twice.
    private static func repeated(in list: [ManagedObject]) -> ManagedObject? {
        var seen = Set<ManagedObject>()
        return list.first { !seen.insert($0).inserted }
    }

    /// `z105`, the id of `object`, or `?` for a handle that is not a row.
    private func id(_ object: ManagedObject) -> String {
        object.entity.rawValue < tables.count && object.row < tables[object.entity].rowCount
            ? ObjectID(tables[object.entity].ids[object.row]).description : "?"
    }

    /// `side` of `object` does not mirror `source`: `what` says how, from `object`'s side.
    private func conflict(_ object: ManagedObject, _ side: InversePair.Side, _ source: InversePair.Side, _ what: String) -> EngineError {
        let info = schema.infos[object.entity]
        let name = info[side.relationship].name
        let inverse = schema.infos[source.family[0]].relationships[source.relationship].name
        return EngineError(
            .inconsistentGraph, at: "\(info.name) \(id(object))",
            "relationship \"\(name)\" disagrees with its inverse \"\(inverse)\": \(what)",
            hint: "The two sides of a relationship must mirror each other; the file is damaged or was edited by hand.")
    }
}

/// A relationship and its inverse, each given by the entities that store it and its index.
struct InversePair {
    struct Side: Equatable {
        /// The entity that declares the relationship and every subentity (all store the column).
        var family: [EntityIndex]
        var relationship: RelationshipIndex
    }
    var forward: Side
    var inverse: Side
    var forwardIsToOne: Bool

    /// Every inverse pair of `schema`, each once.
    static func all(in schema: Schema) -> [InversePair] {
        var pairs: [InversePair] = []
        for info in schema.infos {
            for r in info.relationshipIndices where info.declaringEntity(of: r) == info.index {
                guard let i = info.inverse(of: r) else { continue }
                let declaring = schema[info.destination(of: r)].declaringEntity(of: i)
                let forward = (info.index, r)
                let backward = (declaring, i)
                guard forward.0 < backward.0 || (forward.0 == backward.0 && forward.1 <= backward.1) else { continue }
                pairs.append(
                    InversePair(
                        forward: Side(family: [info.index] + info.subentities, relationship: r),
                        inverse: Side(family: [declaring] + schema.infos[declaring].subentities, relationship: i),
                        forwardIsToOne: !info[r].isToMany))
            }
        }
        return pairs
    }
}
