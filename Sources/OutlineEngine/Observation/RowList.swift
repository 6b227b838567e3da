/// A row of a ``RowList``: a value that names the object it shows.
package protocol ListRow {
    /// The object the row shows; each object is in a list at most once.
    var object: ManagedObject { get }
}

/// A list of rows kept in chunks, for lists that change a few rows at a time: positional
/// reads, inserts and removes, and the position of a row found from its object.
///
/// Rows live in chunks of at most ``chunkCapacity``; each object maps to the id of the chunk
/// holding it, so finding an object's position costs O(chunk) and never a scan of the list.
///
/// - Complexity: ``index(of:)``, ``insert(contentsOf:at:)`` of m rows and ``remove(at:)``
///   cost O(chunk + chunks + m), with chunk at most 512 rows (so O(√n)-like in the worst case,
///   and small constants at a million rows).
package struct RowList<Row: ListRow> {
    /// The most rows one chunk holds.
    package static var chunkCapacity: Int { 512 }

    private var chunks: [[Row]] = []
    /// The id of the chunk at each position.
    private var chunkIDs: [Int] = []
    /// The position of the chunk with each id (-1 once it is gone).
    private var positions: [Int] = []
    /// `starts[i]`: the rows before chunk `i` (`chunks.count + 1` entries).
    private var starts: [Int] = [0]
    /// The id of the chunk holding each object.
    private var location = ObjectLocations()
    /// The number of rows.
    package private(set) var count = 0

    /// An empty list.
    package init() {}

    /// A list of `rows`, in order.
    package init(_ rows: some Sequence<Row>) {
        insert(contentsOf: Array(rows), at: 0)
    }

    /// Whether the list has no rows.
    package var isEmpty: Bool { count == 0 }

    /// Every row in order.
    ///
    /// - Complexity: O(n).
    package var rows: [Row] { Array(chunks.joined()) }

    /// The rows in `range`.
    package func rows(in range: Range<Int>) -> [Row] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "row range \(range) outside 0..<\(count)")
        var result: [Row] = []
        result.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let (position, offset) = locate(index)
            let take = Swift.min(chunks[position].count - offset, range.upperBound - index)
            result.append(contentsOf: chunks[position][offset ..< offset + take])
            index += take
        }
        return result
    }

    /// The row at `index`.
    package subscript(index: Int) -> Row {
        get {
            precondition(index >= 0 && index < count, "row \(index) outside 0..<\(count)")
            let (position, offset) = locate(index)
            return chunks[position][offset]
        }
        set {
            precondition(index >= 0 && index < count, "row \(index) outside 0..<\(count)")
            let (position, offset) = locate(index)
            precondition(chunks[position][offset].object == newValue.object, "a row can be replaced only by a row of the same object")
            chunks[position][offset] = newValue
        }
    }

    /// Whether `object` has a row.
    package func contains(_ object: ManagedObject) -> Bool { location[object] != nil }

    /// The position of the row of `object`, if it has one.
    package func index(of object: ManagedObject) -> Int? {
        guard let id = location[object] else { return nil }
        let position = positions[id]
        guard let offset = chunks[position].firstIndex(where: { $0.object == object }) else { return nil }
        return start(of: position) + offset
    }

    /// The first position whose row satisfies `isAtOrAfter` (which must be false for a prefix
    /// of the list and true for the rest), or ``count``.
    ///
    /// - Complexity: O(log n) calls of `isAtOrAfter`.
    package func partitioningIndex(where isAtOrAfter: (Row) throws -> Bool) rethrows -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if try isAtOrAfter(chunks[middle][chunks[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        guard low < chunks.count else { return count }
        let chunk = chunks[low]
        var first = 0
        var last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if try isAtOrAfter(chunk[middle]) { last = middle } else { first = middle + 1 }
        }
        return start(of: low) + first
    }

    /// Inserts `rows` (of objects without rows) so that the first is at `index`.
    package mutating func insert(contentsOf rows: [Row], at index: Int) {
        precondition(index >= 0 && index <= count, "insert at \(index) outside 0...\(count)")
        guard !rows.isEmpty else { return }
        let capacity = Self.chunkCapacity
        if chunks.isEmpty {
            replaceChunks(0 ..< 0, with: rows)
        } else {
            var (position, offset) = index == count ? (chunks.count - 1, chunks[chunks.count - 1].count) : locate(index)
            if offset == 0 && position > 0 && chunks[position - 1].count + rows.count <= capacity {
                position -= 1
                offset = chunks[position].count
            }
            if chunks[position].count + rows.count <= capacity {
                chunks[position].insert(contentsOf: rows, at: offset)
                let id = chunkIDs[position]
                for row in rows { location[row.object] = id }
                invalidate(from: position)
            } else {
                var merged = Array(chunks[position][..<offset])
                merged.append(contentsOf: rows)
                merged.append(contentsOf: chunks[position][offset...])
                replaceChunks(position ..< position + 1, with: merged)
            }
        }
        count += rows.count
    }

    /// Removes and returns the row at `index`.
    @discardableResult
    package mutating func remove(at index: Int) -> Row {
        removeSubrange(index ..< index + 1)[0]
    }

    /// Removes and returns the rows in `range`.
    @discardableResult
    package mutating func removeSubrange(_ range: Range<Int>) -> [Row] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "row range \(range) outside 0..<\(count)")
        var removed: [Row] = []
        removed.reserveCapacity(range.count)
        var remaining = range.count
        let (first, firstOffset) = range.isEmpty ? (0, 0) : locate(range.lowerBound)
        var position = first
        var offset = firstOffset
        var emptied: [Int] = []
        while remaining > 0 {
            let take = Swift.min(chunks[position].count - offset, remaining)
            let slice = chunks[position][offset ..< offset + take]
            for row in slice { location[row.object] = nil }
            removed.append(contentsOf: slice)
            chunks[position].removeSubrange(offset ..< offset + take)
            if chunks[position].isEmpty { emptied.append(position) }
            remaining -= take
            position += 1
            offset = 0
        }
        count -= removed.count
        if !range.isEmpty { invalidate(from: first) }
        if !emptied.isEmpty {
            for position in emptied { positions[chunkIDs[position]] = -1 }
            let gone = Set(emptied)
            let kept = chunks.indices.filter { !gone.contains($0) }
            chunks = kept.map { chunks[$0] }
            chunkIDs = kept.map { chunkIDs[$0] }
            for (position, id) in chunkIDs.enumerated() { positions[id] = position }
            invalidate(from: 0)
        }
        return removed
    }

    // MARK: Chunks

    /// The chunk holding row `index` (< count) and the row's offset in it.
    private func locate(_ index: Int) -> (position: Int, offset: Int) {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    private func start(of position: Int) -> Int { starts[position] }

    /// Recomputes the chunk starts after chunk `position` changed.
    private mutating func invalidate(from position: Int) {
        let valid = Swift.min(position, starts.count - 1)
        starts.removeSubrange((valid + 1)...)
        var total = starts[valid]
        for position in valid ..< chunks.count {
            total += chunks[position].count
            starts.append(total)
        }
    }

    /// Replaces the chunks at `range` by chunks holding `rows`, half full so that the next
    /// inserts fit.
    private mutating func replaceChunks(_ range: Range<Int>, with rows: [Row]) {
        for position in range { positions[chunkIDs[position]] = -1 }
        let size = Swift.max(Self.chunkCapacity / 2, 1)
        var pieces: [[Row]] = []
        var ids: [Int] = []
        var from = 0
        while from < rows.count {
            let to = Swift.min(from + size, rows.count)
            let id = positions.count
            positions.append(-1)
            pieces.append(Array(rows[from ..< to]))
            ids.append(id)
            for row in rows[from ..< to] { location[row.object] = id }
            from = to
        }
        chunks.replaceSubrange(range, with: pieces)
        chunkIDs.replaceSubrange(range, with: ids)
        for position in range.lowerBound ..< chunkIDs.count { positions[chunkIDs[position]] = position }
        invalidate(from: range.lowerBound)
    }
}

extension RowList: Sequence {
    /// Iterates the rows in order.
    package func makeIterator() -> FlattenSequence<[[Row]]>.Iterator { chunks.joined().makeIterator() }
}
