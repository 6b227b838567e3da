/// Variable-length values (strings, binary data) of one attribute, packed into byte chunks.
///
/// Each row has a location and a length; a negative length means nil. A location is the index
/// of a chunk in the high 32 bits and an offset in the chunk in the low 32 bits; every value
/// lies within one chunk. Chunks hold about ``chunkCapacity`` bytes (one value larger than that
/// gets a chunk of its own), so that a write after a snapshot copies one chunk rather than the
/// whole column (40 MB of text for 1,000,000 outline items). Replaced values leave garbage
/// behind, which is compacted once it outweighs the live bytes.
///
/// A chunk either owns its bytes or shares read-only bytes kept by someone else
/// (``SharedBytes``: a binary store's inflated body, so that opening does not copy the text).
/// Shared chunks are never written: new values go to an owned chunk after them.
package struct ByteColumn: Sendable {
    /// The bytes, in chunks; values are appended to the last one when it is owned.
    package private(set) var chunks: [ByteChunk] = []
    /// Per row: chunk index << 32 | offset in the chunk (0 for nil).
    package private(set) var starts = PagedArray<Int>()
    /// Per row: the length in bytes, or -1 for nil.
    package private(set) var lengths = PagedArray<Int32>()
    private var garbage = 0
    /// The bytes held in all chunks, live or not.
    package private(set) var byteCount = 0

    /// The size a chunk is filled to before a new one is started.
    package static let chunkCapacity = 1 << 20

    package init() {}

    /// A column made in one piece, as a binary store decodes it: row `i` holds the bytes at
    /// `starts[i]` (a location, see ``starts``) of `lengths[i]` bytes in `chunks`, or nil when
    /// `lengths[i]` is negative.
    ///
    /// The caller has checked every location against the chunks; this is not re-checked.
    package init(chunks: [ByteChunk], starts: PagedArray<Int>, lengths: PagedArray<Int32>) {
        precondition(starts.count == lengths.count, "ByteColumn: starts and lengths differ in count")
        self.chunks = chunks
        self.starts = starts
        self.lengths = lengths
        byteCount = chunks.reduce(0) { $0 + $1.count }
    }

    /// A column of the rows `arena[starts[i] ..< starts[i] + lengths[i]]` (nil when the length
    /// is negative), with plain offsets into one arena; the values are copied into chunks.
    package init(arena: [UInt8], starts: [Int], lengths: [Int32]) {
        precondition(starts.count == lengths.count, "ByteColumn: starts and lengths differ in count")
        arena.withUnsafeBytes { bytes in
            for (start, length) in zip(starts, lengths) {
                append(length < 0 ? nil : UnsafeRawBufferPointer(rebasing: bytes[start ..< start + Int(length)]))
            }
        }
    }

    package var count: Int { lengths.count }

    package mutating func reserve(rows: Int, bytes: Int) {
        starts.reserveCapacity(rows)
        lengths.reserveCapacity(rows)
        if chunks.isEmpty { chunks.append(ByteChunk()) }
        if chunks.count == 1 && chunks[0].shared == nil { chunks[0].owned.reserveCapacity(min(bytes, Self.chunkCapacity)) }
    }

    /// The location of a value at `offset` in chunk `chunk`.
    @inlinable package static func location(chunk: Int, offset: Int) -> Int { chunk << 32 | offset }

    /// Stores `bytes` at the end of the last chunk (or in a new one) and returns their location.
    private mutating func store(_ bytes: UnsafeRawBufferPointer) -> Int {
        if chunks.isEmpty || chunks[chunks.count - 1].shared != nil
            || (chunks[chunks.count - 1].count + bytes.count > Self.chunkCapacity && chunks[chunks.count - 1].count > 0)
        {
            var chunk = ByteChunk()
            chunk.owned.reserveCapacity(chunks.isEmpty ? bytes.count : max(bytes.count, Self.chunkCapacity))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        let offset = chunks[last].owned.count
        chunks[last].owned.append(contentsOf: bytes)
        byteCount += bytes.count
        return Self.location(chunk: last, offset: offset)
    }

    /// Appends a row holding `bytes`, or nil.
    package mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else {
            starts.append(0)
            lengths.append(-1)
            return
        }
        starts.append(bytes.isEmpty ? 0 : store(bytes))
        lengths.append(Int32(clamping: bytes.count))
    }

    /// Appends `count` nil rows.
    package mutating func appendNils(_ count: Int) {
        starts.append(repeating: 0, count: count)
        lengths.append(repeating: -1, count: count)
    }

    /// Removes the last `count` rows (their bytes become garbage).
    package mutating func removeLast(_ count: Int) {
        for row in lengths.count - count ..< lengths.count where lengths[row] > 0 { garbage += Int(lengths[row]) }
        starts.removeLast(count)
        lengths.removeLast(count)
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
            starts[row] = bytes.isEmpty ? 0 : store(bytes)
            lengths[row] = Int32(clamping: bytes.count)
        } else {
            starts[row] = 0
            lengths[row] = -1
        }
        if garbage > 1 << 20 && garbage > byteCount / 2 { compact() }
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
        if length == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try withBytes(at: starts[row], length: length, body)
    }

    /// Calls `body` with the `length` bytes at `location` (see ``starts``).
    @inlinable package func withBytes<R>(at location: Int, length: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let offset = location & 0xFFFF_FFFF
        return try chunks[location >> 32].withUnsafeBytes { chunk in
            try body(UnsafeRawBufferPointer(rebasing: chunk[offset ..< offset + length]))
        }
    }

    package func string(_ row: Int) -> String? {
        withBytes(row) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    package func bytes(_ row: Int) -> [UInt8]? {
        withBytes(row) { $0.map { Array($0) } }
    }

    /// Calls `body` with the bytes of the non-empty values of `rows`, in row order, joining
    /// values that lie back to back in the same chunk into one call (a column written in row
    /// order comes out in a few large pieces; edited values and gaps only cut it more often).
    ///
    /// - Complexity: O(rows).
    package func forEachSpan(in rows: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var pending = -1  // the location where the pending span starts, -1 when none
        var pendingLength = 0
        try PagedArray<Int>.forEachPiece(of: starts, and: lengths, in: rows) { _, starts, lengths in
            for i in 0 ..< lengths.count {
                let length = Int(lengths[i])
                guard length > 0 else { continue }
                let location = starts[i]
                if pending >= 0 && location == pending + pendingLength && (location & 0xFFFF_FFFF) >= pendingLength {
                    pendingLength += length
                    continue
                }
                if pending >= 0 { try withBytes(at: pending, length: pendingLength, body) }
                pending = location
                pendingLength = length
            }
        }
        if pending >= 0 { try withBytes(at: pending, length: pendingLength, body) }
    }

    /// Rewrites the chunks with live bytes only.
    mutating func compact() {
        let old = self
        self = ByteColumn()
        reserve(rows: old.count, bytes: old.byteCount - old.garbage)
        for row in 0 ..< old.count {
            old.withBytes(row) { append($0) }
        }
    }
}

