/// One broken rule found by validation: which object, which property, and what is wrong.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    public var object: ManagedObject
    public var objectID: ObjectID
    public var entity: String
    /// The property at fault; `nil` for rules about the whole object (uniqueness).
    public var property: String?
    public var message: String

    public var description: String {
        "\(entity) \(objectID)\(property.map { ".\($0)" } ?? ""): \(message)"
    }
}
