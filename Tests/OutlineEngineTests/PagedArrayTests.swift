import Testing

@testable import OutlineEngine

/// Paged arrays: array behaviour, and copies that share every page they do not write.
@Suite struct PagedArrayTests {
    static let size = PagedArray<Int>.pageSize

    /// The address of page `page`'s storage, to tell shared pages from copied ones.
    static func address<T>(_ array: PagedArray<T>, page: Int) -> UnsafeRawPointer? {
        array.withPage(page) { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func behavesLikeAnArrayAcrossPageBoundaries() {
        var paged = PagedArray<Int>()
        var plain: [Int] = []
        for i in 0 ..< 3 * Self.size + 5 {
            paged.append(i)
            plain.append(i)
        }
        #expect(paged.count == plain.count && paged.pageCount == 4)
        #expect(Array(paged) == plain)
        paged[Self.size - 1] = -1
        paged[Self.size] = -2
        plain[Self.size - 1] = -1
        plain[Self.size] = -2
        #expect(Array(paged) == plain)
        paged.append(contentsOf: 0 ..< 2 * Self.size)
        plain.append(contentsOf: 0 ..< 2 * Self.size)
        paged.append(repeating: 7, count: Self.size + 3)
        plain.append(contentsOf: repeatElement(7, count: Self.size + 3))
        #expect(Array(paged) == plain)
        #expect(paged == PagedArray(plain))
        #expect(paged.indices == plain.indices)
    }

    @Test func pageWiseFillingAndWalkingSeeEveryElementOnce() {
        let n = 2 * Self.size + 17
        let filled = PagedArray<Int>(unsafeUninitializedCount: n) { page, start, initialized in
            for j in 0 ..< page.count { page[j] = start + j }
            initialized = page.count
        }
        #expect(Array(filled) == Array(0 ..< n))
        var seen: [Int] = []
        filled.forEachPiece(in: 3 ..< n - 2) { start, elements in
            #expect(elements.first == start)
            seen.append(contentsOf: elements)
        }
        #expect(seen == Array(3 ..< n - 2))
        let doubled = PagedArray<Int>(alongside: filled) { source, page, _, initialized in
            for j in 0 ..< page.count { page[j] = 2 * source[j] }
            initialized = page.count
        }
        #expect(doubled[n - 1] == 2 * (n - 1))
    }

    @Test func aCopyWrittenOnceCopiesOnlyThePageItTouches() {
        let original = PagedArray<UInt64>(repeating: 0, count: 4 * Self.size)
        var copy = original
        copy[2 * Self.size + 1] = 99
        #expect(original[2 * Self.size + 1] == 0, "the original is untouched")
        #expect(copy[2 * Self.size + 1] == 99)
        for page in [0, 1, 3] {
            #expect(Self.address(original, page: page) == Self.address(copy, page: page), "page \(page) is still shared")
        }
        #expect(Self.address(original, page: 2) != Self.address(copy, page: 2), "the written page was copied")
    }

    @Test func repeatedPagesShareOneBufferUntilWritten() {
        var column = PagedArray<Double>(repeating: 0.5, count: 3 * Self.size + 7)
        let first = Self.address(column, page: 0)
        #expect(Self.address(column, page: 1) == first && Self.address(column, page: 2) == first, "whole pages share one buffer")
        #expect(Self.address(column, page: 3) != first, "the short last page has its own")
        column[Self.size + 2] = 9
        column.withMutablePage(2) { $0[0] = 8 }
        column.append(1)
        #expect(Self.address(column, page: 0) == first, "an untouched page still shares the buffer")
        #expect(Self.address(column, page: 1) != first && Self.address(column, page: 2) != first, "each written page got its own")
        var expected = [Double](repeating: 0.5, count: 3 * Self.size + 7)
        expected[Self.size + 2] = 9
        expected[2 * Self.size] = 8
        expected.append(1)
        #expect(Array(column) == expected)
    }

    @Test func appendingToACopyLeavesTheOriginalsLastPageAlone() {
        let original = PagedArray<Int>(0 ..< Self.size + 10)
        var copy = original
        copy.append(-1)
        #expect(original.count == Self.size + 10 && copy.count == Self.size + 11)
        #expect(Self.address(original, page: 0) == Self.address(copy, page: 0))
        #expect(original.last == Self.size + 9 && copy.last == -1)
    }

    @Test func listsOfListsChangeInPlace() {
        var lists = PagedArray<[Int]>(repeating: [], count: Self.size + 1)
        lists[Self.size].append(1)
        lists[Self.size].insert(0, at: 0)
        let snapshot = lists
        lists[Self.size].append(2)
        #expect(lists[Self.size] == [0, 1, 2] && snapshot[Self.size] == [0, 1])
    }
}
