/// A typed value property of an entity, as declared in a data model.
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    /// The value a new object starts with; `nil` means no default.
    public var defaultValue: Value?
    /// Lower bound: a number for numeric types, a date for dates, a length for strings and binary data.
    public var minValue: Value?
    /// Upper bound, with the same meaning as ``minValue``.
    public var maxValue: Value?
    /// A regular expression every non-nil string value must match in full.
    public var regularExpression: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var preservesValueInHistoryOnDeletion: Bool
    /// The renaming identifier (Xcode's `elementID`); matching during migration uses it, else the name.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var valueTransformerName: String?
    public var userInfo: [String: String]

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
