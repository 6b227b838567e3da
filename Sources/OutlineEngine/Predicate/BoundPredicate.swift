/// A predicate resolved against one entity of a schema, ready to evaluate many objects.
///
/// Binding (``FetchPredicate/bound(to:entity:)``) looks every key up once, checks the
/// comparisons' types, and compiles `LIKE` and `MATCHES` patterns that are constants, so that
/// ``evaluate(_:in:)`` only reads the graph by property index.
///
/// Semantics, following Core Data and Foundation:
/// - A key path that crosses a to-many relationship has several values. Without a modifier
///   the comparison is true when any value satisfies it (`tags.name == "x"` means
///   `ANY tags.name == "x"`); `ALL` and `NONE` are true for an empty relationship.
/// - `nil == nil` is true; `nil` compared with `<`, `>`, `BETWEEN` or a string operator is false.
/// - Numbers compare across integer, double, decimal and boolean attributes.
/// - Comparing values that can never match (a string attribute with a number, a date with a
///   string, ordering UUIDs, ...) is an error when binding, not a silent `false`.
public struct BoundPredicate: Sendable, CustomStringConvertible {
    /// The predicate as written.
    public let predicate: FetchPredicate
    /// The index of the entity in ``Schema/entities`` whose objects (and subentities' objects)
    /// the predicate evaluates.
    public let entity: EntityIndex
    let root: BoundNode

    /// Whether `object` satisfies the predicate, reading `graph` through ``ObjectGraphReading``.
    ///
    /// - Precondition: `object` is of the bound entity or one of its subentities.
    /// - Complexity: proportional to the number of objects the key paths reach; never
    ///   recursive on the data.
    public func evaluate(_ object: ManagedObject, in graph: some ObjectGraphReading) -> Bool {
        precondition(graph.schema.infos.indices.contains(object.entity.rawValue) && graph.schema.infos[object.entity].isKind(of: entity),
                     "the object's entity is not the entity the predicate was bound to")
        return PredicateEvaluator(graph: graph, object: object).evaluate(root)
    }

    /// The objects of `objects` that satisfy the predicate, in their order.
    public func filter(_ objects: some Sequence<ManagedObject>, in graph: some ObjectGraphReading) -> [ManagedObject] {
        objects.filter { evaluate($0, in: graph) }
    }

    /// The predicate's format string.
    public var description: String { predicate.description }
}

extension FetchPredicate {
    /// Resolves the predicate's key paths against entity `entity` of `schema`.
    ///
    /// Keys match property names exactly; through a relationship, the destination entity's
    /// properties apply.
    /// - Throws: ``EngineError`` (`invalidPredicate`) for an unknown key (with a did-you-mean
    ///   hint), a key path that continues after an attribute, a modifier or collection operator
    ///   that needs a to-many relationship, a type mismatch, or an invalid regular expression;
    ///   the location is the column in the parsed text when known.
    /// - Precondition: `entity` is an index of `schema.entities`.
    public func bound(to schema: Schema, entity: EntityIndex) throws -> BoundPredicate {
        precondition(schema.infos.indices.contains(entity.rawValue), "\(entity) is not in the schema")
        try PredicateBinder.checkNestingDepth(self)
        let binder = PredicateBinder(schema: schema, entity: entity)
        return BoundPredicate(predicate: self, entity: entity, root: try binder.bind(self))
    }

    /// Resolves the predicate against the entity called `entityName`; see ``bound(to:entity:)``.
    ///
    /// - Throws: ``EngineError`` (`unknownName`) when the schema has no such entity, else as
    ///   ``bound(to:entity:)``.
    public func bound(to schema: Schema, entityNamed entityName: String) throws -> BoundPredicate {
        guard let entity = schema.entityIndex(named: entityName) else {
            throw EngineError(.unknownName, at: entityName, "the schema has no entity called \"\(entityName)\"",
                              hint: PredicateErrors.suggestion(for: entityName, among: schema.entities.map(\.name)))
        }
        return try bound(to: schema, entity: entity)
    }
}

/// The bound form of ``FetchPredicate``.
indirect enum BoundNode: Sendable {
    case constant(Bool)
    case comparison(BoundComparison)
    case not(BoundNode)
    case and([BoundNode])
    case or([BoundNode])
}

/// A comparison with resolved operands.
struct BoundComparison: Sendable {
    enum Quantifier: Sendable { case single, any, all, none }

    var quantifier: Quantifier
    var left: BoundOperand
    var op: FetchPredicate.Operator
    var right: BoundOperand
    var options: FetchPredicate.Options
    /// The compiled pattern when the right side of `LIKE`, `MATCHES` or a string operator is constant.
    var pattern: StringPattern?
}

/// A right-hand string prepared once: folded needle, `LIKE` pattern or regular expression.
enum StringPattern: Sendable {
    case needle(String)
    case like(LikePattern)
    case regex(MatchesPattern)
}

/// An operand with resolved key paths.
enum BoundOperand: Sendable {
    case constant(PredicateTerm)
    case list([PredicateTerm])
    case evaluatedObject
    case path(BoundPath)
}

/// A key path as property indices.
struct BoundPath: Sendable {
    enum Step: Sendable {
        case toOne(RelationshipIndex)
        case toMany(RelationshipIndex)
    }

    enum Terminal: Sendable {
        /// The value of an attribute of the last object reached.
        case attribute(AttributeIndex)
        /// The object reached itself (the path ends with a relationship).
        case object
    }

    /// Relationship hops from the evaluated object.
    var steps: [Step]
    var terminal: Terminal
    /// A collection operator and, for all but `@count`, the to-one hops and attribute of the
    /// value to aggregate, relative to the objects the steps reach.
    var aggregate: (op: FetchPredicate.CollectionOperator, steps: [RelationshipIndex], attribute: AttributeIndex)?
    /// The kind of the path's values.
    var kind: PredicateValueKind

    /// Whether the path has several values: it crosses a to-many relationship and does not aggregate.
    var isMultiValued: Bool {
        aggregate == nil && steps.contains { if case .toMany = $0 { true } else { false } }
    }
}
