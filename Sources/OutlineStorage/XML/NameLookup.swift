/// Finds names among a few candidates by their raw bytes, ignoring ASCII case, without
/// making a `String` per lookup.
///
/// Names in a store repeat in the same order object after object, so the candidate that
/// followed the last match the time before is tried first, compared a word at a time as the
/// model spells it and in upper case (as Core Data writes entity names); a miss falls back to
/// a scan ignoring case. The candidates' bytes lie in one buffer that lookups read directly: no
/// array to retain, release or check per comparison (a million objects ask several times each).
struct NameLookup<Value> {
    /// The names, read-only once made; ``add(_:_:)`` makes a new one.
    private var table = NameTable(names: [])
    private var values: [Value] = []
    /// The candidate found last, or -1.
    private var last = -1
    /// Per candidate: the candidate found after it the last time (at first, the next one).
    private var successors: [Int] = []

    /// Adds a candidate; `name` is matched ignoring ASCII case.
    mutating func add(_ name: String, _ value: Value) {
        table = NameTable(names: table.names + [Array(name.utf8)])
        values.append(value)
        successors.append(successors.count + 1)
    }

    /// The value of the candidate spelled `name` (ignoring ASCII case).
    mutating func find(_ name: UnsafeBufferPointer<UInt8>) -> Value? {
        let count = values.count
        guard count > 0 else { return nil }
        var first = last < 0 ? 0 : successors[last]
        if first >= count { first = 0 }
        let found: Int
        if table.spells(first, name) {
            found = first
        } else if let scanned = table.scan(from: first, name) {
            found = scanned
        } else {
            return nil
        }
        // Written only when it changes: a write checks the array's uniqueness.
        if last >= 0 && successors[last] != found { successors[last] = found }
        last = found
        return values[found]
    }
}

/// The names of a ``NameLookup``, each as spelled, in upper case and in lower case, in one
/// buffer allocated once.
private final class NameTable {
    let names: [[UInt8]]
    /// Per name: where its three spellings start in `bytes` (as spelled, upper, lower case).
    private let starts: UnsafeMutablePointer<Int>
    private let lengths: UnsafeMutablePointer<Int>
    private let bytes: UnsafeMutableRawPointer
    private let count: Int

    init(names: [[UInt8]]) {
        self.names = names
        count = names.count
        starts = .allocate(capacity: max(count, 1))
        lengths = .allocate(capacity: max(count, 1))
        bytes = .allocate(byteCount: max(3 * names.reduce(0) { $0 + $1.count }, 1), alignment: 8)
        var offset = 0
        for (k, name) in names.enumerated() {
            starts[k] = offset
            lengths[k] = name.count
            for (i, byte) in name.enumerated() {
                bytes.storeBytes(of: byte, toByteOffset: offset + i, as: UInt8.self)
                bytes.storeBytes(of: byte >= 0x61 && byte <= 0x7A ? byte & 0xDF : byte, toByteOffset: offset + name.count + i, as: UInt8.self)
                bytes.storeBytes(of: Self.lowercased(byte), toByteOffset: offset + 2 * name.count + i, as: UInt8.self)
            }
            offset += 3 * name.count
        }
    }

    deinit {
        starts.deallocate()
        lengths.deallocate()
        bytes.deallocate()
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `name` is name `k` exactly as spelled or in upper case.
    @inline(__always)
    func spells(_ k: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = lengths[k]
        guard length == name.count, length > 0, let given = name.baseAddress else { return false }
        let spelled = bytes + starts[k]
        return Self.equal(spelled, given, length) || Self.equal(spelled + length, given, length)
    }

    /// The first name from `first` on (wrapping around) that `name` spells, ignoring ASCII case.
    func scan(from first: Int, _ name: UnsafeBufferPointer<UInt8>) -> Int? {
        var k = first
        repeat {
            if lengths[k] == name.count && matchesIgnoringCase(k, name) { return k }
            k = k + 1 == count ? 0 : k + 1
        } while k != first
        return nil
    }

    private func matchesIgnoringCase(_ k: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = bytes + starts[k] + 2 * lengths[k]
        for i in 0 ..< name.count where lower.load(fromByteOffset: i, as: UInt8.self) != Self.lowercased(name[i]) { return false }
        return true
    }

    /// Whether the `count` bytes at `a` and `b` are equal, compared eight or four at a time.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let b = UnsafeRawPointer(b)
        if count >= 8 {
            var i = 0
            while i &+ 8 <= count {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i &+= 8
            }
            return i == count
                || a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        if count >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        }
        var i = 0
        while i < count {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i &+= 1
        }
        return true
    }
}
