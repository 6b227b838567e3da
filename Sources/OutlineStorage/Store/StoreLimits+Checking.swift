import Foundation
import OutlineEngine

extension StoreLimits {
    /// Checks a graph and its metadata against the format limits before they are written, so
    /// that no save writes what a reader would refuse.
    ///
    /// - Throws: ``StorageError`` `limitExceeded` naming the object, attribute or metadata key
    ///   and the offending value; nothing has been written then.
    /// - Complexity: O(n) in the objects, values and metadata; no recursion.
    public static func check(_ graph: ObjectGraph, metadata: StoreMetadata, file: String?) throws {
        try check(graph.snapshot(), metadata: metadata, file: file)
    }

    /// Checks a snapshot of a graph, as ``check(_:metadata:file:)-(ObjectGraph,_,_)`` does.
    public static func check(_ graph: GraphSnapshot, metadata: StoreMetadata, file: String?) throws {
        func refuse(_ location: String?, _ message: String) -> StorageError {
            StorageError(
                .limitExceeded, file: file, at: location, message,
                hint: "Correct it and save again; nothing was written.")
        }
        guard graph.nextID <= maximumNextObjectID else {
            throw refuse(nil, "the next object id \(graph.nextID) is over the largest a document may hold (\(maximumNextObjectID))")
        }
        let schema = graph.schema
        for table in graph.tables {
            let info = schema.infos[table.entity]
            guard table.liveCount <= maximumObjectsPerEntity else {
                throw refuse("entity \(info.name)", "\(table.liveCount) objects are more than one entity may have (\(maximumObjectsPerEntity))")
            }
            if let row = firstLiveRow(of: table, in: table.ids, where: { id, _ in id > maximumObjectID }) {
                throw refuse("\(info.name) z\(table.ids[row])", "the object id is over the largest a document may hold (z\(maximumObjectID))")
            }
            for (a, column) in table.attributes.enumerated() where !info.attributes[a].isTransient {
                try checkColumn(column, table: table, name: "\(info.name).\(info.attributes[a].name)", refuse)
            }
            for (r, column) in table.relationships.enumerated() where column.isToMany && !info.relationships[r].isTransient {
                if let row = column.many.firstRow(
                    in: 0 ..< min(column.many.count, table.rowCount),
                    where: { row, list in list.count > maximumRelationshipMembers && table.alive[row] })
                {
                    throw refuse(
                        "\(info.name) z\(table.ids[row]).\(info.relationships[r].name)",
                        "\(column.many.memberCount(row)) related objects are more than one relationship may list (\(maximumRelationshipMembers))")
                }
            }
        }
        try checkMetadata(metadata.custom, file: file)
    }

    private static func checkColumn(
        _ column: AttributeColumn, table: EntityTable, name: String,
        _ refuse: (String?, String) -> StorageError
    ) throws {
        guard column.untouchedNilRows == 0 else { return }  // every row nil
        switch column.storage {
        case .double where column.type == .date:
            if let row = firstLiveRow(of: table, in: column.doubles, where: { !isStorableDate($0) && !column.isNil($1) }) {
                throw refuse("\(name) of z\(table.ids[row])", "the date \(describeDate(column.doubles[row])) \(unstorableDate)")
            }
        case .bytes:
            // A nil row has length -1: only present rows can be too long.
            if let row = firstLiveRow(of: table, in: column.bytes.lengths, where: { length, _ in Int(length) > maximumValueBytes }) {
                throw refuse(
                    "\(name) of z\(table.ids[row])",
                    "the value has \(column.bytes.lengths[row]) bytes, more than a value may hold (\(maximumValueBytes))")
            }
        default:
            break
        }
    }

