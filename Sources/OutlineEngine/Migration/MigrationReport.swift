/// A data problem that stops a migration, naming the first offending objects and how many there are.
public struct DataViolation: Sendable, Hashable, CustomStringConvertible {
    public var entity: String
    public var property: String
    public var message: String
    /// The first offending objects (at most five).
    public var objects: [ObjectID]
    /// How many objects are affected in all.
    public var count: Int

    public var description: String {
        let list = objects.map(\.description).joined(separator: ", ")
        let more = count > objects.count ? " and \(count - objects.count) more" : ""
        return "\(entity).\(property): \(count) \(count == 1 ? "object" : "objects") \(message) (\(list)\(more))"
    }
}

/// What a migration did or would do to the data.
public struct MigrationReport: Sendable {
    /// Objects copied per destination entity.
    public var copiedObjects: [String: Int] = [:]
    /// Objects dropped with a removed entity, per source entity.
    public var droppedObjects: [String: Int] = [:]
    /// Non-nil values dropped with a removed attribute, per `Entity.attribute` of the source.
    public var droppedValues: [String: Int] = [:]
    /// Links dropped with a removed relationship, per `Entity.relationship` of the source.
    public var droppedLinks: [String: Int] = [:]
    /// Objects whose nil became the default value, per `Entity.attribute` of the destination.
    public var defaultedValues: [String: Int] = [:]
    /// Everything in the data that stops the migration; empty when it succeeded.
    public var violations: [DataViolation] = []
    /// Required relationships (`Entity.relationship` of the destination) whose data could not be
    /// checked, because earlier violations left links that do not mirror.
    public var uncheckedRelationships: [String] = []
    /// The version names passed through, source first.
    public var path: [String] = []

    public init() {}
}

/// Where a running migration is.
public struct MigrationProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case copyingObjects = "copying objects"
        case convertingValues = "converting values"
        case linkingObjects = "linking objects"
        case checking = "checking"
    }
    public var phase: Phase
    /// The step of a multi-step migration (1-based) and the number of steps.
    public var step: Int
    public var steps: Int
    public var completed: Int
    public var total: Int
}
