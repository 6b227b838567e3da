@_spi(Storage) import OutlineEngine

extension BodyDecoder {
    /// Decodes relationship column `r` of `info`'s table: kind, target entities, then per row
    /// a to-one reference (0 for nil, else 1 + reference) or a counted list of references.
    ///
    /// A reference is `row * k + t` for target entity `t` of the column's `k`; list members
    /// after the first are zigzag deltas from the previous member.
    func decodeRelationship(_ info: EntityInfo, _ r: Int, ids: [UInt64], from c: inout ByteCursor) throws -> RelationshipColumn {
        let n = ids.count
        let relationship = info.relationships[r]
        let label = "\(info.name).\(relationship.name)"
        c.context = "the relationship column \(label)"
        let kindAt = c.position
        let kind = try c.readByte()
        guard kind == (relationship.isToMany ? 1 : 0) else {
            throw c.corrupt("relationship \(label) is stored as \(kind == 1 ? "to-many" : "to-one"), but the model says \(relationship.isToMany ? "to-many" : "to-one")", at: kindAt)
        }
        let destination = info.destinations[r]
        let k = try c.readCount("the target entity count of \(label)", limit: directory.count, minimumBytesEach: 1)
        var targets: [(entity: Int, rows: Int)] = []
        for _ in 0 ..< k {
            let at = c.position
            let index = try c.readVarint()
            guard index < UInt64(directory.count) else {
                throw c.corrupt("relationship \(label) names body entity \(index), but the body has \(directory.count)", at: at)
            }
            let target = directory[Int(index)]
            guard schema.infos[target.entity].isKind(of: destination) else {
                throw c.corrupt("relationship \(label) refers to entity \(schema.entities[target.entity].name), which is not a \(schema.entities[destination].name)", at: at)
            }
            targets.append(target)
        }
        guard !targets.isEmpty else { throw c.corrupt("relationship \(label) names no target entity", at: kindAt + 1) }
        let width = UInt64(k)

        /// The object a reference stands for, checked against the target's row count.
        func object(_ reference: UInt64, row: Int, at: Int) throws -> ManagedObject {
            let target = targets[Int(reference % width)]
            let targetRow = reference / width
            guard targetRow < UInt64(target.rows) else {
                throw c.corrupt("\(label) of object z\(ids[row]) refers to row \(targetRow) of entity \(schema.entities[target.entity].name), which has \(target.rows) objects", at: at)
            }
            return ManagedObject(entity: target.entity, row: Int(targetRow))
        }

        var column = RelationshipColumn(isToMany: relationship.isToMany)
        if !relationship.isToMany {
            column.single = [UInt64](repeating: RelationshipColumn.none, count: n)
            for row in 0 ..< n {
                let at = c.position
                let value = try c.readVarint()
                if value != 0 { column.setObject(row, try object(value - 1, row: row, at: at)) }
            }
            return column
        }

        // Per target entity, the last owner row (+1) that listed each object: finds duplicates in a list.
        var stamps = [[Int32]](repeating: [], count: k)
        column.many.reserveCapacity(n)
        for row in 0 ..< n {
            let count = try c.readCount("the member count of \(label) of object z\(ids[row])", limit: BinaryFormat.maximumRows, minimumBytesEach: 1)
            guard count > 0 else {
                column.many.append([])
                continue
            }
            var previous: UInt64 = 0
            let members = try [ManagedObject](unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0 ..< count {
                    let at = c.position
                    let reference = i == 0 ? try c.readVarint() : previous &+ UInt64(bitPattern: try c.readSignedVarint())
                    let member = try object(reference, row: row, at: at)
                    if count > 1 {
                        let t = Int(reference % width)
                        if stamps[t].isEmpty { stamps[t] = [Int32](repeating: 0, count: targets[t].rows) }
                        guard stamps[t][member.row] != Int32(row + 1) else {
                            throw c.corrupt("\(label) of object z\(ids[row]) lists the same object twice", at: at)
                        }
                        stamps[t][member.row] = Int32(row + 1)
                    }
                    buffer[i] = member
                    previous = reference
                    initialized = i + 1
                }
            }
            column.many.append(members)
        }
        return column
    }
}
