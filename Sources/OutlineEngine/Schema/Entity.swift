/// An entity of a data model: its own attributes and relationships, and its place in the hierarchy.
///
/// Properties inherited from the parent entity are not repeated here; ``Schema`` flattens them.
public struct Entity: Sendable, Hashable {
    /// The entity's name, unique in the schema.
    public var name: String
    /// The name of the parent entity, if this entity inherits from one.
    public var parent: String?
    /// Whether the entity has no objects of its own, only through its subentities.
    public var isAbstract: Bool
    /// The attributes the entity declares (not the inherited ones).
    public var attributes: [Attribute]
    /// The relationships the entity declares (not the inherited ones).
    public var relationships: [Relationship]
    /// Each constraint is a list of property names whose values together must be unique.
    public var uniquenessConstraints: [[String]]
    /// The renaming identifier (Xcode's `elementID`); migration matches on it, else on the name.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash, to mark a change that does not show in the model.
    public var versionHashModifier: String?
    /// The class name the model gives the entity's objects; kept for the model file.
    public var className: String?
    /// The model's user info entries for the entity.
    public var userInfo: [String: String]

    /// An entity as a data model declares it; ``Schema`` checks it against the others.
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
