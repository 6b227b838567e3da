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

    private let indexByName: [String: EntityIndex]
    private let indexByUppercasedName: [String: EntityIndex]
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
        var byName: [String: EntityIndex] = [:]
        var byUpper: [String: EntityIndex] = [:]
        for (i, e) in entities.enumerated() {
            byName[e.name] = EntityIndex(i)
            byUpper[e.name.uppercased()] = EntityIndex(i)
        }
        self.indexByName = byName
        self.indexByUppercasedName = byUpper
    }

    /// The index of the entity called `name`, matched exactly.
    public func entityIndex(named name: String) -> EntityIndex? { indexByName[name] }

    /// The index of the entity called `name`, matched case-insensitively (XML stores upper-case names).
    public func entityIndex(caseInsensitive name: String) -> EntityIndex? {
        indexByName[name] ?? indexByUppercasedName[name.uppercased()]
    }

    /// The resolved information of the entity called `name`.
    public func info(named name: String) -> EntityInfo? {
        entityIndex(named: name).map { infos[$0.rawValue] }
    }

    /// The resolved information of the entity at `entity`.
    @inlinable public subscript(_ entity: EntityIndex) -> EntityInfo { infos[entity.rawValue] }

    /// The indices of every entity, in declaration order.
    public var entityIndices: [EntityIndex] { entities.indices.map(EntityIndex.init) }
}

extension Schema: Equatable {
    /// Two schemas are equal when they declare the same entities with the same name and identifier.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.name == rhs.name && lhs.versionIdentifier == rhs.versionIdentifier && lhs.entities == rhs.entities
    }
}
