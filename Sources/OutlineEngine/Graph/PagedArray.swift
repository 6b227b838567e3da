/// An array stored in fixed-size pages, each page copy-on-write on its own.
///
/// The object graph keeps its columns in these; it is public so that code in other modules
/// is specialized for its element type (generic code used across modules otherwise is not).
///
/// Columns of a big document hold a million rows. A plain array shared with a snapshot copies
/// all of them on the first write after the snapshot; a paged array copies one page (and its
/// small page table) instead, so taking a snapshot never costs the editing side more than a
/// page per column it touches afterwards.
///
/// Every page but the last holds exactly ``pageSize`` elements; the last holds 1 to
/// ``pageSize`` (there are no empty pages). Element access costs one more indexed load than an
/// array; code that walks many rows reads whole pages through ``withPage(_:_:)``,
/// ``forEachPage(_:)`` and fills new arrays through ``init(unsafeUninitializedCount:initializingWith:)``.
@frozen
public struct PagedArray<Element> {
    /// log2 of ``pageSize``.
    @inlinable public static var pageShift: Int { 14 }
    /// Elements per page: 16,384 (128 KiB of 8-byte values, copied in a few microseconds).
    @inlinable public static var pageSize: Int { 1 &<< pageShift }
    @inlinable static var pageMask: Int { pageSize &- 1 }

    @usableFromInline var pages: [ContiguousArray<Element>]
    @usableFromInline var storedCount: Int

    /// An empty array.
    @inlinable public init() {
        pages = []
        storedCount = 0
    }

    /// `count` copies of `value`.
    @inlinable public init(repeating value: Element, count: Int) {
        self.init()
        append(repeating: value, count: count)
    }

    /// The elements of `elements`, in order.
    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// The elements of `elements`, in order, copied a page at a time.
    @inlinable public init<C: Collection>(_ elements: C) where C.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// An array of `count` elements initialized page by page: `body` gets each page's
    /// uninitialized buffer and the index of its first element, and must initialize the whole
    /// buffer, setting `initialized` to the number of elements it initialized (all of them,
    /// unless it throws).
    @inlinable public init(
        unsafeUninitializedCount count: Int,
        initializingWith body: (
            _ page: inout UnsafeMutableBufferPointer<Element>, _ start: Int,
            _ initialized: inout Int
        ) throws -> Void
    ) rethrows {
        precondition(count >= 0, "PagedArray: negative count \(count)")
        self.init()
        pages.reserveCapacity((count &+ Self.pageMask) &>> Self.pageShift)
        var start = 0
        while start < count {
            let size = Swift.min(count &- start, Self.pageSize)
            let page = try ContiguousArray<Element>(unsafeUninitializedCapacity: size) { buffer, initialized in
                try body(&buffer, start, &initialized)
            }
            precondition(page.count == size, "PagedArray: a page was initialized with \(page.count) of \(size) elements")
            pages.append(page)
            start &+= size
            storedCount = start
        }
    }

    /// The number of elements.
    @inlinable public var count: Int { storedCount }

    /// The number of pages.
    @inlinable public var pageCount: Int { pages.count }

    /// The element at `position`.
    @inlinable public subscript(position: Int) -> Element {
        get { pages[position &>> Self.pageShift][position & Self.pageMask] }
        _modify { yield &pages[position &>> Self.pageShift][position & Self.pageMask] }
    }

    /// Appends `element`.
    @inlinable public mutating func append(_ element: Element) {
        if storedCount & Self.pageMask == 0 {
            var page = ContiguousArray<Element>()
            if storedCount > 0 { page.reserveCapacity(Self.pageSize) }
            page.append(element)
            pages.append(page)
        } else {
            // Through the page table's buffer: one uniqueness check for it, not a second
            // round of accessors.
            pages.withUnsafeMutableBufferPointer { $0[$0.count &- 1].append(element) }
        }
        storedCount &+= 1
    }

    /// Appends the elements of `elements`.
    @inlinable public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// Appends the elements of `elements`, a page at a time.
    @inlinable public mutating func append<C: Collection>(contentsOf elements: C) where C.Element == Element {
        var rest = elements[...]
        while !rest.isEmpty {
            let piece = rest.prefix(Self.pageSize &- (storedCount & Self.pageMask))
            if storedCount & Self.pageMask == 0 {
                var page = ContiguousArray<Element>()
                page.reserveCapacity(storedCount > 0 ? Self.pageSize : piece.count)
                page.append(contentsOf: piece)
                pages.append(page)
            } else {
                pages.withUnsafeMutableBufferPointer { $0[$0.count &- 1].append(contentsOf: piece) }
            }
            storedCount &+= piece.count
            rest = rest[piece.endIndex...]
        }
    }

