/// Old row -> new row for a table whose dead rows are dropped as it is written.
///
/// The rows are taken a page at a time: a page without dead rows maps each row to the page's
/// first new row plus its offset, and only pages with dead rows keep a row-by-row table. A
/// million-row table with a few removed objects then costs a few kilobytes instead of a
/// megabyte-sized map filled before the first row is written.
struct RowMap {
    /// log2 of the rows per page.
    static let pageShift = 12
    static let pageSize = 1 << pageShift
    static let pageMask = pageSize - 1

    /// Per page: the new row of its first row, counting the live rows before it.
    private var starts: [Int] = []
    /// Per page: where its row-by-row table starts in `tables` (in pages), or -1 when the
    /// page has no dead row.
    private var slots: [Int] = []
    /// The row-by-row tables, a page each: the new row, or -1 for a dead row.
    private var tables: [Int32] = []

    /// The map of a table of `rowCount` rows whose live rows are `live`, ascending runs.
    init(rowCount: Int, live: [Range<Int>]) {
        let pages = (rowCount + Self.pageMask) >> Self.pageShift
        starts = [Int](repeating: 0, count: pages)
        slots = [Int](repeating: -1, count: pages)
        var new = 0
        var runIndex = 0
        for page in 0 ..< pages {
            let first = page << Self.pageShift
            let end = min(first + Self.pageSize, rowCount)
            starts[page] = new
            while runIndex < live.count && live[runIndex].upperBound <= first { runIndex += 1 }
            // Whole page inside one run: no table.
            if runIndex < live.count, live[runIndex].lowerBound <= first, live[runIndex].upperBound >= end {
                new += end - first
                continue
            }
            let slot = tables.count >> Self.pageShift
            slots[page] = slot
            tables.append(contentsOf: repeatElement(-1, count: Self.pageSize))
            var run = runIndex
            while run < live.count && live[run].lowerBound < end {
                for row in max(first, live[run].lowerBound) ..< min(end, live[run].upperBound) {
                    tables[(slot << Self.pageShift) | (row & Self.pageMask)] = Int32(truncatingIfNeeded: new)
                    new += 1
                }
                run += 1
            }
        }
    }

    /// The new row of `row`, or -1 when it is dead.
    @inline(__always) func newRow(_ row: Int) -> Int {
        let page = row >> Self.pageShift
        let slot = slots[page]
        if slot < 0 { return starts[page] + (row & Self.pageMask) }
        return Int(tables[(slot << Self.pageShift) | (row & Self.pageMask)])
    }
}
