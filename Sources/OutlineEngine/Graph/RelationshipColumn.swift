/// The destinations of one relationship for every row of an entity table.
///
/// To-one relationships store one raw handle per row (``RelationshipColumn/none`` for nil);
/// to-many relationships store a list per row, in their stored order (see ``ListColumn``).
package struct RelationshipColumn: Sendable {
    /// The raw value that stands for "no object" in ``single``.
    package static let none = UInt64.max

    package let isToMany: Bool
    package var single = PagedArray<UInt64>()
    package var many = ListColumn()

    package init(isToMany: Bool) { self.isToMany = isToMany }

    package var count: Int { isToMany ? many.count : single.count }

    package mutating func reserve(_ rows: Int) {
        if isToMany { many.reserveCapacity(rows) } else { single.reserveCapacity(rows) }
    }

    package mutating func appendRow() {
        if isToMany { many.appendRow() } else { single.append(Self.none) }
    }

    /// Appends `count` rows without destinations.
    package mutating func appendRows(_ count: Int) {
        if isToMany { many.appendRows(count) } else { single.append(repeating: Self.none, count: count) }
    }

    /// Removes the last `count` rows.
    package mutating func removeLast(_ count: Int) {
        if isToMany { many.removeLast(count) } else { single.removeLast(count) }
    }

    @inlinable package func object(_ row: Int) -> ManagedObject? {
        Self.object(stored: single[row])
    }

    /// The object a value of ``single`` stands for.
    @inlinable package static func object(stored raw: UInt64) -> ManagedObject? {
        raw == none ? nil : ManagedObject(raw: raw)
    }

    /// What ``single`` holds for `object`.
    @inlinable package static func stored(_ object: ManagedObject?) -> UInt64 { object?.raw ?? none }

    package mutating func setObject(_ row: Int, _ object: ManagedObject?) {
        single[row] = object?.raw ?? Self.none
    }
}
