/// Variable-length values (strings, binary data) of one attribute, packed into one byte arena.
///
/// Each row has a start offset and a length; a negative length means nil. Replaced values leave
/// garbage behind, which is compacted once it outweighs the live bytes.
package struct ByteColumn: Sendable {
    package private(set) var arena: [UInt8] = []
    package private(set) var starts: [Int] = []
    package private(set) var lengths: [Int32] = []
    private var garbage = 0

    package init() {}

    /// A column made in one piece, as a binary store decodes it: row `i` holds
    /// `arena[starts[i] ..< starts[i] + lengths[i]]`, or nil when `lengths[i]` is negative.
    ///
    /// The caller has checked every range against the arena; this is not re-checked.
    package init(arena: [UInt8], starts: [Int], lengths: [Int32]) {
        precondition(starts.count == lengths.count, "ByteColumn: starts and lengths differ in count")
        self.arena = arena
        self.starts = starts
        self.lengths = lengths
    }

    package var count: Int { lengths.count }

    package mutating func reserve(rows: Int, bytes: Int) {
        starts.reserveCapacity(rows)
        lengths.reserveCapacity(rows)
        arena.reserveCapacity(bytes)
    }

    /// Appends a row holding `bytes`, or nil.
    package mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else {
            starts.append(0)
            lengths.append(-1)
            return
        }
        starts.append(arena.count)
        lengths.append(Int32(clamping: bytes.count))
        arena.append(contentsOf: bytes)
    }

    /// Appends a row holding the UTF-8 of `string`, or nil.
    package mutating func append(string: String?) {
        guard var string else { return append(nil) }
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Replaces the bytes of `row`.
    package mutating func set(_ row: Int, _ bytes: UnsafeRawBufferPointer?) {
        if lengths[row] > 0 { garbage += Int(lengths[row]) }
        if let bytes {
            starts[row] = arena.count
            lengths[row] = Int32(clamping: bytes.count)
            arena.append(contentsOf: bytes)
        } else {
            starts[row] = 0
            lengths[row] = -1
        }
        if garbage > 1 << 20 && garbage > arena.count / 2 { compact() }
    }

    package mutating func set(_ row: Int, string: String?) {
        guard var string else { return set(row, nil) }
        string.withUTF8 { set(row, UnsafeRawBufferPointer($0)) }
    }

    package func isNil(_ row: Int) -> Bool { lengths[row] < 0 }

    /// Calls `body` with the bytes of `row`, or nil.
    @inlinable package func withBytes<R>(_ row: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let length = Int(lengths[row])
        if length < 0 { return try body(nil) }
        return try arena.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[starts[row] ..< starts[row] + length]))
        }
    }

    package func string(_ row: Int) -> String? {
        withBytes(row) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    package func bytes(_ row: Int) -> [UInt8]? {
        withBytes(row) { $0.map { Array($0) } }
    }

    /// Rewrites the arena with live bytes only.
    mutating func compact() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(arena.count - garbage)
        for row in lengths.indices where lengths[row] > 0 {
            let start = starts[row]
            starts[row] = fresh.count
            fresh.append(contentsOf: arena[start ..< start + Int(lengths[row])])
        }
        arena = fresh
        garbage = 0
    }
}
