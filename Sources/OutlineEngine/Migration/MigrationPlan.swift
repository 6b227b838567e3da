/// What an inferred migration between two schema versions does, entity by entity and property
/// by property, and everything that stops it.
///
/// Plans are inferred by ``MigrationPlan/infer(from:to:options:)`` and carried out by
/// ``Migrator``. A plan with blockers cannot run; each blocker says what and why and what to do.
public struct MigrationPlan: Sendable {
    public let source: Schema
    public let destination: Schema
    public let options: MigrationOptions
    /// One mapping per destination entity, in destination order.
    public internal(set) var entities: [EntityMapping] = []
    /// Source entities with no counterpart: their objects are dropped.
    public internal(set) var removedEntities: [String] = []
    /// Every reason the mapping cannot be inferred, all of them at once.
    public internal(set) var blockers: [MigrationBlocker] = []
    /// Every change that fails only for some data (see ``MigrationRisk``), in entity order.
    public internal(set) var risks: [MigrationRisk] = []

    /// Whether the plan can run (it has no blockers).
    public var isInferable: Bool { blockers.isEmpty }
    /// Whether the two versions store the same thing, so objects are copied as they are.
    public var isIdentity: Bool {
        removedEntities.isEmpty && entities.allSatisfy { $0.kind == .copy }
    }
}

/// Options that relax the checks of inference, each restoring a Core Data behaviour.
public struct MigrationOptions: Sendable, Hashable {
    /// Narrowing numeric conversions keep going when a value does not fit (Core Data's
    /// unchecked behaviour: integers are truncated, doubles rounded toward zero).
    public var allowsLossyConversions = false
    /// A to-many relationship may become to-one when no object has more than one destination.
    public var allowsToManyToToOne = false

    public init(allowsLossyConversions: Bool = false, allowsToManyToToOne: Bool = false) {
        self.allowsLossyConversions = allowsLossyConversions
        self.allowsToManyToToOne = allowsToManyToToOne
    }
}

/// How the objects of one destination entity come about.
public struct EntityMapping: Sendable {
    public enum Kind: String, Sendable {
        /// The entity hashes are equal: objects are copied unchanged.
        case copy
        /// The entity changed: objects are copied property by property.
        case transform
        /// The entity is new: it starts empty.
        case add
    }

    public var kind: Kind
    /// The source entity (nil for an added entity).
    public var source: String?
    public var destination: String
    public var attributes: [AttributeMapping]
    public var relationships: [RelationshipMapping]
    /// Source attributes with no counterpart; their values are dropped.
    public var removedAttributes: [String]
    /// Source relationships with no counterpart; their links are dropped.
    public var removedRelationships: [String]
}

/// How one destination attribute gets its values.
public struct AttributeMapping: Sendable {
    public enum Action: Sendable, Equatable {
        /// Same type: values are copied.
        case copy
        /// A numeric or boolean type change that never loses information.
        case promote(from: AttributeType, to: AttributeType)
        /// A type change that can lose information: every value is checked (unless the options say otherwise).
        case narrow(from: AttributeType, to: AttributeType)
        /// A new attribute: every object gets the default value (nil when there is none).
        case initialize(Value?)
    }

    public var destination: String
    /// The source attribute (nil for a new attribute).
    public var source: String?
    public var action: Action
    /// Whether nil values become the destination default (optional -> mandatory with a default).
    public var fillsNilWithDefault: Bool
    /// Whether a remaining nil is a data violation (mandatory in the destination).
    public var requiresValue: Bool
}

/// How one destination relationship gets its destinations.
public struct RelationshipMapping: Sendable {
    public enum Action: Sendable, Equatable {
        case copy
        /// to-one -> to-many: the single destination becomes the only member.
        case wrap
        /// to-many -> to-one (allowed by option): valid only where there is at most one member.
        case collapse
        /// A new relationship: it starts empty.
        case initialize
    }

    public var destination: String
    public var source: String?
    public var action: Action
    /// Whether an empty result is a data violation (mandatory in the destination).
    public var requiresValue: Bool
    /// Readable notes on what else changed (ordering, delete rule, inverse): none needs data changes.
    public var notes: [String]
}

/// One reason a mapping cannot be inferred: which entity and property, what it was and would
/// become, why that is refused, and what to do.
public struct MigrationBlocker: Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Two entities or properties share one renaming identifier.
        public static let duplicateIdentifier = Code(rawValue: "duplicateIdentifier")
        /// An attribute type change no conversion covers (String <-> number, ...).
        public static let incompatibleTypes = Code(rawValue: "incompatibleTypes")
        /// An attribute became a relationship or the other way round.
        public static let kindChanged = Code(rawValue: "kindChanged")
        /// A to-many relationship became to-one.
        public static let toManyToToOne = Code(rawValue: "toManyToToOne")
        /// A relationship's destination maps to a different entity than the new destination.
        public static let destinationChanged = Code(rawValue: "destinationChanged")
        /// A concrete entity with objects became abstract.
        public static let becameAbstract = Code(rawValue: "becameAbstract")
    }

    public var code: Code
    public var entity: String
    public var property: String?
    public var from: String
    public var to: String
    public var reason: String
    public var hint: String

    public var description: String {
        "\(entity)\(property.map { ".\($0)" } ?? ""): \(from) -> \(to): \(reason). \(hint)"
    }
}
