import Foundation

/// Sort descriptors resolved against one entity: a stable comparator for fetch results.
///
/// Order: `nil` before any value; numbers across integer, double, decimal and boolean
/// attributes by value; strings with Foundation's `compare(_:options:)` (case-insensitive when
/// asked); dates in time; UUIDs by their string; binary data by bytes. Descending descriptors
/// reverse all of it, `nil` included.
public struct BoundSortDescriptors: Sendable {
    /// The descriptors, most significant first.
    public let descriptors: [FetchSortDescriptor]
    /// The index of the entity in ``Schema/entities`` whose objects are sorted.
    public let entity: EntityIndex
    let paths: [BoundPath]

    /// The order of `a` and `b` under the descriptors (`.orderedSame` when all keys tie).
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) when reading the keys needs more work
    ///   than ``BoundPredicate/defaultWorkLimit(objectCount:)`` allows for two objects.
    public func compare(_ a: ManagedObject, _ b: ManagedObject, in graph: some ObjectGraphReading) throws -> ComparisonResult {
        let keys = try sortKeys(of: [a, b], in: graph, workLimit: nil)
        return compareKeys(keys[0], keys[1])
    }

    /// `objects` sorted by the descriptors; objects whose keys all tie keep their order.
    ///
    /// - Parameters:
    ///   - objects: objects of the bound entity (or its subentities) in `graph`.
    ///   - graph: the graph or snapshot the objects are read from.
    ///   - workLimit: the work reading every object's keys may do; by default
    ///     ``BoundPredicate/defaultWorkLimit(objectCount:)`` of the number of objects.
    /// - Throws: ``EngineError`` (`invalidPredicate`) naming the object whose keys were being
    ///   read when the work limit was reached (keys through long to-many relationships with
    ///   collection operators).
    /// - Complexity: O(n log n) comparisons; each object's keys are read from the graph once.
    public func sorted(_ objects: some Sequence<ManagedObject>, in graph: some ObjectGraphReading, workLimit: Int? = nil) throws -> [ManagedObject] {
        try sorted(objects, in: graph, workLimit: workLimit) { "\(graph.schema.infos[$0.entity].name) row \($0.row)" }
    }

    /// ``sorted(_:in:workLimit:)`` naming a failing object with `name`.
    func sorted(
        _ objects: some Sequence<ManagedObject>, in graph: some ObjectGraphReading, workLimit: Int?,
        naming name: (ManagedObject) -> String
    ) throws -> [ManagedObject] {
        let objects = Array(objects)
        let keys = try sortKeys(of: objects, in: graph, workLimit: workLimit, naming: name)
        let order = objects.indices.sorted { i, j in
            switch compareKeys(keys[i], keys[j]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: i < j
            }
        }
        return order.map { objects[$0] }
    }

    func sortKeys(
        of objects: [ManagedObject], in graph: some ObjectGraphReading, workLimit: Int?,
        naming name: (ManagedObject) -> String = { "\($0)" }
    ) throws -> [[PredicateTerm]] {
        let context = PredicateEvaluationContext(workLimit: workLimit ?? BoundPredicate.defaultWorkLimit(objectCount: objects.count), slotCount: 0)
        return try objects.map { object in
            let evaluator = PredicateEvaluator(graph: graph, object: object, context: context)
            do {
                return try paths.map { try evaluator.single(of: .path(nil, $0)) }
            } catch let failure as PredicateEvaluationFailure {
                throw failure.error(naming: name(object))
            }
        }
    }

    func compareKeys(_ a: [PredicateTerm], _ b: [PredicateTerm]) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            let options: FetchPredicate.Options = descriptor.caseInsensitive ? .caseInsensitive : []
            let result = Self.sortOrder(a[index], b[index], options: options)
            if result != .orderedSame {
                return descriptor.ascending ? result : (result == .orderedAscending ? .orderedDescending : .orderedAscending)
            }
        }
        return .orderedSame
    }

    /// A total order on terms for sorting.
    static func sortOrder(_ a: PredicateTerm, _ b: PredicateTerm, options: FetchPredicate.Options) -> ComparisonResult {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.value(let x), .value(let y)):
            if let r = PredicateComparator.order(x, y, options: options) { return r }
            switch (x, y) {
            case (.uuid(let u), .uuid(let v)): return ordered(u.uuidString, v.uuidString)
            case (.binary(let d), .binary(let e)):
                return d == e ? .orderedSame : d.lexicographicallyPrecedes(e) ? .orderedAscending : .orderedDescending
            default:
                // Different kinds, or NaN: by kind, NaN before other numbers.
                let rx = rank(x)
                let ry = rank(y)
                return rx != ry ? ordered(rx, ry) : ordered(isNaN(y) ? 1 : 0, isNaN(x) ? 1 : 0)
            }
        case (.object(let x), .object(let y)): return ordered(x, y)
        case (.object, _): return .orderedDescending
        case (_, .object): return .orderedAscending
        }
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
    }

    private static func isNaN(_ v: Value) -> Bool {
        if case .double(let d) = v { return d.isNaN }
        return false
    }

    private static func rank(_ v: Value) -> Int {
        switch v {
        case .integer, .double, .decimal, .boolean: 0
        case .string: 1
        case .date: 2
        case .uuid: 3
        case .binary: 4
        }
    }
}

extension Array where Element == FetchSortDescriptor {
    /// Resolves the descriptors' key paths against entity `entity` of `schema`.
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) for an unknown key (with a did-you-mean
    ///   hint), a key path with several values (through a to-many relationship without a
    ///   collection operator), or one that ends at a relationship.
    /// - Precondition: `entity` is an index of `schema.entities`.
    public func bound(to schema: Schema, entity: EntityIndex) throws -> BoundSortDescriptors {
        precondition(schema.infos.indices.contains(entity.rawValue), "\(entity) is not in the schema")
        let binder = PredicateBinder(schema: schema, entity: entity)
        let paths = try PredicateErrors.inSortKeys {
            try map { descriptor -> BoundPath in
                let path = try binder.resolve(descriptor.keyPath)
                if path.isMultiValued {
                    throw PredicateErrors.error(
                        column: descriptor.keyPath.column(of: 0), "cannot sort by \"\(descriptor.keyPath)\": it has several values",
                        hint: "Sort by a key path through to-one relationships, or count with @count.")
                }
                if path.kind == .object {
                    throw PredicateErrors.error(
                        column: descriptor.keyPath.column(of: 0), "cannot sort by \"\(descriptor.keyPath)\": it is a relationship, not a value",
                        hint: "Sort by an attribute of the related object, as in \(descriptor.keyPath).order.")
                }
                return path
            }
        }
        return BoundSortDescriptors(descriptors: self, entity: entity, paths: paths)
    }
}
