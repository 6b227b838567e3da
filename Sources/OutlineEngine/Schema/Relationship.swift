/// A reference property of an entity: to-one or to-many, with an optional inverse.
public struct Relationship: Sendable, Hashable {
    /// The relationship's name, unique among the entity's properties.
    public var name: String
    /// The name of the destination entity (possibly abstract).
    public var destination: String
    /// The name of the inverse relationship on the destination entity, if any.
    public var inverse: String?
    /// Whether it holds any number of objects rather than at most one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its members in a defined order.
    public var isOrdered: Bool
    /// Whether it may be empty; a required one without a destination fails validation.
    public var isOptional: Bool
    /// Whether it lives in memory only: stores neither write nor read it.
    public var isTransient: Bool
    /// Minimum number of destinations, as the model file states it (0 when absent).
    public var minCount: Int
    /// Maximum number of destinations, as the model file states it (0 means unbounded).
    public var maxCount: Int
    /// What deleting the owner does to its destinations.
    public var deleteRule: DeleteRule
    /// The renaming identifier (Xcode's `elementID`); migration matches on it, else on the name.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash, to mark a change that does not show in the model.
    public var versionHashModifier: String?
    /// The model's user info entries for the relationship.
    public var userInfo: [String: String]

    /// A relationship as a data model declares it: to-one, optional and nullify by default.
    /// `minCount` and `maxCount` default to 0 (no bound).
    public init(
        name: String,
        destination: String,
        inverse: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        isTransient: Bool = false,
        minCount: Int? = nil,
        maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount ?? 0
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    /// The identifier migration matches on: the renaming identifier, else the name.
    public var migrationIdentifier: String { renamingIdentifier ?? name }
}
