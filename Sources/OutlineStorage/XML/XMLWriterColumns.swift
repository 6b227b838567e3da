import OutlineEngine

/// The columns of a snapshot as the XML writer reads them: plain pointers to the pages of every
/// column, so that fetching a value costs two loads and no reference counting (reaching a value
/// through the nested arrays of ``EntityTable`` retains and releases them per value, which cost
/// the writer as much as the formatting).
///
/// Every page pointer points into the storage of an array that `snapshot` holds: a snapshot never
/// changes, so the storage stays where it is and alive as long as the snapshot is. The views must
/// be used only within `withExtendedLifetime(snapshot)` and released with ``deallocate()``.
struct XMLWriterColumns {
    /// The pages of one ``PagedArray``.
    struct Pages<Element> {
        private let pages: UnsafeMutablePointer<UnsafePointer<Element>>

        init(_ array: PagedArray<Element>) {
            pages = .allocate(capacity: max(array.pageCount, 1))
            for page in 0 ..< array.pageCount {
                // Pages are never empty (see PagedArray), so every one has storage.
                pages[page] = array.withPage(page) { $0.baseAddress ?? UnsafePointer(bitPattern: 1)! }
            }
        }

        @inline(__always)
        subscript(row: Int) -> Element {
            pages[row &>> PagedArray<Element>.pageShift][row & (PagedArray<Element>.pageSize &- 1)]
        }

        /// A pointer to the element at `row`, to read it in place.
        @inline(__always)
        func pointer(_ row: Int) -> UnsafePointer<Element> {
            pages[row &>> PagedArray<Element>.pageShift] + (row & (PagedArray<Element>.pageSize &- 1))
        }

        func deallocate() { pages.deallocate() }
    }

    /// One attribute column, by how it is stored.
    enum Column {
        /// Nil in every row (an untouched all-nil column, or a transient or undefined attribute).
        case none
        case integers(Pages<Int64>, present: Pages<Bool>)
        case flags(Pages<UInt8>)
        case doubles(Pages<Double>, present: Pages<Bool>)
        case bytes(starts: Pages<Int>, lengths: Pages<Int32>, chunks: UnsafeMutablePointer<UnsafePointer<UInt8>>)
        /// Decimal, UUID, undefined: read through the table itself (rare).
        case other
    }

    /// One relationship column.
    enum Relationship {
        case single(Pages<UInt64>)
        /// The column itself: its lists are read in place, from any thread, while it is not changed.
        case many(ListColumn)
    }

    /// One entity's table.
    struct Table {
        var ids: Pages<UInt64>
        var alive: Pages<Bool>
        var rowCount: Int
        /// By ``AttributeIndex`` raw value.
        var attributes: UnsafeMutableBufferPointer<Column>
        /// By ``RelationshipIndex`` raw value.
        var relationships: UnsafeMutableBufferPointer<Relationship>
    }

    /// By ``EntityIndex`` raw value.
    let tables: UnsafeMutableBufferPointer<Table>

    init(_ snapshot: GraphSnapshot) {
        let source = snapshot.tables
        tables = .allocate(capacity: source.count)
        for (e, table) in source.enumerated() {
            let attributes = UnsafeMutableBufferPointer<Column>.allocate(capacity: table.attributes.count)
            for (a, column) in table.attributes.enumerated() {
                attributes.initializeElement(at: a, to: Self.column(column))
            }
            let relationships = UnsafeMutableBufferPointer<Relationship>.allocate(capacity: table.relationships.count)
            for (r, column) in table.relationships.enumerated() {
                relationships.initializeElement(at: r, to: column.isToMany ? .many(column.many) : .single(Pages(column.single)))
            }
            tables.initializeElement(
                at: e,
                to: Table(
                    ids: Pages(table.ids), alive: Pages(table.alive), rowCount: table.rowCount,
                    attributes: attributes, relationships: relationships))
        }
    }

    private static func column(_ column: AttributeColumn) -> Column {
        if column.untouchedNilRows > 0 { return .none }
        switch column.storage {
        case .integer: return .integers(Pages(column.integers), present: Pages(column.present))
        case .flag: return .flags(Pages(column.flags))
        case .double: return .doubles(Pages(column.doubles), present: Pages(column.present))
        case .other: return .other
        case .bytes:
            let chunks = column.bytes.chunks
            let pointers = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: max(chunks.count, 1))
            for (k, chunk) in chunks.enumerated() {
                pointers[k] = chunk.withUnsafeBytes { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)! }
            }
            return .bytes(starts: Pages(column.bytes.starts), lengths: Pages(column.bytes.lengths), chunks: pointers)
        }
    }

    func deallocate() {
        for table in tables {
            table.ids.deallocate()
            table.alive.deallocate()
            for column in table.attributes {
                switch column {
                case .none, .other: break
                case .integers(let values, let present):
                    values.deallocate()
                    present.deallocate()
                case .doubles(let values, let present):
                    values.deallocate()
                    present.deallocate()
                case .flags(let values): values.deallocate()
                case .bytes(let starts, let lengths, let chunks):
                    starts.deallocate()
                    lengths.deallocate()
                    chunks.deallocate()
                }
            }
            for relationship in table.relationships {
                switch relationship {
                case .single(let pages): pages.deallocate()
                case .many: break
                }
            }
            table.attributes.deallocate()
            table.relationships.deallocate()
        }
        tables.deallocate()
    }
}
