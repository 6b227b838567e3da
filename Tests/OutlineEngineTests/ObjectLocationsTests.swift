import Testing

@testable import OutlineEngine

@Suite struct ObjectLocationsTests {
    /// Random writes and removals of clustered handles (runs of rows of a few entities, as
    /// outline items are), checked against a dictionary: every handle ever used reads back
    /// what the dictionary holds, after every batch of operations.
    @Test(arguments: 0 ..< 4)
    func randomWritesAndRemovalsMatchADictionary(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(bound, 1)))
        }
        var map = ObjectLocations()
        var expected: [ManagedObject: Int] = [:]
        var used: [ManagedObject] = []
        for round in 0 ..< 200 {
            for _ in 0 ..< next(400) {
                let object = ManagedObject(entity: EntityIndex(next(3)), row: next(3_000))
                if next(3) == 0 {
                    map[object] = nil
                    expected[object] = nil
                } else {
                    let value = next(1_000)
                    map[object] = value
                    expected[object] = value
                    used.append(object)
                }
            }
            #expect(map.count == expected.count)
            for object in used where map[object] != expected[object] {
                Issue.record(
                    "seed \(seed), round \(round): \(object) reads \(String(describing: map[object])), not \(String(describing: expected[object]))")
                return
            }
        }
        for object in expected.keys { map[object] = nil }
        #expect(map.count == 0)
        #expect(used.allSatisfy { map[$0] == nil })
    }
}
