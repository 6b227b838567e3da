/// OPML's `expansionState` head field: which items are expanded, as a comma-separated list of
/// visible row numbers.
///
/// ## Our rule
/// Rows are counted in the outline as shown when exactly the listed items are expanded: the
/// first top-level item is row 1, and the children of an expanded item are visible rows right
/// after it. This is how OPML Editor and Drummer count (the spec's "navigate flatdown X times
/// from the first summit", applied to a sorted list).
/// - Reading: numbers may have spaces around them; empty entries are ignored; a list that
///   contains `0` is counted from 0 (some apps do) and shifted by one. A listed item without
///   children, a hidden one, or a number that is not a row is reported and ignored. An item
///   with children that is not listed is collapsed; without an `expansionState` field every
///   item is expanded. An item's own `collapsed` attribute wins over the list.
/// - Writing: 1-based, ascending, no spaces (`1,3,7`); only items with children are listed.
enum ExpansionState {
    /// The row numbers of `text` (1-based), the entries that are not numbers, and whether the
    /// list was 0-based.
    static func parse(_ text: String) -> (rows: Set<Int>, invalid: [String], zeroBased: Bool) {
        var numbers: [Int] = []
        var invalid: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = part.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !entry.isEmpty else { continue }
            // No outline has more rows than fit in 32 bits: a bigger number is not a row (and
            // adding one to it for a 0-based list could overflow).
            if let number = Int(entry), number >= 0, number < Int(Int32.max) { numbers.append(number) } else { invalid.append(entry) }
        }
        let zeroBased = numbers.contains(0)
        return (Set(numbers.map { zeroBased ? $0 + 1 : $0 }), invalid, zeroBased)
    }

    /// For items given by their depths in document order, whether each is collapsed when the
    /// items at `rows` are expanded, and the listed rows that are not visible items with children.
    ///
    /// - Complexity: O(items); no recursion.
    static func collapsed(depths: [Int32], expanded rows: Set<Int>) -> (collapsed: [Bool], unused: [Int]) {
        var collapsed = [Bool](repeating: false, count: depths.count)
        var open: [(depth: Int32, childrenVisible: Bool)] = []
        var row = 0
        var used: Set<Int> = []
        for index in depths.indices {
            let depth = depths[index]
            while let top = open.last, top.depth >= depth { open.removeLast() }
            let visible = open.last?.childrenVisible ?? true
            let hasChildren = index + 1 < depths.count && depths[index + 1] > depth
            var expanded = false
            if visible {
                row += 1
                if hasChildren && rows.contains(row) {
                    expanded = true
                    used.insert(row)
                }
            }
            collapsed[index] = hasChildren && !expanded
            open.append((depth, visible && expanded))
        }
        return (collapsed, rows.subtracting(used).sorted())
    }

    /// The field's text for `rows` (1-based).
    static func format(_ rows: [Int]) -> String {
        rows.map(String.init).joined(separator: ",")
    }
}
