/// The destinations of one relationship for every row of an entity table.
///
/// To-one relationships store one raw handle per row (``RelationshipColumn/none`` for nil);
/// to-many relationships store an array per row, in their stored order.
@_spi(Storage) public struct RelationshipColumn: Sendable {
    /// The raw value that stands for "no object" in ``single``.
    public static let none = UInt64.max

    public let isToMany: Bool
    public var single: [UInt64] = []
    public var many: [[ManagedObject]] = []

    public init(isToMany: Bool) { self.isToMany = isToMany }

    public var count: Int { isToMany ? many.count : single.count }

    public mutating func reserve(_ rows: Int) {
        if isToMany { many.reserveCapacity(rows) } else { single.reserveCapacity(rows) }
    }

    public mutating func appendRow() {
        if isToMany { many.append([]) } else { single.append(Self.none) }
    }

    @inlinable public func object(_ row: Int) -> ManagedObject? {
        let raw = single[row]
        return raw == Self.none ? nil : ManagedObject(raw: raw)
    }

    public mutating func setObject(_ row: Int, _ object: ManagedObject?) {
        single[row] = object?.raw ?? Self.none
    }
}
