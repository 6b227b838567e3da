import OutlineEngine

extension BodyDecoder {
    /// Decodes relationship column `r` of `info`'s table: kind, target entities, then per row
    /// a to-one reference (0 for nil, else 1 + reference) or a counted list of references.
    ///
    /// A reference is `row * k + t` for target entity `t` of the column's `k`; list members
    /// after the first are zigzag deltas from the previous member. When the inverse is a
    /// to-one the file leaves out, it is filled here (see ``mirrors``), which also finds an
    /// object claimed twice; other lists are checked for duplicates directly.
    mutating func decodeRelationship(_ info: EntityInfo, _ r: RelationshipIndex, ids: PagedArray<UInt64>, from c: inout ByteCursor) throws
        -> RelationshipColumn
    {
        let n = ids.count
        let relationship = info.relationships[r]
        let label = "\(info.name).\(relationship.name)"
        c.context = "the relationship column \(label)"
        let kindAt = c.position
        let kind = try c.readByte()
        guard kind == (relationship.isToMany ? 1 : 0) else {
            throw c.corrupt(
                "relationship \(label) is stored as \(kind == 1 ? "to-many" : "to-one"), but the model says \(relationship.isToMany ? "to-many" : "to-one")",
                at: kindAt)
        }
        let destination = info.destinations[r]
        let k = try c.readCount("the target entity count of \(label)", limit: directory.count, minimumBytesEach: 1)
        var targets: [(entity: EntityIndex, rows: Int)] = []
        for _ in 0 ..< k {
            let at = c.position
            let index = try c.readVarint()
            guard index < UInt64(directory.count) else {
                throw c.corrupt(
                    "relationship \(label) names entity number \(index) of the body's directory, which lists only \(directory.count) (numbered from 0)",
                    at: at)
            }
            let target = directory[Int(index)]
            guard schema.infos[target.entity].isKind(of: destination) else {
                throw c.corrupt(
                    "relationship \(label) refers to entity \(schema.entities[target.entity].name), which is not entity \(schema.entities[destination].name) or one of its subentities",
                    at: at)
            }
            targets.append(target)
        }
        guard !targets.isEmpty else { throw c.corrupt("relationship \(label) names no target entity", at: kindAt + 1) }
        let width = UInt64(k)
        let single = k == 1 ? targets[0] : nil

        // The inverse to fill: a to-one that is not this very relationship (a self-inverse one is stored whole).
        var mirror: RelationshipIndex?
        if let inverse = info.inverses[r], !schema.infos[destination].relationships[inverse].isToMany,
            declaring(Slot(entity: destination, relationship: inverse)) != declaring(Slot(entity: info.index, relationship: r))
        {
            mirror = inverse
        }
        var mirrorColumns: [RelationshipColumn] = []
        // When no column of the mirror has been filled yet (no other relationship shares the
        // inverse), the claims go to plain memory, written without the exclusivity and
        // copy-on-write checks of the columns, which become the columns at the end.
        let slots = mirror.map { mirror in targets.map { Slot(entity: $0.entity, relationship: mirror) } } ?? []
        let owners: [UnsafeMutableBufferPointer<UInt64>]? =
            mirror != nil && slots.allSatisfy({ mirrors[$0] == nil })
            ? targets.map { target in
                let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: target.rows)
                buffer.initialize(repeating: RelationshipColumn.none)
                return buffer
            } : nil
        if mirror != nil {
            for (target, slot) in zip(targets, slots) {
                var column = mirrors.removeValue(forKey: slot) ?? RelationshipColumn(isToMany: false)
                if column.single.isEmpty && owners == nil {
                    column.single = PagedArray(repeating: RelationshipColumn.none, count: target.rows)
                }
                mirrorColumns.append(column)
            }
        }
        defer {
            if let mirror {
                for (t, var column) in mirrorColumns.enumerated() {
                    if let claims = owners?[t] {
                        column.single = PagedArray(unsafeUninitializedCount: claims.count) { page, start, initialized in
                            if let base = page.baseAddress, let source = claims.baseAddress {
                                base.initialize(from: source + start, count: page.count)
                            }
                            initialized = page.count
                        }
                        claims.deallocate()
                    }
                    mirrors[Slot(entity: targets[t].entity, relationship: mirror)] = column
                }
            }
        }
        let backName = mirror.map { schema.infos[destination].relationships[$0].name } ?? ""

