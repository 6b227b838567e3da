/// A generated outline as plain arrays, in document order (depth-first, parents before their
/// children): the one tree every format, floor and peer of a run is measured on.
///
/// Index 0 is the root (depth 0, empty title); every other item has a parent with a smaller
/// index, a 0-based `order` among its siblings, a depth from 1 to ``maxDepth`` and a title of
/// 10 to 60 characters, about a fifth of them with non-ASCII text.
struct OutlineTree: Sendable {
    /// The deepest level an item may be at (the root is at 0).
    static let maxDepth = 12
    /// Of the items that may have children, the percentage that do; with 1 to 20 children
    /// each (10.5 on average) every level is about 3.7 times the one before, so a million
    /// items reach depth 10 or so.
    static let parentPercent = 35

    /// Index of each item's parent; -1 for the root.
    private(set) var parents: [Int32] = []
    /// Position of each item among its siblings, 0-based.
    private(set) var orders: [Int32] = []
    /// Depth of each item; 0 for the root.
    private(set) var depths: [UInt8] = []
    /// Text of each item; empty for the root.
    private(set) var titles: [String] = []

    /// Items, the root included.
    var count: Int { parents.count }

    /// The tree of `count` items (the root included) generated from `seed`.
    ///
    /// The shape is grown breadth-first (each item gets 0 or 1-20 children), then numbered in
    /// document order; titles are drawn afterwards in that order.
    ///
    /// - Complexity: O(count).
    /// - Precondition: `count >= 1`.
    init(count: Int, seed: UInt64) {
        precondition(count >= 1, "OutlineTree: count \(count) must include the root")
        var random = SplitMix64(seed: seed)

        // Breadth-first shape: the children of one item get consecutive indices.
        var levelDepth: [UInt8] = [0]
        var firstChild = [Int](repeating: 0, count: count)
        var childCount = [Int](repeating: 0, count: count)
        levelDepth.reserveCapacity(count)
        var next = 0
        while levelDepth.count < count {
            precondition(next < levelDepth.count, "OutlineTree: the shape died out before \(count) items")
            let item = next
            next += 1
            let depth = Int(levelDepth[item])
            guard depth < Self.maxDepth else { continue }
            // The root and the last item waiting always get children, so the tree never stops short.
            let isLast = next == levelDepth.count
            guard item == 0 || isLast || random.chance(Self.parentPercent) else { continue }
            let fanOut = min(1 + random.below(20), count - levelDepth.count)
            firstChild[item] = levelDepth.count
            childCount[item] = fanOut
            for _ in 0 ..< fanOut { levelDepth.append(UInt8(depth + 1)) }
        }

        // Document order: a depth-first walk with an explicit stack (no recursion).
        parents.reserveCapacity(count)
        orders.reserveCapacity(count)
        depths.reserveCapacity(count)
        var stack: [(bfs: Int, document: Int, nextChild: Int)] = [(0, 0, 0)]
        parents.append(-1)
        orders.append(0)
        depths.append(0)
        while let top = stack.last {
            guard top.nextChild < childCount[top.bfs] else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].nextChild += 1
            let child = firstChild[top.bfs] + top.nextChild
            let index = parents.count
            parents.append(Int32(top.document))
            orders.append(Int32(top.nextChild))
            depths.append(levelDepth[child])
            stack.append((child, index, 0))
        }

        titles.reserveCapacity(count)
        titles.append("")
        let words = TitleWords()
        for _ in 1 ..< count { titles.append(words.title(using: &random)) }
    }

    /// The deepest level used.
    var deepest: Int { Int(depths.max() ?? 0) }

    /// UTF-8 bytes of all titles together.
    var titleBytes: Int { titles.reduce(0) { $0 + $1.utf8.count } }

    /// Items with non-ASCII text.
    var nonASCIICount: Int { titles.count(where: { $0.utf8.contains { $0 >= 0x80 } }) }
}

/// Draws titles: half dictionary words (some with XML's special characters), half random
/// syllables; non-ASCII titles start with a word in another script or with accents.
private struct TitleWords {
    let ascii = [
        "plan", "review", "milk & eggs", "<draft>", "call Ann", "budget", "notes", "idea", "Q3 goals",
        "fix the build", "ship", "groceries", "read", "meeting", "\"quoted\"", "follow up", "design", "it's done",
    ]
    let nonASCII = [
        "Crème brûlée", "naïve", "日本語のメモ", "Größe", "café", "Ελληνικά", "🎉 party", "Zürich",
        "résumé", "Ångström", "北京", "señor", "Привет", "façade",
    ]
    let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "ph", "st", "an", "el"]

    /// One title of 10 to 60 characters, about a fifth of them with non-ASCII text.
    func title(using random: inout SplitMix64) -> String {
        let length = 10 + random.below(51)
        var title = random.chance(20) ? nonASCII[random.below(nonASCII.count)] : ""
        var characters = title.count
        while characters < length {
            if characters > 0 {
                title += " "
                characters += 1
            }
            let word: String
            if random.chance(50) {
                word = ascii[random.below(ascii.count)]
            } else {
                word = (0 ..< 2 + random.below(3)).map { _ in syllables[random.below(syllables.count)] }.joined()
            }
            title += word
            characters += word.count
        }
        var cut = String(title.prefix(length))
        // A text ending in a space would look odd in every format; end it with a letter.
        if cut.last == " " {
            cut.removeLast()
            cut += "x"
        }
        return cut
    }
}
