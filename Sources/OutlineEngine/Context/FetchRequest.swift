/// What to fetch: an entity, an optional predicate, a sort order, and a window.
public struct FetchRequest: Sendable {
    /// The entity whose objects are fetched.
    public var entityName: String
    /// The condition objects must meet; nil fetches every object of the entity.
    public var predicate: FetchPredicate?
    /// The order of the results, first descriptor first; empty keeps storage order.
    public var sortDescriptors: [FetchSortDescriptor]
    /// At most this many results (all when nil).
    public var fetchLimit: Int?
    /// Results to skip before the first one returned.
    public var fetchOffset: Int
    /// Whether objects of subentities count as objects of the entity.
    public var includesSubentities: Bool
    /// The work evaluating the predicate may do (and, separately, reading the sort keys);
    /// `nil` for ``BoundPredicate/defaultWorkLimit(objectCount:)`` of the entity's objects.
    public var workLimit: Int?
    /// For unordered to-many relationships, by name: the attribute that index operators
    /// (`children[FIRST]`) order their objects by (see ``FetchPredicate/bound(to:entity:indexOrdering:)``).
    public var indexOrdering: [String: String] = [:]

    /// A request for the objects of `entityName`, filtered by `predicate` (a predicate with
    /// `$variables` must have them substituted first), sorted, then windowed.
    public init(
        entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int? = nil, fetchOffset: Int = 0, includesSubentities: Bool = true, workLimit: Int? = nil
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesSubentities = includesSubentities
        self.workLimit = workLimit
    }

    /// A request whose predicate is parsed from Core Data's format-string syntax; arguments
    /// may be values, lists or objects (`parent == %@`).
    ///
    /// - Throws: ``EngineError`` `invalidPredicate` pointing at the column of the mistake.
    public init(entityName: String, format: String, _ arguments: FetchPredicate.Argument...) throws {
        self.init(entityName: entityName, predicate: try FetchPredicate(format: format, arguments: arguments))
    }
}

extension EditingContext {
    /// The live objects matching `request`, sorted by its descriptors (stable: ties keep storage order).
    ///
    /// - Throws: ``EngineError`` for an unknown entity, or a predicate or sort key that does not
    ///   fit the entity (with the column of the mistake), or an evaluation over the work limit
    ///   or a `MATCHES` pattern that cannot be decided (located at the object, `Item z105`).
    /// - Complexity: O(n) predicate evaluations over the entity's objects, plus O(m log m) to sort m results.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let entity = try entityIndex(request.entityName)
        var objects = graph.objects(ofEntity: entity, includingSubentities: request.includesSubentities)
        let name = { (object: ManagedObject) in "\(self.schema.infos[object.entity].name) \(self.objectID(of: object))" }
        if let predicate = request.predicate {
            objects = try predicate.bound(to: schema, entity: entity, indexOrdering: request.indexOrdering).filter(
                objects, in: graph, workLimit: request.workLimit, naming: name)
        }
        if !request.sortDescriptors.isEmpty {
            objects = try request.sortDescriptors.bound(to: schema, entity: entity).sorted(
                objects, in: graph, workLimit: request.workLimit, naming: name)
        }
        let start = min(max(request.fetchOffset, 0), objects.count)
        let end = request.fetchLimit.map { min(start + max($0, 0), objects.count) } ?? objects.count
        return start == 0 && end == objects.count ? objects : Array(objects[start ..< end])
    }

    /// The number of objects `request` would return.
    public func count(for request: FetchRequest) throws -> Int {
        try fetch(request).count
    }
}
