/// The destinations of one relationship for every row of an entity table.
///
/// To-one relationships store one raw handle per row (``RelationshipColumn/none`` for nil);
/// to-many relationships store an array per row, in their stored order.
package struct RelationshipColumn: Sendable {
    /// The raw value that stands for "no object" in ``single``.
    package static let none = UInt64.max

    package let isToMany: Bool
    package var single: [UInt64] = []
    package var many: [[ManagedObject]] = []

    package init(isToMany: Bool) { self.isToMany = isToMany }

    package var count: Int { isToMany ? many.count : single.count }

    package mutating func reserve(_ rows: Int) {
        if isToMany { many.reserveCapacity(rows) } else { single.reserveCapacity(rows) }
    }

    package mutating func appendRow() {
        if isToMany { many.append([]) } else { single.append(Self.none) }
    }

    @inlinable package func object(_ row: Int) -> ManagedObject? {
        let raw = single[row]
        return raw == Self.none ? nil : ManagedObject(raw: raw)
    }

    package mutating func setObject(_ row: Int, _ object: ManagedObject?) {
        single[row] = object?.raw ?? Self.none
    }
}
