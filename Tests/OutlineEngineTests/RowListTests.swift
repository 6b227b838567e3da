import Testing

@testable import OutlineEngine

@Suite struct RowListTests {
    struct Row: ListRow, Equatable {
        var object: ManagedObject
        var tag: Int
    }

    /// Random inserts (1 to 1,200 rows, so chunks split), range removals (so chunks empty) and
    /// replacements, checked against an array after every operation.
    @Test(arguments: 0 ..< 4)
    func randomOperationsMatchAnArray(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(bound, 1)))
        }
        var list = RowList<Row>()
        var array: [Row] = []
        var nextRow = 0
        for step in 0 ..< 300 {
            switch next(10) {
            case 0 ..< 5:
                let count = next(3) == 0 ? next(1_200) + 1 : next(5) + 1
                let rows = (0 ..< count).map { _ in
                    defer { nextRow += 1 }
                    return Row(object: ManagedObject(entity: EntityIndex(0), row: nextRow), tag: step)
                }
                let at = next(array.count + 1)
                list.insert(contentsOf: rows, at: at)
                array.insert(contentsOf: rows, at: at)
            case 5 ..< 8 where !array.isEmpty:
                let start = next(array.count)
                let end = start + next(Swift.min(array.count - start, next(4) == 0 ? 2_000 : 4) + 1)
                let removed = list.removeSubrange(start ..< end)
                #expect(removed == Array(array[start ..< end]))
                array.removeSubrange(start ..< end)
            case 8 where !array.isEmpty:
                let at = next(array.count)
                array[at].tag = -step
                list[at] = array[at]
            default:
                break
            }
            #expect(list.count == array.count)
            guard list.rows == array else {
                Issue.record("seed \(seed), step \(step): the list differs from the array")
                return
            }
            for _ in 0 ..< 5 where !array.isEmpty {
                let at = next(array.count)
                #expect(list.index(of: array[at].object) == at)
                #expect(list[at] == array[at])
                let end = Swift.min(array.count, at + next(700))
                #expect(list.rows(in: at ..< end) == Array(array[at ..< end]))
            }
        }
    }

    @Test func partitioningIndexFindsTheFirstRowAtOrAfterAValue() {
        let rows = (0 ..< 2_000).map { Row(object: ManagedObject(entity: EntityIndex(0), row: $0), tag: $0 * 2) }
        let list = RowList(rows)
        #expect(list.partitioningIndex { $0.tag >= 0 } == 0)
        #expect(list.partitioningIndex { $0.tag >= 777 } == 389)
        #expect(list.partitioningIndex { $0.tag >= 1_000 } == 500)
        #expect(list.partitioningIndex { $0.tag >= 10_000 } == 2_000)
        #expect(!list.contains(ManagedObject(entity: EntityIndex(0), row: 5_000)))
    }
}