    /// Appends `count` copies of `value`.
    ///
    /// The whole pages appended share one buffer until a row of theirs changes (each page is
    /// copy-on-write on its own): a million rows of a default value cost one page of memory,
    /// and no page of it is filled or touched in a new process until it is written.
    @inlinable public mutating func append(repeating value: Element, count: Int) {
        precondition(count >= 0, "PagedArray: negative count \(count)")
        var left = count
        var shared: ContiguousArray<Element>?
        while left > 0 {
            let size = Swift.min(left, Self.pageSize &- (storedCount & Self.pageMask))
            if storedCount & Self.pageMask == 0 {
                if size == Self.pageSize {
                    let page = shared ?? ContiguousArray(repeating: value, count: size)
                    shared = page
                    pages.append(page)
                } else {
                    pages.append(ContiguousArray(repeating: value, count: size))
                }
            } else {
                pages.withUnsafeMutableBufferPointer { $0[$0.count &- 1].append(contentsOf: repeatElement(value, count: size)) }
            }
            storedCount &+= size
            left &-= size
        }
    }

    /// Reserves room for `count` elements in the page table (and in the first page while
    /// there is only one).
    @inlinable public mutating func reserveCapacity(_ count: Int) {
        pages.reserveCapacity((count &+ Self.pageMask) &>> Self.pageShift)
        if pages.count == 1 { pages[0].reserveCapacity(Swift.min(count, Self.pageSize)) }
    }

    /// Removes the last `count` elements.
    @inlinable public mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= storedCount, "PagedArray: cannot remove \(count) of \(storedCount) elements")
        var left = count
        while left > 0 {
            let last = pages.count &- 1
            let size = pages[last].count
            if size <= left {
                pages.removeLast()
                left &-= size
            } else {
                pages[last].removeLast(left)
                left = 0
            }
        }
        storedCount &-= count
    }

    /// Removes every element.
    @inlinable public mutating func removeAll() {
        pages = []
        storedCount = 0
    }

    // MARK: Pages

    /// The indices of the elements on page `page`.
    @inlinable public func indices(ofPage page: Int) -> Range<Int> {
        let start = page &<< Self.pageShift
        return start ..< start &+ pages[page].count
    }

    /// Calls `body` with the elements of page `page`.
    @inlinable public func withPage<R>(_ page: Int, _ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try pages[page].withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the elements of page `page` to change them in place (copying the page
    /// first when a snapshot shares it).
    @inlinable public mutating func withMutablePage<R>(
        _ page: Int,
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R {
        try pages[page].withUnsafeMutableBufferPointer(body)
    }

    /// Calls `body` with every page in order: the index of its first element and its elements.
    @inlinable public func forEachPage(_ body: (_ start: Int, UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        for page in pages.indices {
            try pages[page].withUnsafeBufferPointer { try body(page &<< Self.pageShift, $0) }
        }
    }
}

extension PagedArray: RandomAccessCollection, MutableCollection {
    /// Positions are plain integers from 0.
    public typealias Index = Int
    /// The valid positions, `0 ..< count`.
    public typealias Indices = Range<Int>

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of elements.
    @inlinable public var endIndex: Int { storedCount }
    /// Whether there are no elements, in O(1).
    @inlinable public var isEmpty: Bool { storedCount == 0 }
    /// The position after `i`.
    @inlinable public func index(after i: Int) -> Int { i &+ 1 }
    /// The position before `i`.
    @inlinable public func index(before i: Int) -> Int { i &- 1 }
    /// The valid positions, `0 ..< count`.
    @inlinable public var indices: Range<Int> { 0 ..< count }

    /// Walks the pages in order rather than looking every element up.
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline let pages: [ContiguousArray<Element>]
        @usableFromInline var page = 0
        @usableFromInline var index = 0

        @inlinable init(pages: [ContiguousArray<Element>]) { self.pages = pages }

        /// The next element, or nil after the last one.
        @inlinable public mutating func next() -> Element? {
            guard page < pages.count else { return nil }
            defer {
                index &+= 1
                if index == pages[page].count {
                    page &+= 1
                    index = 0
                }
            }
            return pages[page][index]
        }
    }

    /// An iterator that walks the pages in order.
    @inlinable public func makeIterator() -> Iterator { Iterator(pages: pages) }
}

extension PagedArray: ExpressibleByArrayLiteral {
    /// An array of the literal's elements, in order.
    @inlinable public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension PagedArray: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order.
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storedCount == rhs.storedCount && lhs.pages == rhs.pages
    }
}

extension PagedArray: Sendable where Element: Sendable {}

extension PagedArray: CustomStringConvertible {
    /// The elements as an array literal would print them, such as `[1, 2, 3]`.
    public var description: String { Array(self).description }
}
