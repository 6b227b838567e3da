/// A cheap handle to an object of an ``EditingContext``: the entity and the row it lives in.
///
/// Handles are plain values (8 bytes). They stay valid for the lifetime of the context that
/// made them, also across undo and redo; they are not meaningful in another context. The
/// stable, persistent identity of an object is its ``ObjectID``.
public struct ManagedObject: Hashable, Comparable, Sendable, CustomStringConvertible {
    @usableFromInline let raw: UInt64

    /// Makes a handle for the object in `row` of the table of entity `entity`.
    @inlinable public init(entity: EntityIndex, row: Int) {
        precondition(entity.rawValue >= 0 && entity.rawValue < 1 << 16 && row >= 0 && row < 1 << 40, "object handle out of range")
        raw = UInt64(entity.rawValue) << 40 | UInt64(row)
    }

    @usableFromInline init(raw: UInt64) { self.raw = raw }

    /// The index of the object's (concrete) entity in ``Schema/entities``.
    @inlinable public var entity: EntityIndex { EntityIndex(Int(truncatingIfNeeded: raw >> 40)) }
    /// The object's row in its entity's table.
    @inlinable public var row: Int { Int(truncatingIfNeeded: raw & (1 << 40 - 1)) }

    public static func < (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs.raw < rhs.raw }
    public var description: String { "ManagedObject(entity: \(entity.rawValue), row: \(row))" }
}

/// The persistent identity of an object: the number an XML store writes as `z102`.
///
/// Object IDs are unique across all entities of a document and never reused within it.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64
    /// The id with number `rawValue`.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// The id Core Data gives the first object of a new store (`z102`); new graphs start there.
    public static let first = ObjectID(102)
    /// The largest id number a graph hands out: 2^62, so the next id and sums of ids always
    /// fit in 64 bits. Stores refuse files with larger ids.
    public static let maximum: UInt64 = 1 << 62
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The XML store spelling, `z` followed by the number.
    public var description: String { "z\(rawValue)" }

    /// Parses `z102` (or a bare `102`).
    public init?(string: some StringProtocol) {
        let text = Substring(string)
        let digits = text.hasPrefix("z") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = UInt64(digits) else { return nil }
        rawValue = n
    }
}
