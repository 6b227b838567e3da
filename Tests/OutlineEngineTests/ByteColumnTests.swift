import Foundation
import Testing

@testable import OutlineEngine

/// Strings and data in chunks: values never straddle a chunk, and a write after a copy
/// copies one chunk.
@Suite struct ByteColumnTests {
    /// A value of `length` bytes, all `byte`.
    static func value(_ byte: UInt8, _ length: Int) -> [UInt8] { [UInt8](repeating: byte, count: length) }

    static func append(_ bytes: [UInt8]?, to column: inout ByteColumn) {
        if let bytes { bytes.withUnsafeBytes { column.append($0) } } else { column.append(nil) }
    }

    @Test func valuesFillChunksWithoutStraddlingThem() {
        var column = ByteColumn()
        let length = ByteColumn.chunkCapacity / 3 + 1
        for i in 0 ..< 7 { Self.append(Self.value(UInt8(i), length), to: &column) }
        Self.append(nil, to: &column)
        Self.append([], to: &column)
        Self.append(Self.value(9, 2 * ByteColumn.chunkCapacity), to: &column)
        #expect(column.chunks.count == 5, "two values per chunk, then one large value alone")
        for i in 0 ..< 7 { #expect(column.bytes(i) == Self.value(UInt8(i), length)) }
        #expect(column.bytes(7) == nil && column.bytes(8) == [] && column.bytes(9) == Self.value(9, 2 * ByteColumn.chunkCapacity))
        let (bytes, spans) = Self.spans(of: column, in: 0 ..< 10)
        #expect(bytes == (0 ..< 10).flatMap { column.bytes($0) ?? [] })
        #expect(spans == 5, "one span per chunk")
    }

    /// The bytes `forEachSpan(in:)` gives for `rows`, joined, and how many spans it gave.
    static func spans(of column: ByteColumn, in rows: Range<Int>) -> (bytes: [UInt8], spans: Int) {
        var bytes: [UInt8] = []
        var spans = 0
        column.forEachSpan(in: rows) { span in
            bytes += span
            spans += 1
        }
        return (bytes, spans)
    }

    @Test func spansJoinValuesThatLieBackToBackAndSplitElsewhere() {
        var column = ByteColumn()
        for i in 0 ..< 10 { Self.append(Self.value(UInt8(i), 100), to: &column) }
        #expect(Self.spans(of: column, in: 0 ..< 10).spans == 1)
        #expect(Self.spans(of: column, in: 3 ..< 7) == ((3 ..< 7).flatMap { Self.value(UInt8($0), 100) }, 1))
        // Row 4 edited: its new value lies after row 9, which cuts the arena in three.
        Self.value(44, 7).withUnsafeBytes { column.set(4, $0) }
        let (bytes, spans) = Self.spans(of: column, in: 0 ..< 10)
        #expect(bytes == (0 ..< 10).flatMap { column.bytes($0) ?? [] })
        #expect(Array(bytes[400 ..< 407]) == Self.value(44, 7))
        #expect(spans == 3)
        Self.append(nil, to: &column)
        Self.append([], to: &column)
        #expect(Self.spans(of: column, in: 9 ..< 12) == (Self.value(9, 100), 1), "nil and empty values add nothing")
    }

    @Test func aWriteAfterACopyCopiesTheLastChunkOnly() {
        var column = ByteColumn()
        for i in 0 ..< 3 { Self.append(Self.value(UInt8(i), ByteColumn.chunkCapacity - 10), to: &column) }
        let snapshot = column
        "new".utf8CString.dropLast().map(UInt8.init).withUnsafeBytes { column.set(0, $0) }
        #expect(snapshot.bytes(0) == Self.value(0, ByteColumn.chunkCapacity - 10))
        #expect(column.string(0) == "new")
        #expect(Self.spans(of: column, in: 0 ..< 3).spans == 3, "row 0 moved to the end: one span per value")
        for chunk in 0 ..< 2 {
            let shared = column.chunks[chunk].withUnsafeBytes { a in snapshot.chunks[chunk].withUnsafeBytes { $0.baseAddress == a.baseAddress } }
            #expect(shared, "chunk \(chunk) is shared")
        }
    }

    @Test func compactionKeepsEveryValue() {
        var column = ByteColumn()
        for i in 0 ..< 100 { Self.append(Self.value(UInt8(i), 1 << 16), to: &column) }
        for round in 0 ..< 3 {
            for i in 0 ..< 100 { Self.value(UInt8((i + round) % 256), 1 << 16).withUnsafeBytes { column.set(i, $0) } }
        }
        #expect(column.byteCount < 2 * 100 << 16, "garbage was compacted away")
        for i in 0 ..< 100 { #expect(column.bytes(i) == Self.value(UInt8((i + 2) % 256), 1 << 16)) }
    }

    /// A column over shared bytes (as a binary store opens one): three values in two chunks.
    static func sharedColumn(released: Counter) -> ByteColumn {
        let first = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        first.copyBytes(from: Array("onetwo!!".utf8))
        let second = UnsafeMutableRawBufferPointer.allocate(byteCount: 5, alignment: 1)
        second.copyBytes(from: Array("three".utf8))
        let chunks = [first, second].map { bytes in
            ByteChunk(
                sharing: SharedBytes(UnsafeRawBufferPointer(bytes), keeper: nil) { bytes in
                    released.add()
                    UnsafeMutableRawBufferPointer(mutating: bytes).deallocate()
                })
        }
        var starts = PagedArray<Int>()
        var lengths = PagedArray<Int32>()
        for (chunk, offset, length) in [(0, 0, 3), (0, 3, 3), (1, 0, 5)] {
            starts.append(ByteColumn.location(chunk: chunk, offset: offset))
            lengths.append(Int32(length))
        }
        return ByteColumn(chunks: chunks, starts: starts, lengths: lengths)
    }

    /// Counts calls, from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func sharedChunksAreReadInPlaceAndNeverWritten() {
        let released = Counter()
        do {
            var column = Self.sharedColumn(released: released)
            #expect((0 ..< 3).map { column.string($0) } == ["one", "two", "three"])
            #expect(column.byteCount == 13)
            let original = column
            column.set(1, string: "zwei")
            Self.append(Array("four".utf8), to: &column)
            #expect(column.chunks.count == 3, "new values go to an owned chunk after the shared ones")
            #expect(column.chunks[2].shared == nil && column.chunks[2].owned.count == 8)
            #expect((0 ..< 4).map { column.string($0) } == ["one", "zwei", "three", "four"])
            #expect((0 ..< 3).map { original.string($0) } == ["one", "two", "three"], "the shared bytes are unchanged")
            #expect(Self.spans(of: column, in: 0 ..< 4).bytes == Array("onezweithreefour".utf8))
            #expect(released.value == 0)
        }
        #expect(released.value == 2, "each shared piece is given back once no column uses it")
    }

    @Test func compactionCopiesSharedValuesOut() {
        let released = Counter()
        var column = Self.sharedColumn(released: released)
        for round in 0 ..< 40 { Self.value(UInt8(round), 1 << 16).withUnsafeBytes { column.set(0, $0) } }
        #expect(column.chunks.allSatisfy { $0.shared == nil }, "compaction rewrote every value into owned chunks")
        #expect(column.string(1) == "two" && column.string(2) == "three")
        #expect(released.value == 2)
    }
}
