/// The member lists of one to-many relationship: a list per row of an entity table, each in its
/// stored order.
///
/// Lists read from a file in bulk stay *packed*: each page of rows (``PagedArray/pageSize`` of
/// them) keeps the members of all its rows in one buffer, with the offset where each row's
/// members start, instead of an array per row. An opened outline of a million items then holds
/// its child lists in about 12 bytes per item and one allocation per page, where an array per
/// list took about 80 bytes and an allocation for each item with children.
///
/// The first change to a row of a packed page unpacks the whole page into arrays, which later
/// changes edit in place. Reading a row as an array (``subscript(_:)``) makes the array when the
/// row is packed; ``withMembers(_:_:)`` and ``firstRow(in:where:)`` read every row in place.
/// Like ``PagedArray``, a copy shares the pages until one of them changes, and it is public for
/// the same reason: so that code in other modules that reads it is specialized and inlined.
public struct ListColumn: Sendable {
    /// The lists of the rows of unpacked pages. A packed page's rows hold empty lists here,
    /// which whole pages share (see ``PagedArray/append(repeating:count:)``).
    @usableFromInline var lists = PagedArray<[ManagedObject]>()
    /// Per page of `lists`: its members when the page is packed, else nil.
    @usableFromInline var packed: [PackedPage?] = []
    /// Per page of `lists`: where the packed page's offsets and members are (`packed` keeps
    /// them), so that reading a row costs no reference counting.
    @usableFromInline var views: [PackedPage.View] = []

    /// No rows.
    package init() {}

    /// `count` rows with empty lists.
    package init(emptyRows count: Int) {
        appendRows(count)
    }

    /// Rows with the lists of `rows`, unpacked.
    package init<S: Sequence>(_ rows: S) where S.Element == [ManagedObject] {
        lists = PagedArray(rows)
        packed = Array(repeating: nil, count: lists.pageCount)
        views = Array(repeating: .unpacked, count: lists.pageCount)
    }

    /// `count` rows read a page at a time: `page` gets the first row of each page and how many
    /// rows it has, and returns their packed lists (it may throw to stop).
    package init(count: Int, packing page: (_ start: Int, _ rows: Int) throws -> PackedPage) rethrows {
        lists = PagedArray(repeating: [], count: count)
        packed.reserveCapacity(lists.pageCount)
        views.reserveCapacity(lists.pageCount)
        for index in 0 ..< lists.pageCount {
            let rows = lists.indices(ofPage: index)
            let found = try page(rows.lowerBound, rows.count)
            precondition(found.rowCount == rows.count, "ListColumn: a packed page of \(found.rowCount) rows for \(rows.count)")
            // A page without members is as well held by the shared empty lists.
            packed.append(found.isEmpty ? nil : found)
            views.append(found.isEmpty ? .unpacked : found.view)
        }
    }

    /// The number of rows.
    @inlinable public var count: Int { lists.count }

    /// The members of `row`.
    @inlinable public subscript(row: Int) -> [ManagedObject] {
        let view = views[row &>> PagedArray<ManagedObject>.pageShift]
        if view.isPacked { return Array(view.members(row & PagedArray<ManagedObject>.pageMask)) }
        return lists[row]
    }

    /// Replaces the members of `row`, unpacking its page if it is packed.
    package mutating func setMembers(_ members: [ManagedObject], row: Int) {
        unpackPage(of: row)
        lists[row] = members
    }

    /// How many members `row` has.
    @inlinable public func memberCount(_ row: Int) -> Int {
        let view = views[row &>> PagedArray<ManagedObject>.pageShift]
        if view.isPacked { return view.memberCount(row & PagedArray<ManagedObject>.pageMask) }
        return lists[row].count
    }

    /// Calls `body` with the members of `row`, read in place.
    @inlinable public func withMembers<R>(_ row: Int, _ body: (UnsafeBufferPointer<ManagedObject>) throws -> R) rethrows -> R {
        let view = views[row &>> PagedArray<ManagedObject>.pageShift]
        if view.isPacked { return try body(view.members(row & PagedArray<ManagedObject>.pageMask)) }
        return try lists[row].withUnsafeBufferPointer(body)
    }

