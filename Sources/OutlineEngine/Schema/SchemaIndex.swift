/// The position of an entity in ``Schema/entities`` (and ``Schema/infos``).
///
/// Entity, attribute and relationship indices are distinct types so that one cannot be passed
/// where another is meant; each is a plain `Int` underneath and costs nothing more.
public struct EntityIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position as a number.
    public let rawValue: Int

    /// The index at position `rawValue`.
    @inlinable public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders indices by position.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `entity #N`, for debugging.
    public var description: String { "entity #\(rawValue)" }
}

/// The position of an attribute in an entity's flattened ``EntityInfo/attributes``.
///
/// An attribute index valid for an entity is valid for each of its subentities, whose
/// flattened lists start with the inherited properties.
public struct AttributeIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position as a number.
    public let rawValue: Int

    /// The index at position `rawValue`.
    @inlinable public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders indices by position.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `attribute #N`, for debugging.
    public var description: String { "attribute #\(rawValue)" }
}

/// The position of a relationship in an entity's flattened ``EntityInfo/relationships``.
///
/// A relationship index valid for an entity is valid for each of its subentities.
public struct RelationshipIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position as a number.
    public let rawValue: Int

    /// The index at position `rawValue`.
    @inlinable public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders indices by position.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `relationship #N`, for debugging.
    public var description: String { "relationship #\(rawValue)" }
}

// Arrays kept per entity, per attribute or per relationship (tables, columns, flags) are
// indexed by the typed index directly inside the package.
extension Array {
    @inlinable package subscript(_ index: EntityIndex) -> Element {
        get { self[index.rawValue] }
        set { self[index.rawValue] = newValue }
        _modify { yield &self[index.rawValue] }
    }

    @inlinable package subscript(_ index: AttributeIndex) -> Element {
        get { self[index.rawValue] }
        set { self[index.rawValue] = newValue }
        _modify { yield &self[index.rawValue] }
    }

    @inlinable package subscript(_ index: RelationshipIndex) -> Element {
        get { self[index.rawValue] }
        set { self[index.rawValue] = newValue }
        _modify { yield &self[index.rawValue] }
    }
}
