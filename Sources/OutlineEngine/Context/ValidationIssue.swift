/// One broken rule found by validation: which object, which property, and what is wrong.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// The object that breaks the rule.
    public var object: ManagedObject
    /// The object's id, as messages show it (`z105`).
    public var objectID: ObjectID
    /// The object's entity.
    public var entity: String
    /// The property at fault; `nil` for rules about the whole object (uniqueness).
    public var property: String?
    /// What is wrong, with the offending value.
    public var message: String

    /// `Entity z105.property: message`, one line for a report.
    public var description: String {
        "\(entity) \(objectID)\(property.map { ".\($0)" } ?? ""): \(message)"
    }
}