    /// The first row of `rows` whose members satisfy `predicate` (which gets the row and its
    /// members, read in place), or nil; a page at a time.
    @inlinable public func firstRow(
        in rows: Range<Int>, where predicate: (Int, UnsafeBufferPointer<ManagedObject>) throws -> Bool
    ) rethrows -> Int? {
        var row = rows.lowerBound
        while row < rows.upperBound {
            let index = row &>> PagedArray<ManagedObject>.pageShift
            let first = index &<< PagedArray<ManagedObject>.pageShift
            let end = Swift.min(rows.upperBound, lists.indices(ofPage: index).upperBound)
            let view = views[index]
            let found: Int? =
                if view.isPacked {
                    try view.firstRow(in: (row &- first) ..< (end &- first)) { try predicate(first &+ $0, $1) }.map { first &+ $0 }
                } else {
                    try lists.withPage(index) { page in
                        for local in (row &- first) ..< (end &- first) {
                            if try page[local].withUnsafeBufferPointer({ try predicate(first &+ local, $0) }) { return first &+ local }
                        }
                        return nil
                    }
                }
            if let found { return found }
            row = end
        }
        return nil
    }

    /// Calls `body` with every row of `rows` and its members, read in place, in row order.
    @inlinable public func forEachList(in rows: Range<Int>, _ body: (Int, UnsafeBufferPointer<ManagedObject>) throws -> Void) rethrows {
        _ = try firstRow(in: rows) { row, members in
            try body(row, members)
            return false
        }
    }

    /// Inserts `member` at `index` of the list of `row`.
    package mutating func insert(_ member: ManagedObject, at index: Int, row: Int) {
        unpackPage(of: row)
        lists[row].insert(member, at: index)
    }

    /// Removes and returns the member at `index` of the list of `row`.
    package mutating func remove(at index: Int, row: Int) -> ManagedObject {
        unpackPage(of: row)
        return lists[row].remove(at: index)
    }

    /// Appends `member` to the list of `row`.
    package mutating func append(_ member: ManagedObject, row: Int) {
        unpackPage(of: row)
        lists[row].append(member)
    }

    /// Appends a row with an empty list.
    package mutating func appendRow() {
        appendRows(1)
    }

    /// Appends `count` rows with empty lists.
    package mutating func appendRows(_ count: Int) {
        guard count > 0 else { return }
        // A packed last page must not take the new rows for its own (nor, when it was cut
        // short, give them the lists it held at their positions).
        if lists.pageCount > 0 { unpackPage(lists.pageCount - 1) }
        lists.append(repeating: [], count: count)
        packed.append(contentsOf: repeatElement(nil, count: lists.pageCount - packed.count))
        views.append(contentsOf: repeatElement(.unpacked, count: lists.pageCount - views.count))
    }

    /// Removes the last `count` rows.
    package mutating func removeLast(_ count: Int) {
        guard count > 0 else { return }
        lists.removeLast(count)
        packed.removeLast(packed.count - lists.pageCount)
        views.removeLast(views.count - lists.pageCount)
    }

    /// Reserves room for `count` rows in the page table.
    package mutating func reserveCapacity(_ count: Int) {
        lists.reserveCapacity(count)
    }

    private mutating func unpackPage(of row: Int) {
        unpackPage(row &>> PagedArray<ManagedObject>.pageShift)
    }

    /// Gives the rows of page `index` arrays of their own, when it is packed.
    private mutating func unpackPage(_ index: Int) {
        guard let page = packed[index] else { return }
        let view = page.view
        lists.withMutablePage(index) { lists in
            for local in 0 ..< lists.count { lists[local] = Array(view.members(local)) }
        }
        packed[index] = nil
        views[index] = .unpacked
    }
}

// @unchecked Sendable: the buffers are written only by the builder and freed by deinit.

/// The lists of a page of rows in one buffer: row `i`'s members are those from offset
/// `starts[i]` to `starts[i + 1]`. Made by a ``Builder`` and kept by a ``ListColumn``.
public final class PackedPage: @unchecked Sendable {
    /// Where a page's offsets and members are, while its ``PackedPage`` is alive; `.unpacked`
    /// for a page that has none.
    @usableFromInline struct View: @unchecked Sendable {
        @usableFromInline let starts: UnsafePointer<UInt32>?
        @usableFromInline let members: UnsafePointer<ManagedObject>?

