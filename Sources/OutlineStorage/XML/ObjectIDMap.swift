/// Maps object id numbers (`zN`) to 64-bit values: a flat array while ids are dense, a
/// dictionary for the ids that would make the array sparse.
///
/// Core Data numbers objects from 102 upwards, so a store's ids are nearly always dense and
/// the flat array serves them all. An id joins the array when it is below
/// max(65,536, 8 × (objects so far + 1)), so a hostile id such as z9999999999 cannot make
/// the array huge; larger ids go to the dictionary.
struct ObjectIDMap {
    /// The value that marks an unused slot of the flat array.
    static let empty = UInt64.max

    private var dense: [UInt64] = []
    private var sparse: [UInt64: UInt64] = [:]
    private(set) var count = 0

    init(expectedMaxID: UInt64 = 0) {
        let limit = min(expectedMaxID, 1 << 16)
        dense = [UInt64](repeating: ObjectIDMap.empty, count: Int(limit) + 1)
    }

    /// Records `value` for `id`; returns false (recording nothing) when `id` is already present.
    mutating func insert(_ id: UInt64, _ value: UInt64) -> Bool {
        if id < UInt64(dense.count) {
            guard dense[Int(id)] == ObjectIDMap.empty, sparse.isEmpty || sparse[id] == nil else { return false }
            dense[Int(id)] = value
        } else if id < max(1 << 16, 8 * UInt64(count + 1)) {
            guard sparse[id] == nil else { return false }
            let newCount = max(Int(id) + 1, dense.count * 2)
            dense.append(contentsOf: repeatElement(ObjectIDMap.empty, count: newCount - dense.count))
            dense[Int(id)] = value
        } else {
            guard sparse.updateValue(value, forKey: id) == nil else { return false }
        }
        count += 1
        return true
    }

    /// The value recorded for `id`.
    @inline(__always)
    func value(_ id: UInt64) -> UInt64? {
        if id < UInt64(dense.count) {
            let value = dense[Int(id)]
            if value != ObjectIDMap.empty { return value }
        }
        return sparse.isEmpty ? nil : sparse[id]
    }
}
