/// A change a mapping can make that fails only for some data: the plan is inferable, but
/// migrating a document stops (and leaves it unchanged) when one of its objects is in the way.
///
/// Risks are listed apart from ``MigrationBlocker``s, which stop every migration. A dry run
/// with a document turns each risk into the objects that would fail (``DataViolation``s with
/// the same entity and property).
public struct MigrationRisk: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change carries the risk.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, such as `optionalToRequired`.
        public let rawValue: String
        /// The kind named `rawValue` (one of the constants below, or one a newer version adds).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// An optional attribute becomes required and has no default: every nil fails.
        public static let optionalToRequired = Kind(rawValue: "optionalToRequired")
        /// A new required attribute without a default: every existing object fails.
        public static let newRequiredAttribute = Kind(rawValue: "newRequiredAttribute")
        /// A numeric type change that can lose information, checked value by value: every
        /// value that does not fit the new type exactly fails.
        public static let checkedNarrowing = Kind(rawValue: "checkedNarrowing")
        /// A to-many relationship becomes to-one (allowed by option): every object with more
        /// than one destination fails.
        public static let toManyToToOne = Kind(rawValue: "toManyToToOne")
        /// A relationship becomes required, or a new one is required: every object left
        /// without a destination fails.
        public static let requiredRelationship = Kind(rawValue: "requiredRelationship")
    }

    /// What kind of change carries the risk.
    public var kind: Kind
    /// The destination entity.
    public var entity: String
    /// The destination property.
    public var property: String
    /// What the property was, such as `optional String` (`absent` for a new property).
    public var from: String
    /// What it becomes, such as `required String without a default`.
    public var to: String
    /// Which objects fail, such as `every object whose value is nil`.
    public var fails: String
    /// When they fail.
    public var when: String

    /// A risk of `kind` on `entity.property`, changing it `from` one form `to` another, for the
    /// objects `fails` describes, at the moment `when` describes.
    public init(
        kind: Kind, entity: String, property: String, from: String, to: String, fails: String,
        when: String = MigrationRisk.atMigration
    ) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.from = from
        self.to = to
        self.fails = fails
        self.when = when
    }

    /// The moment every risk bites.
    public static let atMigration = "when a document is migrated (the migration stops and the document is left unchanged)"

    /// `Entity.property: from -> to: fails for WHICH, WHEN`.
    public var description: String {
        "\(entity).\(property): \(from) -> \(to): fails for \(fails), \(when)"
    }
}
