import OutlineEngine

extension OutlineDocument {
    /// The items matching `query`, a predicate in Core Data's format-string syntax over the
    /// `Item` entity (`text CONTAINS[c] "milk" AND done == NO`), in document order.
    ///
    /// `variables` give the query's `$name`s their values.
    ///
    /// - Throws: ``OutlineEngine/EngineError`` `invalidPredicate` or `unknownName` with the
    ///   column of the mistake, or the item where evaluation stopped; ``OutlineError``
    ///   `invalidDocument` when some items are not under the root (``requireEveryItemUnderRoot()``).
    /// - Complexity: O(n) in the number of items, for queries whose work per item is bounded.
    public func find(_ query: String, variables: [String: FetchPredicate.Argument] = [:]) throws -> [ManagedObject] {
        try requireEveryItemUnderRoot()
        let request = try fetchRequest(query, variables: variables)
        let matches = Set(try context.fetch(request))
        guard !matches.isEmpty else { return [] }
        var ordered: [ManagedObject] = []
        ordered.reserveCapacity(matches.count)
        walk { candidate, _ in
            if matches.contains(candidate) { ordered.append(candidate) }
            return true
        }
        return ordered
    }

    /// The fetch of the items matching `query` with `variables` substituted: over the `Item`
    /// entity, with `children` indexed by `order` (`children[FIRST]` is the first child).
    ///
    /// - Throws: ``OutlineEngine/EngineError`` `invalidPredicate` naming the column of the query.
    public func fetchRequest(_ query: String, variables: [String: FetchPredicate.Argument] = [:]) throws -> FetchRequest {
        var predicate = try FetchPredicate(format: query)
        if !variables.isEmpty { predicate = try predicate.substituting(variables) }
        var request = FetchRequest(entityName: context.schema.entities[shape.item].name, predicate: predicate)
        request.indexOrdering = [context.schema[shape.item][shape.children].name: context.schema[shape.item][shape.order].name]
        return request
    }
}
