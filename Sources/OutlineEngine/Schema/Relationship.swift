/// A reference property of an entity: to-one or to-many, with an optional inverse.
public struct Relationship: Sendable, Hashable {
    public var name: String
    /// The name of the destination entity (possibly abstract).
    public var destination: String
    /// The name of the inverse relationship on the destination entity, if any.
    public var inverse: String?
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its members in a defined order.
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// Minimum number of destinations, as the model file states it (0 when absent).
    public var minCount: Int
    /// Maximum number of destinations, as the model file states it (0 means unbounded).
    public var maxCount: Int
    public var deleteRule: DeleteRule
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]

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
