/// The (instruction, position) pairs a backtracking run has tried: a bitmap while it is
/// small, a set of the pairs tried beyond that.
struct RegexVisited {
    private var bits: [UInt64]
    private var pairs: Set<Int> = []
    private let positions: Int
    private let usesBits: Bool

    init(instructions: Int, positions: Int) {
        self.positions = positions
        let (total, overflow) = instructions.multipliedReportingOverflow(by: positions)
        usesBits = !overflow && total <= 1 << 24
        bits = usesBits ? [UInt64](repeating: 0, count: (total + 63) / 64) : []
    }

    /// Records the pair; `false` when it was tried before.
    mutating func insert(_ pc: Int, _ position: Int) -> Bool {
        let key = pc * positions + position
        guard usesBits else { return pairs.insert(key).inserted }
        let (word, bit) = (key / 64, UInt64(1) << UInt64(key % 64))
        if bits[word] & bit != 0 { return false }
        bits[word] |= bit
        return true
    }
}
