/// A data problem that stops a migration, naming the first offending objects and how many there are.
public struct DataViolation: Sendable, Hashable, CustomStringConvertible {
    /// The destination entity whose objects break the rule.
    public var entity: String
    /// The property whose values break the rule.
    public var property: String
    /// What is wrong with those values, such as `have more than one destination, but the relationship becomes to-one`.
    public var message: String
    /// The first offending objects (at most five).
    public var objects: [ObjectID]
    /// How many objects are affected in all.
    public var count: Int

    /// `Entity.property: N objects MESSAGE (z1, z2 and N more)`, one line for a report.
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

    /// An empty report, filled in as a migration runs.
    public init() {}
}

/// Where a running migration is.
public struct MigrationProgress: Sendable, Equatable {
    /// The phases of one migration step, in the order they run.
    public enum Phase: String, Sendable {
        /// Creating the destination objects, entity by entity.
        case copyingObjects = "copying objects"
        /// Copying and converting attribute values, and filling defaults.
        case convertingValues = "converting values"
        /// Copying relationships between the new objects.
        case linkingObjects = "linking objects"
        /// Finishing the new graph (its inverses checked) and checking its required relationships.
        case checking = "checking"
    }
    /// The phase the step is in.
    public var phase: Phase
    /// The step of a multi-step migration (1-based) and the number of steps.
    public var step: Int
    /// How many steps the migration has in all.
    public var steps: Int
    /// How much of the phase is done, in units of ``total`` (objects or links).
    public var completed: Int
    /// How much work the phase has in all (0 when it is not known).
    public var total: Int
}