/// One chunk of a ``ByteColumn``: bytes it owns, or read-only bytes it shares.
package struct ByteChunk: Sendable {
    /// The bytes, when the chunk owns them (empty for a shared chunk).
    package var owned = ContiguousArray<UInt8>()
    /// The bytes, when shared.
    package let shared: SharedBytes?

    /// An empty chunk owning its bytes.
    package init() { shared = nil }

    /// A chunk sharing `bytes`, never written.
    package init(sharing bytes: SharedBytes) { shared = bytes }

    package var count: Int { shared?.bytes.count ?? owned.count }

    @inlinable package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let shared { return try body(shared.bytes) }
        return try owned.withUnsafeBytes(body)
    }
}

/// Read-only bytes that chunks of ``ByteColumn`` share without owning them: memory that
/// `keeper` keeps valid (a binary store's inflated body) for as long as this lives.
///
/// When the last chunk sharing them is gone, `done` is called (to give their memory back).
// @unchecked Sendable: `bytes` are never written while this exists; `keeper` is only retained.
package final class SharedBytes: @unchecked Sendable {
    package let bytes: UnsafeRawBufferPointer
    private let keeper: AnyObject?
    private let done: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    /// `bytes`, valid as long as `keeper` lives (or until `done` when nil); `done` is called
    /// with them when the last chunk sharing them is gone.
    package init(_ bytes: UnsafeRawBufferPointer, keeper: AnyObject?, done: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) {
        self.bytes = bytes
        self.keeper = keeper
        self.done = done
    }

    deinit { done?(bytes) }
}
