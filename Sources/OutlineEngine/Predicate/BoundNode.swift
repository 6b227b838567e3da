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
    var left: BoundExpression
    var op: FetchPredicate.Operator
    var right: BoundExpression
    var options: FetchPredicate.Options
    /// The compiled pattern when the right side of `LIKE`, `MATCHES` or a string operator is constant.
    var pattern: StringPattern?
    /// The column of the right side in the parsed text, for messages about its pattern.
    var rightColumn: Int?
}

/// A right-hand string prepared once: folded needle, `LIKE` pattern or regular expression.
enum StringPattern: Sendable {
    case needle(PredicateNeedle)
    case like(LikePattern)
    case regex(PredicateRegex)
}

/// An expression with resolved key paths, variables and functions.
indirect enum BoundExpression: Sendable {
    case constant(PredicateTerm)
    /// A list literal; each element has one value.
    case list([BoundExpression])
    case evaluatedObject
    /// A `SUBQUERY` iteration variable, by slot.
    case variable(Int)
    /// A key path from the evaluated object (`nil`) or from the objects of another expression.
    case path(BoundExpression?, BoundPath)
    /// The objects of the collection for which the predicate holds, with the object in the slot.
    case subquery(BoundExpression, slot: Int, BoundNode)
    case function(FetchPredicate.Function, [BoundExpression])
    case arithmetic(BoundExpression, FetchPredicate.ArithmeticOperator, BoundExpression)
    case negated(BoundExpression)
    case cast(BoundExpression, String)
    /// One value of an ordered collection of values: `{1, 2, 3}[FIRST]`.
    case element(BoundExpression, FetchPredicate.IndexOperator)
    case conditional(BoundNode, BoundExpression, BoundExpression)
}

/// A key path as property indices.
struct BoundPath: Sendable {
    enum Step: Sendable {
        case toOne(RelationshipIndex)
        case toMany(RelationshipIndex)
        /// One object of a to-many relationship, for each object reached: `children[FIRST]`;
        /// an unordered relationship is first sorted by the attribute `orderBy` of its objects.
        case toManyAt(RelationshipIndex, FetchPredicate.IndexOperator, orderBy: AttributeIndex?)
    }

    enum Terminal: Sendable {
        /// The value of an attribute of the last object reached.
        case attribute(AttributeIndex)
        /// The object reached itself (the path ends with a relationship).
        case object
        /// The number of objects of to-many relationship `relationship` of each object reached: `children[SIZE]`.
        case size(RelationshipIndex)
    }

    enum Aggregate: Sendable {
        /// `@count`, or `[SIZE]` of a collection.
        case count
        /// `@sum`, `@avg`, `@min`, `@max`: to-one hops and the attribute of the values.
        case numeric(FetchPredicate.CollectionOperator, steps: [RelationshipIndex], attribute: AttributeIndex)
        /// An `@unionOf...` operator: the values of the key path after it.
        case union(distinct: Bool, steps: [Step], terminal: Terminal)
    }

    /// An index applied to the collection the path starts from (`SUBQUERY(...)[FIRST]`).
    var baseIndex: FetchPredicate.IndexOperator? = nil
    /// Relationship hops from the start.
    var steps: [Step]
    var terminal: Terminal
    /// A collection operator applied to the objects the steps reach.
    var aggregate: Aggregate?
    /// The kind of the path's values.
    var kind: PredicateValueKind
    /// The entity of the objects the path ends at, when it ends at objects.
    var entity: EntityIndex? = nil
    /// Whether the path has several values.
    var isMultiValued: Bool

    /// Whether the path reads only to-one relationships from the evaluated object.
    var isToOneOnly: Bool {
        baseIndex == nil && aggregate == nil && !isMultiValued && steps.allSatisfy { if case .toOne = $0 { true } else { false } }
    }
}