        @usableFromInline static let unpacked = View(starts: nil, members: nil)

        @usableFromInline init(starts: UnsafePointer<UInt32>?, members: UnsafePointer<ManagedObject>?) {
            self.starts = starts
            self.members = members
        }

        @inlinable var isPacked: Bool { starts != nil }

        @inlinable func memberCount(_ row: Int) -> Int {
            let starts = starts.unsafelyUnwrapped
            return Int(starts[row &+ 1] &- starts[row])
        }

        @inlinable func members(_ row: Int) -> UnsafeBufferPointer<ManagedObject> {
            let starts = starts.unsafelyUnwrapped
            let first = Int(starts[row])
            return UnsafeBufferPointer(start: members.map { $0 + first }, count: Int(starts[row &+ 1]) &- first)
        }

        @inlinable func firstRow(
            in rows: Range<Int>, where predicate: (Int, UnsafeBufferPointer<ManagedObject>) throws -> Bool
        ) rethrows -> Int? {
            for row in rows where try predicate(row, members(row)) { return row }
            return nil
        }
    }

    private let starts: UnsafeMutableBufferPointer<UInt32>
    /// The members; its capacity may be larger than the last offset (see ``Builder``).
    private let members: UnsafeMutableBufferPointer<ManagedObject>
    private let memberCount: Int

    private init(starts: UnsafeMutableBufferPointer<UInt32>, members: UnsafeMutableBufferPointer<ManagedObject>, memberCount: Int) {
        self.starts = starts
        self.members = members
        self.memberCount = memberCount
    }

    /// Fills a page row by row, in buffers the page then owns (nothing is copied at the end).
    ///
    /// Public, like ``ListColumn``, so that a reader in another module appends members without
    /// a call per member.
    public struct Builder: ~Copyable {
        @usableFromInline var starts: UnsafeMutableBufferPointer<UInt32>
        @usableFromInline var rows = 0
        @usableFromInline var members: UnsafeMutableBufferPointer<ManagedObject>
        @usableFromInline var count = 0

        /// A builder for `rows` rows, with room for `expectedMembers` members to begin with.
        public init(rows: Int, expectedMembers: Int) {
            precondition(rows >= 0, "PackedPage.Builder: a negative row count")
            starts = .allocate(capacity: rows + 1)
            starts[0] = 0
            members = .allocate(capacity: Swift.max(expectedMembers, 16))
        }

        deinit {
            starts.deallocate()
            members.deallocate()
        }

        /// The members appended so far.
        @inlinable public var memberCount: Int { count }

        /// Appends `member` to the current row. False, with nothing appended, when the page
        /// would hold more members than 32-bit offsets reach (over 4 billion).
        @inlinable public mutating func append(_ member: ManagedObject) -> Bool {
            guard count < Int(UInt32.max) else { return false }
            if count == members.count { grow() }
            members.initializeElement(at: count, to: member)
            count &+= 1
            return true
        }

        /// Doubles the room for members.
        @usableFromInline mutating func grow() {
            let larger = UnsafeMutableBufferPointer<ManagedObject>.allocate(capacity: members.count * 2)
            _ = larger.moveInitialize(fromContentsOf: members[..<count])
            members.deallocate()
            members = larger
        }

        /// Ends the current row.
        @inlinable public mutating func endRow() {
            precondition(rows &+ 1 < starts.count, "PackedPage.Builder: more rows than announced")
            rows &+= 1
            starts[rows] = UInt32(truncatingIfNeeded: count)
        }

        /// The page, once every announced row has ended.
        public consuming func finish() -> PackedPage {
            precondition(rows + 1 == starts.count, "PackedPage.Builder: \(rows) of \(starts.count - 1) rows ended")
            let page = PackedPage(starts: starts, members: members, memberCount: count)
            discard self
            return page
        }
    }

    deinit {
        starts.deallocate()
        members.deallocate()
    }

    /// The number of rows.
    package var rowCount: Int { starts.count - 1 }

    var isEmpty: Bool { memberCount == 0 }

    @usableFromInline var view: View {
        View(starts: UnsafePointer(starts.baseAddress), members: UnsafePointer(members.baseAddress))
    }
}
