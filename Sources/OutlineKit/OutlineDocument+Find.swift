import OutlineEngine

extension OutlineDocument {
    /// The items matching `query`, a predicate in Core Data's format-string syntax over the
    /// `Item` entity (`text CONTAINS[c] "milk" AND done == NO`), in document order.
    ///
    /// - Throws: ``OutlineEngine/EngineError`` `invalidPredicate` or `unknownName` with the
    ///   column of the mistake; ``OutlineError`` `invalidDocument` when some items are not
    ///   under the root (``requireEveryItemUnderRoot()``).
    /// - Complexity: O(n) in the number of items.
    public func find(_ query: String) throws -> [ManagedObject] {
        try requireEveryItemUnderRoot()
        let request = FetchRequest(entityName: context.schema.entities[shape.item].name,
                                   predicate: try FetchPredicate(format: query))
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
}
