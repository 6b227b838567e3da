/// An entity of a data model: its own attributes and relationships, and its place in the hierarchy.
///
/// Properties inherited from the parent entity are not repeated here; ``Schema`` flattens them.
public struct Entity: Sendable, Hashable {
    public var name: String
    /// The name of the parent entity, if this entity inherits from one.
    public var parent: String?
    public var isAbstract: Bool
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    /// Each constraint is a list of property names whose values together must be unique.
    public var uniquenessConstraints: [[String]]
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var className: String?
    public var userInfo: [String: String]

    public init(
        name: String,
        parent: String? = nil,
        isAbstract: Bool = false,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        uniquenessConstraints: [[String]] = [],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        className: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.className = className
        self.userInfo = userInfo
    }

    /// The identifier migration matches on: the renaming identifier, else the name.
    public var migrationIdentifier: String { renamingIdentifier ?? name }
}
