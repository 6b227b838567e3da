/// One side of a comparison, or an operand inside an expression, once bound.
struct BoundSide {
    var expression: BoundExpression
    /// Several values: a to-many key path, a subquery, `mode(...)`.
    var isMultiValued = false
    /// A list literal; its elements are in ``elements``.
    var isList = false
    var elements: [BoundSide] = []
    /// The kind of the values; `nil` when unknown until evaluated (a `nil` constant, a list).
    var kind: PredicateValueKind?
    /// The entity of object values, when known.
    var entity: EntityIndex?
    /// How messages show it.
    var text: String
    /// For a collection: whether its elements have an order an index can use (list literals,
    /// ordered relationships, subqueries over them).
    var isOrdered = false

    init(_ expression: BoundExpression, multi: Bool = false, kind: PredicateValueKind?, entity: EntityIndex? = nil, text: String) {
        self.expression = expression
        self.isMultiValued = multi
        self.kind = kind
        self.entity = entity
        self.text = text
    }
}
