/// The objects of one concrete entity, stored column by column.
///
/// Rows are never reused within a graph: a deleted object's row is marked dead and keeps its
/// values, so undo can bring it back under the same handle.
package struct EntityTable: Sendable {
    package let entity: EntityIndex
    /// Per row: the object's persistent id number.
    package var ids = PagedArray<UInt64>()
    /// Per row: whether the object exists (false once deleted).
    package var alive = PagedArray<Bool>()
    /// One column per attribute of the entity's flattened attribute list.
    package var attributes: [AttributeColumn]
    /// One column per relationship of the entity's flattened relationship list.
    package var relationships: [RelationshipColumn]
    /// The number of rows with `alive` set.
    package internal(set) var liveCount = 0

    init(info: EntityInfo) {
        entity = info.index
        attributes = info.attributes.map { AttributeColumn(type: $0.type) }
        relationships = info.relationships.map { RelationshipColumn(isToMany: $0.isToMany) }
    }

    package var rowCount: Int { ids.count }

    mutating func reserve(_ rows: Int) {
        ids.reserveCapacity(rows)
        alive.reserveCapacity(rows)
        for i in attributes.indices { attributes[i].reserve(rows) }
        for i in relationships.indices { relationships[i].reserve(rows) }
    }

    /// Appends `count` rows to every attribute column (nil) and relationship column (no
    /// destinations), but not to ``ids`` and ``alive``: rows for objects still to come (see
    /// ``GraphLoader/appendObjectAhead(entity:id:)``).
    mutating func appendColumnRowsAhead(_ count: Int) {
        for i in attributes.indices { attributes[i].appendNils(count) }
        for i in relationships.indices { relationships[i].appendRows(count) }
    }

    /// Removes the last `count` rows of every attribute and relationship column, but not of
    /// ``ids`` and ``alive``: the rows appended ahead that no object took.
    mutating func removeColumnRowsAhead(_ count: Int) {
        for i in attributes.indices { attributes[i].removeLast(count) }
        for i in relationships.indices { relationships[i].removeLast(count) }
    }

    /// Appends a live row for `id` to ``ids`` and ``alive`` only, its column rows having been
    /// appended ahead.
    mutating func appendObjectRow(id: UInt64) -> Int {
        let row = ids.count
        ids.append(id)
        alive.append(true)
        liveCount += 1
        return row
    }

    /// Appends a live row with the given attribute values (in storage form; all nil when
    /// `values` is nil, which allocates nothing per row: stores call it once per object they
    /// read) and empty relationships.
    mutating func appendRow(id: UInt64, values: [Value?]? = nil) -> Int {
        let row = ids.count
        ids.append(id)
        alive.append(true)
        liveCount += 1
        if let values {
            for i in attributes.indices { attributes[i].append(values[i]) }
        } else {
            for i in attributes.indices { attributes[i].appendNil() }
        }
        for i in relationships.indices { relationships[i].appendRow() }
        return row
    }
}