        /// The target index and row a reference stands for, checked against the target's row count.
        @inline(__always) func resolve(_ reference: UInt64, row: Int, at: Int) throws -> (target: Int, row: Int) {
            let t = single == nil ? Int(reference % width) : 0
            let targetRow = single == nil ? reference / width : reference
            guard targetRow < UInt64(targets[t].rows) else {
                throw c.corrupt(
                    "\(label) of object z\(ids[row]) refers to row \(targetRow) of entity \(schema.entities[targets[t].entity].name), which has \(targets[t].rows) objects",
                    at: at)
            }
            return (t, Int(targetRow))
        }
        /// Records `owner` as the inverse of the member; false when the member already has one.
        @inline(__always) func claim(_ t: Int, _ targetRow: Int, by owner: ManagedObject) -> Bool {
            if let owners {
                guard owners[t][targetRow] == RelationshipColumn.none else { return false }
                owners[t][targetRow] = RelationshipColumn.stored(owner)
                return true
            }
            guard mirrorColumns[t].single[targetRow] == RelationshipColumn.none else { return false }
            mirrorColumns[t].single[targetRow] = RelationshipColumn.stored(owner)
            return true
        }

        var column = RelationshipColumn(isToMany: relationship.isToMany)
        if !relationship.isToMany {
            column.single = try PagedArray(unsafeUninitializedCount: n) { buffer, start, initialized in
                for j in 0 ..< buffer.count {
                    let row = start + j
                    let at = c.position
                    let value = try c.readVarint()
                    guard value != 0 else {
                        buffer[j] = RelationshipColumn.none
                        continue
                    }
                    let (t, targetRow) = try resolve(value - 1, row: row, at: at)
                    if mirror != nil && !claim(t, targetRow, by: ManagedObject(entity: info.index, row: row)) {
                        throw c.corrupt("\(label) of object z\(ids[row]) names an object whose \(backName) already names another", at: at)
                    }
                    buffer[j] = RelationshipColumn.stored(ManagedObject(entity: targets[t].entity, row: targetRow))
                }
                initialized = buffer.count
            }
            return column
        }

        // Lists without a mirrored inverse: per target entity, the last owner row (+1) that listed each object.
        var stamps = [[Int32]](repeating: [], count: mirror == nil ? k : 0)
        // Packed a page of rows at a time: one buffer of members per page, not an array per row.
        var expected = 16
        column.many = try ListColumn(count: n) { start, rows in
            var page = PackedPage.Builder(rows: rows, expectedMembers: expected)
            for row in start ..< start + rows {
                let countAt = c.position
                let rawCount = try c.readVarint()
                guard rawCount <= UInt64(c.remaining) else {
                    throw c.corrupt(
                        "the member count of \(label) of object z\(ids[row]) is \(rawCount), more than the \(BinaryError.byteCount(c.remaining)) left in \(c.context) can hold",
                        at: countAt)
                }
                guard rawCount <= UInt64(StoreLimits.maximumRelationshipMembers) else {
                    throw c.limit(
                        "the member count of \(label) of object z\(ids[row]) is \(rawCount), over the limit of \(StoreLimits.maximumRelationshipMembers)",
                        at: countAt)
                }
                let count = Int(rawCount)
                let owner = ManagedObject(entity: info.index, row: row)
                var previous: UInt64 = 0
                for i in 0 ..< count {
                    let at = c.position
                    let reference = i == 0 ? try c.readVarint() : previous &+ UInt64(bitPattern: try c.readSignedVarint())
                    let (t, targetRow) = try resolve(reference, row: row, at: at)
                    if mirror != nil {
                        guard claim(t, targetRow, by: owner) else {
                            throw c.corrupt("\(label) of object z\(ids[row]) lists an object that already has a \(backName)", at: at)
                        }
                    } else if count > 1 {
                        if stamps[t].isEmpty { stamps[t] = [Int32](repeating: 0, count: targets[t].rows) }
                        guard stamps[t][targetRow] != Int32(row + 1) else {
                            throw c.corrupt("\(label) of object z\(ids[row]) lists the same object twice", at: at)
                        }
                        stamps[t][targetRow] = Int32(row + 1)
                    }
                    guard page.append(ManagedObject(entity: targets[t].entity, row: targetRow)) else {
                        throw c.limit("the lists of \(label) of the objects from z\(ids[start]) hold over \(UInt32.max) members", at: at)
                    }
                    previous = reference
                }
                page.endRow()
            }
            // The next page likely holds about as many.
            expected = page.memberCount + page.memberCount / 8
            return page.finish()
        }
        return column
    }
}
