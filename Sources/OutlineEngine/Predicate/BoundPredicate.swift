import Foundation

/// A predicate resolved against one entity of a schema, ready to evaluate many objects.
///
/// Binding (``FetchPredicate/bound(to:entity:indexOrdering:)``) looks every key up once, checks the
/// comparisons' types, and compiles `LIKE` and `MATCHES` patterns that are constants, so that
/// ``evaluate(_:in:workLimit:)`` only reads the graph by property index.
///
/// Semantics, following Core Data and Foundation:
/// - A key path that crosses a to-many relationship has several values. Without a modifier
///   the comparison is true when any value satisfies it (`tags.name == "x"` means
///   `ANY tags.name == "x"`); `ALL` and `NONE` are true for an empty relationship.
/// - Key paths have set semantics, as in Core Data: following a relationship from several
///   objects reaches each object once (`parent.children.parent.children` visits every
///   sibling once, not once per path to it).
/// - `nil == nil` is true; `nil` compared with `<`, `>`, `BETWEEN` or a string operator is false.
/// - Numbers compare across integer, double, decimal and boolean attributes.
/// - Comparing values that can never match (a string attribute with a number, a date with a
///   string, ordering UUIDs, ...) is an error when binding, not a silent `false`.
/// - Every evaluation has a work budget (objects visited, characters compared, regular
///   expression steps); a predicate that needs more fails with ``EngineError`` naming the
///   object it was evaluating, instead of running for hours or giving a partial answer.
public struct BoundPredicate: Sendable, CustomStringConvertible {
    /// The predicate as written.
    public let predicate: FetchPredicate
    /// The index of the entity in ``Schema/entities`` whose objects (and subentities' objects)
    /// the predicate evaluates.
    public let entity: EntityIndex
    let root: BoundNode
    /// How many variable slots (`SUBQUERY` iteration variables) evaluation needs.
    let slotCount: Int
    /// How deep the predicate's tree is, which decides where evaluation recurses (``PredicateStack``).
    let depth: Int

    /// The work one evaluation of `objectCount` objects may do by default: 100,000,000 units
    /// plus 10,000 per object. A unit is one object visited, one value read, one character
    /// compared or one step of a regular expression, so the limit is reached after seconds,
    /// not hours, while a predicate that does a bounded amount of work per object never reaches it.
    public static func defaultWorkLimit(objectCount: Int) -> Int {
        let (perObject, overflow) = objectCount.multipliedReportingOverflow(by: 10_000)
        return overflow ? Int.max : 100_000_000.addingReportingOverflow(perObject).partialValue
    }

    /// The steps one `MATCHES` test may take with a pattern that has backreferences before it
    /// fails with an error: 1,000,000. Other patterns are matched in polynomial time (linear
    /// without lookaround, atomic groups and possessive quantifiers) and only count towards
    /// the work limit.
    public static let backtrackingStepLimit = 1_000_000

    /// Whether `object` satisfies the predicate, reading `graph` through ``ObjectGraphReading``.
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) when the evaluation needs more than
    ///   `workLimit` units of work (see ``defaultWorkLimit(objectCount:)``), or a `MATCHES`
    ///   pattern cannot be decided within ``backtrackingStepLimit`` steps or, when it comes
    ///   from a key path, does not compile; the location names the object.
    /// - Precondition: `object` is of the bound entity or one of its subentities.
    /// - Complexity: proportional to the number of objects the key paths reach; never
    ///   recursive on the data.
    public func evaluate(_ object: ManagedObject, in graph: some ObjectGraphReading, workLimit: Int? = nil) throws -> Bool {
        try filter([object], in: graph, workLimit: workLimit).count == 1
    }

    /// The objects of `objects` that satisfy the predicate, in their order.
    ///
    /// - Parameters:
    ///   - objects: objects of the bound entity (or its subentities) in `graph`.
    ///   - graph: the graph or snapshot the objects are read from.
    ///   - workLimit: the work all the evaluations may do together; by default
    ///     ``defaultWorkLimit(objectCount:)`` of the number of objects.
    /// - Throws: as ``evaluate(_:in:workLimit:)``, naming the first object whose evaluation failed.
    public func filter(
        _ objects: some Collection<ManagedObject>, in graph: some ObjectGraphReading,
        workLimit: Int? = nil
    ) throws -> [ManagedObject] {
        try filter(objects, in: graph, workLimit: workLimit) { object in
            let info = graph.schema.infos[object.entity]
            return "\(info.name) row \(object.row)"
        }
    }

    /// ``filter(_:in:workLimit:)`` naming a failing object with `name` (an editing context
    /// names it by its object ID).
    func filter(
        _ objects: some Collection<ManagedObject>, in graph: some ObjectGraphReading, workLimit: Int?,
        naming name: (ManagedObject) -> String
    ) throws -> [ManagedObject] {
        let context = PredicateEvaluationContext(workLimit: workLimit ?? Self.defaultWorkLimit(objectCount: objects.count), slotCount: slotCount)
        return try PredicateStack.run(depth: depth) {
            var result: [ManagedObject] = []
            for object in objects {
                precondition(
                    graph.schema.infos.indices.contains(object.entity.rawValue) && graph.schema.infos[object.entity].isKind(of: entity),
                    "the object's entity is not the entity the predicate was bound to")
                do {
                    if try PredicateEvaluator(graph: graph, object: object, context: context).evaluate(root) { result.append(object) }
                } catch let failure as PredicateEvaluationFailure {
                    throw failure.error(naming: name(object))
                }
            }
            return result
        }
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
    ///   hint), a key path that continues after an attribute, a modifier, collection operator
    ///   or index that needs a to-many relationship, a type mismatch, a variable without a
    ///   value, or an invalid or unsupported regular expression; the location is the column
    ///   in the parsed text when known.
    /// - Parameters:
    ///   - schema: the schema of the graphs the predicate will be evaluated on.
    ///   - entity: the entity of the objects it will be evaluated on.
    ///   - indexOrdering: for unordered to-many relationships, by name, the attribute
    ///     of their objects that `[FIRST]`, `[LAST]` and `[n]` order them by (an outline's
    ///     `children` by `order`). Indexing an unordered relationship without one is an error:
    ///     Foundation would pick an arbitrary object.
    /// - Precondition: `entity` is an index of `schema.entities`.
    public func bound(to schema: Schema, entity: EntityIndex, indexOrdering: [String: String] = [:]) throws -> BoundPredicate {
        precondition(schema.infos.indices.contains(entity.rawValue), "\(entity) is not in the schema")
        let depth = try PredicateTree.checkNestingDepth(self)
        var binder = PredicateBinder(schema: schema, entity: entity)
        binder.indexOrdering = indexOrdering
        let root = try PredicateStack.run(depth: depth) { try binder.bind(self) }
        return BoundPredicate(predicate: self, entity: entity, root: root, slotCount: binder.scope.slotCount, depth: depth)
    }

    /// Resolves the predicate against the entity called `entityName`; see ``bound(to:entity:indexOrdering:)``.
    ///
    /// - Throws: ``EngineError`` (`unknownName`) when the schema has no such entity, else as
    ///   ``bound(to:entity:indexOrdering:)``.
    public func bound(to schema: Schema, entityNamed entityName: String) throws -> BoundPredicate {
        guard let entity = schema.entityIndex(named: entityName) else {
            throw EngineError(
                .unknownName, at: entityName, "the schema has no entity called \"\(entityName)\"",
                hint: PredicateErrors.suggestion(for: entityName, among: schema.entities.map(\.name)))
        }
        return try bound(to: schema, entity: entity)
    }
}
