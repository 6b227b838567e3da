import OutlineEngine
import Testing

/// `ListColumn` keeps lists read in bulk packed a page of rows at a time and unpacks a page when
/// one of its rows changes: every read must give the same lists either way, and a change must
/// reach only its row (and never a copy taken before it).
@Suite struct ListColumnTests {
    /// Three pages and a bit: row r lists r % 4 objects (r + 1, r + 2, ...), so pages hold lists
    /// of every length, empty ones included.
    static let rows = 2 * PagedArray<Int>.pageSize + PagedArray<Int>.pageSize / 2 + 7

    static func expected(_ row: Int) -> [ManagedObject] {
        (0 ..< row % 4).map { ManagedObject(entity: 0, row: row + 1 + $0) }
    }

    static func packed(rows: Int = rows, members: (Int) -> [ManagedObject] = expected) -> ListColumn {
        ListColumn(count: rows) { start, count in
            var page = PackedPage.Builder(rows: count, expectedMembers: 1)
            for row in start ..< start + count {
                for member in members(row) {
                    let appended = page.append(member)
                    #expect(appended)
                }
                page.endRow()
            }
            return page.finish()
        }
    }

    static func lists(_ column: ListColumn) -> [[ManagedObject]] {
        (0 ..< column.count).map { column[$0] }
    }

    @Test func packedRowsReadAsTheirLists() {
        let column = Self.packed()
        #expect(column.count == Self.rows)
        for row in 0 ..< Self.rows {
            let want = Self.expected(row)
            #expect(column[row] == want)
            #expect(column.memberCount(row) == want.count)
            #expect(column.withMembers(row) { Array($0) } == want)
        }
        var visited: [Int] = []
        column.forEachList(in: 0 ..< Self.rows) { row, list in
            if Array(list) != Self.expected(row) { Issue.record("row \(row) read \(Array(list))") }
            visited.append(row)
        }
        #expect(visited == Array(0 ..< Self.rows))
        // The search starts where it is told, crosses pages and stops at the first match.
        let start = PagedArray<Int>.pageSize - 2
        #expect(column.firstRow(in: start ..< Self.rows) { row, list in list.count == 3 && row % 8 == 3 } == PagedArray<Int>.pageSize + 3)
        #expect(column.firstRow(in: start ..< Self.rows) { row, _ in row == start } == start)
        #expect(column.firstRow(in: 0 ..< Self.rows) { _, list in list.count > 3 } == nil)
    }

    @Test func changingARowUnpacksItsPageAndLeavesEveryOtherListAsItWas() {
        var column = Self.packed()
        let row = PagedArray<Int>.pageSize + 10  // 10 % 4 == 2 members
        let added = ManagedObject(entity: 1, row: 99)
        column.insert(added, at: 1, row: row)
        #expect(column[row] == [Self.expected(row)[0], added, Self.expected(row)[1]])
        #expect(column.remove(at: 0, row: row) == Self.expected(row)[0])
        column.append(ManagedObject(entity: 1, row: 7), row: row + 1)
        column.setMembers([], row: 2 * PagedArray<Int>.pageSize + 3)
        for other in 0 ..< Self.rows where ![row, row + 1, 2 * PagedArray<Int>.pageSize + 3].contains(other) {
            if column[other] != Self.expected(other) { Issue.record("row \(other) changed to \(column[other])") }
        }
        #expect(column[row] == [added, Self.expected(row)[1]])
        #expect(column[row + 1] == Self.expected(row + 1) + [ManagedObject(entity: 1, row: 7)])
        #expect(column[2 * PagedArray<Int>.pageSize + 3].isEmpty)
        #expect(column.memberCount(row) == 2)
        #expect(column.withMembers(row) { Array($0) } == [added, Self.expected(row)[1]])
    }

    @Test func aCopyKeepsItsListsWhenTheOriginalChanges() {
        var column = Self.packed()
        let copy = column
        column.setMembers([ManagedObject(entity: 2, row: 0)], row: 5)
        column.append(ManagedObject(entity: 2, row: 1), row: Self.rows - 1)
        #expect(Self.lists(copy) == (0 ..< Self.rows).map(Self.expected))
        #expect(column[5] == [ManagedObject(entity: 2, row: 0)])
        #expect(column[Self.rows - 1] == Self.expected(Self.rows - 1) + [ManagedObject(entity: 2, row: 1)])
    }

    @Test func rowsAddedAfterAPackedPageStartEmpty() {
        // The last page is packed and not full: rows appended to it start empty.
        var grown = Self.packed()
        grown.appendRows(3)
        #expect(grown.count == Self.rows + 3)
        #expect(Self.lists(grown) == (0 ..< Self.rows).map(Self.expected) + [[], [], []])
        // Cut short while packed, then grown again: the new rows must not see the lists the
        // packed page held at their positions.
        var cut = Self.packed()
        cut.removeLast(40)
        cut.appendRow()
        cut.appendRows(20)
        #expect(cut.count == Self.rows - 40 + 21)
        #expect(Self.lists(cut) == (0 ..< Self.rows - 40).map(Self.expected) + Array(repeating: [], count: 21))
        // Cut back to whole pages, then grown.
        var whole = Self.packed()
        whole.removeLast(Self.rows - PagedArray<Int>.pageSize)
        whole.appendRows(5)
        #expect(Self.lists(whole) == (0 ..< PagedArray<Int>.pageSize).map(Self.expected) + Array(repeating: [], count: 5))
    }

    @Test func unpackedColumnsReadTheSameWay() {
        let column = ListColumn((0 ..< 100).map(Self.expected))
        #expect(Self.lists(column) == (0 ..< 100).map(Self.expected))
        #expect(column.firstRow(in: 0 ..< 100) { _, list in list.count == 3 } == 3)
        #expect(ListColumn(emptyRows: 5).count == 5)
        #expect(Self.lists(ListColumn(emptyRows: 5)) == Array(repeating: [], count: 5))
    }

    @Test func aPageBuilderGrowsPastWhatItExpected() {
        // One row with far more members than the builder expected, then empty rows.
        let column = Self.packed(rows: 3) { row in
            row == 1 ? (0 ..< 1_000).map { ManagedObject(entity: 0, row: $0) } : []
        }
        #expect(column[0].isEmpty && column[2].isEmpty)
        #expect(column[1] == (0 ..< 1_000).map { ManagedObject(entity: 0, row: $0) })
    }
}
