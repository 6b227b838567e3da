/// A data model version: its entities, checked for consistency and flattened for fast access.
///
/// A `Schema` is built either by reading an Xcode model file (see the storage module) or in
/// code. Building it checks everything Core Data would refuse (unknown destinations, inverses
/// that do not point back, duplicate names, cycles in the hierarchy, stored attributes of
/// Undefined type) and throws ``EngineError`` with code ``EngineError/Code/invalidSchema``.
///
/// Flattened property lists put inherited properties first, in the parent's order, so a
/// property index of an entity is valid for all of its subentities.
public struct Schema: Sendable {
    /// The version's name, such as `"Outline 2"` (the `.xcdatamodel` directory name without extension).
    public var name: String
    /// Xcode's `userDefinedModelVersionIdentifier` (empty when not set).
    public var versionIdentifier: String
    /// The entities as declared, in declaration order. Entity indices refer to this array.
    public let entities: [Entity]
    /// Flattened, resolved information per entity, same indices as ``entities``.
    public let infos: [EntityInfo]

    private let indexByName: [String: Int]
    private let indexByUppercasedName: [String: Int]
    /// Entity version hashes, computed once on first use (see `Schema+VersionHash.swift`).
    let versionHashCache = VersionHashCache()

    /// Builds and checks a schema.
    ///
    /// - Throws: ``EngineError`` (`invalidSchema`) naming the entity and property at fault;
    ///   when several things are wrong, every one is listed in `details`.
    public init(name: String = "", versionIdentifier: String = "", entities: [Entity]) throws {
        self.name = name
        self.versionIdentifier = versionIdentifier
        self.entities = entities
        let resolver = SchemaResolver(entities: entities)
        let result = resolver.resolve()
        if let first = result.problems.first {
            throw EngineError(
                .invalidSchema, at: first.location, first.message,
                hint: "Fix the model and load it again.",
                details: result.problems.count > 1 ? result.problems.map { "\($0.location): \($0.message)" } : [])
        }
        self.infos = result.infos
        var byName: [String: Int] = [:]
        var byUpper: [String: Int] = [:]
        for (i, e) in entities.enumerated() {
            byName[e.name] = i
            byUpper[e.name.uppercased()] = i
        }
        self.indexByName = byName
        self.indexByUppercasedName = byUpper
    }

    /// The index of the entity called `name`, matched exactly.
    public func entityIndex(named name: String) -> Int? { indexByName[name] }

    /// The index of the entity called `name`, matched case-insensitively (XML stores upper-case names).
    public func entityIndex(caseInsensitive name: String) -> Int? {
        indexByName[name] ?? indexByUppercasedName[name.uppercased()]
    }

    /// The resolved information of the entity called `name`.
    public func info(named name: String) -> EntityInfo? {
        entityIndex(named: name).map { infos[$0] }
    }
}

extension Schema: Equatable {
    /// Two schemas are equal when they declare the same entities with the same name and identifier.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.name == rhs.name && lhs.versionIdentifier == rhs.versionIdentifier && lhs.entities == rhs.entities
    }
}

/// Resolved information about one entity: flattened properties, hierarchy and inverse links.
public struct EntityInfo: Sendable {
    /// The entity's index in ``Schema/entities``.
    public let index: Int
    public let entity: Entity
    /// All attributes, inherited ones first (root-most entity first), then the entity's own.
    public let attributes: [Attribute]
    /// All relationships, inherited ones first, then the entity's own.
    public let relationships: [Relationship]
    /// Parent, grandparent, ... up to the root of the hierarchy.
    public let superentities: [Int]
    /// Every descendant entity (children, grandchildren, ...), in declaration order.
    public let subentities: [Int]
    /// Per relationship: the destination entity's index.
    public let destinations: [Int]
    /// Per relationship: the index of its inverse in the destination's relationships, if any.
    public let inverses: [Int?]

    let attributeIndexByName: [String: Int]
    let relationshipIndexByName: [String: Int]
    let attributeIndexByLowercasedName: [String: Int]
    let relationshipIndexByLowercasedName: [String: Int]

    public var name: String { entity.name }

    /// The index of the attribute called `name` in ``attributes``.
    public func attributeIndex(named name: String) -> Int? { attributeIndexByName[name] }
    /// The index of the relationship called `name` in ``relationships``.
    public func relationshipIndex(named name: String) -> Int? { relationshipIndexByName[name] }
    /// Attribute lookup ignoring case (XML stores write property names in lower case).
    public func attributeIndex(caseInsensitive name: String) -> Int? {
        attributeIndexByName[name] ?? attributeIndexByLowercasedName[name.lowercased()]
    }
    /// Relationship lookup ignoring case.
    public func relationshipIndex(caseInsensitive name: String) -> Int? {
        relationshipIndexByName[name] ?? relationshipIndexByLowercasedName[name.lowercased()]
    }

    /// Whether this entity is `other` or inherits from it.
    public func isKind(of other: Int) -> Bool { index == other || superentities.contains(other) }

    /// Attributes that are stored (not transient).
    public var storedAttributeIndices: [Int] { attributes.indices.filter { !attributes[$0].isTransient } }
    /// Relationships that are stored (not transient).
    public var storedRelationshipIndices: [Int] { relationships.indices.filter { !relationships[$0].isTransient } }
}