    /// The first row of `table` that is alive and whose element of `column` (one per row, or
    /// fewer) satisfies `isWrong` (given the element and its row); nil when none does. Reads a page at a time: a subscript per
    /// row made this check a noticeable part of saving a big document.
    ///
    /// - Complexity: O(rows).
    private static func firstLiveRow<Element>(
        of table: EntityTable, in column: PagedArray<Element>, where isWrong: (Element, Int) -> Bool
    ) -> Int? {
        var found: Int?
        let rows = 0 ..< min(column.count, table.rowCount)
        var start = rows.lowerBound
        while start < rows.upperBound && found == nil {
            let page = start / PagedArray<Element>.pageSize
            let end = min(rows.upperBound, column.indices(ofPage: page).upperBound)
            column.withPage(page) { elements in
                table.alive.withPage(page) { alive in
                    let first = column.indices(ofPage: page).lowerBound
                    for row in start ..< end where isWrong(elements[row - first], row) && alive[row - first] {
                        found = row
                        return
                    }
                }
            }
            start = end
        }
        return found
    }

    /// Why a date cannot be stored, after "the date X".
    static let unstorableDate = "is not a finite time between the years 0 and 9999, which is all a document may hold"

    /// `seconds` since 2001 for messages: `nan`, `inf`, `1e+308`, `-63145526401.0`.
    static func describeDate(_ seconds: TimeInterval) -> String {
        "\(seconds) (seconds since 2001)"
    }

    /// Checks custom metadata: the number of keys, each key once, and each value.
    ///
    /// - Parameter reading: whether the metadata comes from a file being read (else it is
    ///   about to be written), which decides the hint.
    /// - Throws: ``StorageError`` `limitExceeded` naming the key.
    static func checkMetadata(
        _ custom: [(key: String, value: PropertyListValue)], file: String?, at location: String? = nil,
        reading: Bool = false
    ) throws {
        func refuse(_ message: String) -> StorageError {
            StorageError(
                .limitExceeded, file: file, at: location, message,
                hint: reading
                    ? "No document may hold such metadata; the file was not written by this library or Core Data, or was edited."
                    : "Correct the metadata and save again; nothing was written.")
        }
        guard custom.count <= maximumMetadataKeys else {
            throw refuse("the document has \(custom.count) custom metadata keys, more than \(maximumMetadataKeys)")
        }
        var seen = Set<String>()
        var size = 0
        for (key, value) in custom {
            guard seen.insert(key).inserted else { throw refuse("custom metadata key \"\(key)\" appears twice") }
            if let problem = metadataProblem(value, key: key, size: &size) { throw refuse(problem) }
        }
        size += custom.reduce(0) { $0 + $1.key.utf8.count + 10 }
        guard size <= maximumMetadataBytes else {
            throw refuse("the custom metadata takes about \(size) bytes, more than \(maximumMetadataBytes)")
        }
    }

    /// What is wrong with custom metadata value `value` of `key`, or nil: nesting deeper than
    /// ``maximumMetadataDepth``, a dictionary with a key twice, a date that cannot be stored.
    /// Adds the value's size, as the binary format writes it (about), to `size`.
    ///
    /// - Complexity: O(size of the value); no recursion.
    static func metadataProblem(_ value: PropertyListValue, key: String, size: inout Int) -> String? {
        var pending: [(value: PropertyListValue, path: String, depth: Int)] = [(value, key, 1)]
        while let (value, path, depth) = pending.popLast() {
            guard depth <= maximumMetadataDepth else {
                return "custom metadata \"\(key)\" nests deeper than \(maximumMetadataDepth) levels"
            }
            size += 11
            switch value {
            case .string(let text): size += text.utf8.count
            case .data(let bytes): size += bytes.count
            case .integer, .real, .boolean: break
            case .date(let date):
                let seconds = date.timeIntervalSinceReferenceDate
                guard isStorableDate(seconds) else {
                    return "custom metadata \"\(path)\" holds the date \(describeDate(seconds)), which \(unstorableDate)"
                }
            case .array(let items):
                for item in items.reversed() { pending.append((item, path, depth + 1)) }
            case .dictionary(let entries):
                var names = Set<String>()
                for (name, _) in entries {
                    guard names.insert(name).inserted else {
                        return "custom metadata \"\(path)\" has the key \"\(name)\" twice"
                    }
                    size += name.utf8.count + 10
                }
                for (name, item) in entries.reversed() { pending.append((item, "\(path).\(name)", depth + 1)) }
            }
        }
        return nil
    }
}
