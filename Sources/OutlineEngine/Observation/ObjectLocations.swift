/// A map from objects to small integers (the chunk of a ``RowList`` holding each object's
/// row): an open-addressing table keyed by the object handle, with linear probing and
/// backward-shift deletion.
///
/// A `Dictionary` hashes every handle with SipHash; expanding an item with 10,000 children
/// puts 10,000 rows into the map at once, and that hashing was most of its cost. Handles are
/// small integers already, so a multiplicative (Fibonacci) hash spreads them well enough.
///
/// - Complexity: reads, writes and removals O(1) on average; the table stays at most 3/4 full.
struct ObjectLocations {
    /// The handle's raw value plus one in each used slot; 0 in each free one.
    private var keys: [UInt64] = []
    private var values: [Int] = []
    /// log2 of the number of slots (0 while there are none).
    private var bits = 0
    /// The number of objects in the map.
    private(set) var count = 0

    private var mask: Int { keys.count - 1 }

    /// The slot a key hashes to.
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The slot holding `key`, or the free slot where it would go.
    private func slot(of key: UInt64) -> Int {
        var index = home(key)
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        return index
    }

    /// The value of `object`, or nil; setting nil removes it.
    subscript(object: ManagedObject) -> Int? {
        get {
            guard count > 0 else { return nil }
            let index = slot(of: object.raw &+ 1)
            return keys[index] == 0 ? nil : values[index]
        }
        set {
            if let newValue { insert(object.raw &+ 1, newValue) } else { remove(object.raw &+ 1) }
        }
    }

    private mutating func insert(_ key: UInt64, _ value: Int) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let index = slot(of: key)
        if keys[index] == 0 {
            keys[index] = key
            count += 1
        }
        values[index] = value
    }

    private mutating func remove(_ key: UInt64) {
        guard count > 0 else { return }
        var hole = slot(of: key)
        guard keys[hole] != 0 else { return }
        // Shift back each later key of the run that may live in the hole: one whose home is
        // not between the hole and its slot (cyclically), so that every key stays reachable
        // from its home without passing a free slot.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let key = keys[next]
            if (next - home(key)) & mask >= (next - hole) & mask {
                keys[hole] = key
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        count -= 1
    }

    /// Doubles the slots (16 at first) and puts every key in again.
    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        bits = Swift.max(bits + 1, 4)
        keys = Array(repeating: 0, count: 1 << bits)
        values = Array(repeating: 0, count: 1 << bits)
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            let index = slot(of: key)
            keys[index] = key
            values[index] = value
        }
    }
}
