/// Finds names among a few candidates by their raw bytes, ignoring ASCII case, without
/// making a `String` per lookup.
///
/// Names in a store repeat in the same order object after object, so the candidate after the
/// last match is tried first; a miss falls back to a linear scan.
struct NameLookup<Value> {
    private var names: [[UInt8]] = []
    private var values: [Value] = []
    private var next = 0

    /// Adds a candidate; `name` is matched ignoring ASCII case.
    mutating func add(_ name: String, _ value: Value) {
        names.append(Array(name.utf8).map(NameLookup.lower))
        values.append(value)
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// The value of the candidate spelled `bytes` (ignoring ASCII case).
    mutating func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let count = names.count
        guard count > 0 else { return nil }
        let first = next < count ? next : 0
        var k = first
        repeat {
            if matches(names[k], bytes) {
                next = k + 1
                return values[k]
            }
            k = k + 1 == count ? 0 : k + 1
        } while k != first
        return nil
    }

    @inline(__always)
    private func matches(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        for i in 0 ..< name.count where name[i] != NameLookup.lower(bytes[i]) { return false }
        return true
    }
}
