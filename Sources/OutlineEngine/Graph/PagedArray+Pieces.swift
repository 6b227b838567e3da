/// Walking a range of elements a page at a time, for code that reads many rows.
extension PagedArray {
    /// Calls `body` for each part of `range` that lies on one page, in order: the index of the
    /// part's first element and its elements.
    @inlinable public func forEachPiece(
        in range: Range<Int>,
        _ body: (_ start: Int, UnsafeBufferPointer<Element>) throws -> Void
    ) rethrows {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "PagedArray: range \(range) is outside 0..<\(count)")
        var start = range.lowerBound
        while start < range.upperBound {
            let page = start &>> Self.pageShift
            let offset = start & Self.pageMask
            let size = Swift.min(range.upperBound &- start, Self.pageSize &- offset)
            try withPage(page) { buffer in
                try body(start, UnsafeBufferPointer(rebasing: buffer[offset ..< offset &+ size]))
            }
            start &+= size
        }
    }

    /// Calls `body` for each part of `range` that lies on one page of two arrays of the same
    /// length (whose pages therefore line up): the index of the part's first element and the
    /// elements of each array.
    @inlinable public static func forEachPiece<Other>(
        of first: PagedArray<Element>, and second: PagedArray<Other>, in range: Range<Int>,
        _ body: (_ start: Int, UnsafeBufferPointer<Element>, UnsafeBufferPointer<Other>) throws -> Void
    ) rethrows {
        precondition(first.count == second.count, "PagedArray: paired arrays differ in length (\(first.count), \(second.count))")
        try first.forEachPiece(in: range) { start, elements in
            let page = start &>> pageShift
            let offset = start & pageMask
            try second.withPage(page) { buffer in
                try body(start, elements, UnsafeBufferPointer(rebasing: buffer[offset ..< offset &+ elements.count]))
            }
        }
    }
}

extension PagedArray {
    /// An array as long as `source`, initialized page by page next to the same page of
    /// `source`: `body` gets the page of `source`, the uninitialized page to fill, the index of
    /// their first element, and sets `initialized` as in
    /// ``init(unsafeUninitializedCount:initializingWith:)``.
    @inlinable public init<Source>(
        alongside source: PagedArray<Source>,
        initializingWith body: (
            _ source: UnsafeBufferPointer<Source>,
            _ page: inout UnsafeMutableBufferPointer<Element>,
            _ start: Int, _ initialized: inout Int
        ) throws -> Void
    ) rethrows {
        try self.init(unsafeUninitializedCount: source.count) { page, start, initialized in
            try source.withPage(start &>> Self.pageShift) { try body($0, &page, start, &initialized) }
        }
    }
}
