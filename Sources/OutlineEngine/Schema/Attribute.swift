/// A typed value property of an entity, as declared in a data model.
public struct Attribute: Sendable, Hashable {
    /// The attribute's name, unique among the entity's properties.
    public var name: String
    /// The type of its values.
    public var type: AttributeType
    /// Whether an object may leave it nil; a required attribute without a value fails validation.
    public var isOptional: Bool
    /// Whether the value lives in memory only: stores neither write nor read it.
    public var isTransient: Bool
    /// The value a new object starts with; `nil` means no default.
    public var defaultValue: Value?
    /// Lower bound: a number for numeric types, a date for dates, a length for strings and binary data.
    public var minValue: Value?
    /// Upper bound, with the same meaning as ``minValue``.
    public var maxValue: Value?
    /// A regular expression every non-nil string value must match in full.
    public var regularExpression: String?
    /// Core Data's "Allows External Storage"; kept for the model file and the version hash.
    public var allowsExternalBinaryDataStorage: Bool
    /// Core Data's "Preserve After Deletion"; kept for the model file.
    public var preservesValueInHistoryOnDeletion: Bool
    /// The renaming identifier (Xcode's `elementID`); matching during migration uses it, else the name.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash, to mark a change that does not show in the model.
    public var versionHashModifier: String?
    /// The value transformer a transformable attribute names; kept for the model file.
    public var valueTransformerName: String?
    /// The model's user info entries for the attribute.
    public var userInfo: [String: String]

    /// An attribute as a data model declares it; every parameter but the name and type is
    /// optional, with Xcode's defaults (optional, stored, no default value, no bounds).
    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        defaultValue: Value? = nil,
        minValue: Value? = nil,
        maxValue: Value? = nil,
        regularExpression: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        valueTransformerName: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.valueTransformerName = valueTransformerName
        self.userInfo = userInfo
    }

    /// The identifier migration matches on: the renaming identifier, else the name.
    public var migrationIdentifier: String { renamingIdentifier ?? name }
}
