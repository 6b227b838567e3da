/// The entities of a schema derived from a store, and their hierarchy.
///
/// Entities are keyed by their upper-cased name. The concrete ones (object types) come first,
/// so their indices are the object-type indices; then relationship destinations without
/// objects, then entities only the version hashes name. Names take their case from the hashes
/// when these name the entity, else the spelling of the file.
///
/// The hierarchy comes from covers: an entity's cover is the set of concrete types it stands
/// for (itself when concrete, and every type a relationship to it refers to). An entity is
/// above another when its cover is a strict superset of the other's, or equal and it has no
/// objects while the other has, or equal, both without objects, and its name sorts first.
/// Each entity's parent is the closest entity above it. "Above" is a strict order, so the
/// parents form a forest.
struct XMLSchemaUniverse {
    private(set) var names: [String] = []
    private var keys: [String] = []
    private var indexByKey: [String: Int] = [:]
    private let concreteCount: Int
    private var covers: [Set<Int>] = []
    private(set) var parents: [Int?] = []
    private(set) var children: [[Int]] = []

    init(types: [String], hashNames: [String]) {
        var hashNameByKey: [String: String] = [:]
        for name in hashNames.sorted() { hashNameByKey[name.uppercased()] = hashNameByKey[name.uppercased()] ?? name }
        concreteCount = types.count
        for (i, written) in types.enumerated() {
            let key = written.uppercased()
            add(key, name: hashNameByKey[key] ?? written)
            covers[i].insert(i)
        }
        for name in hashNames.sorted() { add(name.uppercased(), name: name) }
    }

    var count: Int { names.count }

    func index(of key: String) -> Int? { indexByKey[key.uppercased()] }

    func isConcrete(_ entity: Int) -> Bool { entity < concreteCount }

    private mutating func add(_ key: String, name: String) {
        guard indexByKey[key] == nil else { return }
        indexByKey[key] = names.count
        keys.append(key)
        names.append(name)
        covers.append([])
    }

    /// Records that a relationship to `key` refers to objects of the concrete types `targets`.
    mutating func addDestination(_ key: String, targets: Set<Int>) {
        add(key, name: key)
        if let index = indexByKey[key] { covers[index].formUnion(targets) }
    }

    /// Whether `upper` is above `lower` in the hierarchy order.
    private func isAbove(_ upper: Int, _ lower: Int) -> Bool {
        guard upper != lower, !covers[lower].isEmpty, covers[lower].isSubset(of: covers[upper]) else { return false }
        if covers[upper].count > covers[lower].count { return true }
        guard !isConcrete(upper) else { return false }
        return isConcrete(lower) || names[upper].utf8.lexicographicallyPrecedes(names[lower].utf8)
    }

    mutating func buildHierarchy() {
        parents = [Int?](repeating: nil, count: count)
        children = [[Int]](repeating: [], count: count)
        for lower in 0 ..< count {
            let candidates = (0 ..< count).filter { isAbove($0, lower) }
            // The closest: the smallest cover; among equal covers, the lowest in name order.
            let closest = candidates.min { a, b in
                if covers[a].count != covers[b].count { return covers[a].count < covers[b].count }
                return names[b].utf8.lexicographicallyPrecedes(names[a].utf8)
            }
            parents[lower] = closest
            if let closest { children[closest].append(lower) }
        }
    }

    /// Every entity, each after its parent.
    var topDown: [Int] {
        var order: [Int] = []
        var stack = (0 ..< count).filter { parents[$0] == nil }.reversed().map { $0 }
        while let next = stack.popLast() {
            order.append(next)
            stack.append(contentsOf: children[next].reversed())
        }
        return order
    }

    /// The concrete entities at or below `entity`, in index order.
    func concreteBelow(_ entity: Int) -> [Int] {
        var result: [Int] = []
        var stack = [entity]
        while let next = stack.popLast() {
            if isConcrete(next) { result.append(next) }
            stack.append(contentsOf: children[next])
        }
        return result.sorted()
    }
}
