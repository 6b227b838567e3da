/// What importing an undo history needs from the graph: finding a few objects by id without
/// indexing them all, and recreating deleted objects as dead rows.
extension ObjectGraph {
    /// The live objects among `ids`, by id number.
    ///
    /// - Complexity: O(k log n) for k ids in tables whose ids ascend (every loaded table),
    ///   O(n) for others; no index of every object is built.
    func liveObjects(withIDs ids: Set<UInt64>) -> [UInt64: ManagedObject] {
        var found: [UInt64: ManagedObject] = [:]
        guard !ids.isEmpty else { return found }
        let wanted = ids.sorted()
        for table in tables where table.liveCount > 0 {
            let rows = table.ids
            if zip(rows, rows.dropFirst()).allSatisfy({ $0 < $1 }) {
                for id in wanted {
                    var low = 0
                    var high = rows.count
                    while low < high {
                        let middle = low + (high - low) / 2
                        if rows[middle] < id { low = middle + 1 } else { high = middle }
                    }
                    if low < rows.count, rows[low] == id, table.alive[low] {
                        found[id] = ManagedObject(entity: table.entity, row: low)
                    }
                }
            } else {
                for row in rows.indices where table.alive[row] && ids.contains(rows[row]) {
                    found[rows[row]] = ManagedObject(entity: table.entity, row: row)
                }
            }
        }
        return found
    }

    /// Appends a deleted object of `entity` with id `id` and attribute `values` (storage form,
    /// one per attribute of the entity), for undo to bring back.
    func appendDeadObject(entity: EntityIndex, id: UInt64, values: [Value?]) -> ManagedObject {
        let object = appendObject(entity: entity, id: id, values: values)
        setAlive(object, false)
        return object
    }
}
