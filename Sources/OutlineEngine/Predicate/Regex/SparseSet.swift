/// A set of small integers with O(1) insertion, membership and clearing, in insertion order.
struct SparseSet {
    private var dense: [Int] = []
    private var sparse: [Int]

    init(capacity: Int) {
        sparse = [Int](repeating: 0, count: capacity)
        dense.reserveCapacity(capacity)
    }

    var elements: [Int] { dense }
    var count: Int { dense.count }
    var isEmpty: Bool { dense.isEmpty }

    /// Inserts `value`; `false` when it was already there.
    mutating func insert(_ value: Int) -> Bool {
        let slot = sparse[value]
        if slot < dense.count && dense[slot] == value { return false }
        sparse[value] = dense.count
        dense.append(value)
        return true
    }

    mutating func removeAll() { dense.removeAll(keepingCapacity: true) }
}
