import Foundation

/// The values of one attribute for every row of an entity table, stored by type.
///
/// Integers live in `integers`, booleans in `flags` (one byte each, nil included), doubles,
/// floats and dates (seconds since 2001) in `doubles`, strings and binary data in `bytes`; the
/// rare kinds (Decimal, UUID, Undefined) in `others`. Integers and doubles use `present` to tell
/// nil from a value.
///
/// A column made by ``allNil(type:rows:)`` stores nothing at all until a row gets a value: many
/// columns of a big document (notes, dates, extra data) are nil in every row, and a million
/// rows of nothing would otherwise cost megabytes. Code that reads the arrays directly checks
/// ``isNil(_:)`` first; every row of such a column is nil.
package struct AttributeColumn: Sendable {
    /// How the column stores its values.
    package enum Storage: Sendable {
        case integer, flag, double, bytes, other
    }

    /// The byte a ``flags`` row holds for nil.
    package static let nilFlag: UInt8 = 0xFF

    package let type: AttributeType
    package let storage: Storage
    package var integers = PagedArray<Int64>()
    /// Booleans: 0 (false), 1 (true) or ``nilFlag``.
    package var flags = PagedArray<UInt8>()
    package var doubles = PagedArray<Double>()
    package var bytes = ByteColumn()
    package var others = PagedArray<Value?>()
    package var present = PagedArray<Bool>()
    /// The rows of a column that has been nil in every row since ``allNil(type:rows:)`` made
    /// it; while this is above 0 the arrays above are empty.
    package private(set) var untouchedNilRows = 0

    package init(type: AttributeType) {
        self.type = type
        switch type {
        case .integer16, .integer32, .integer64: storage = .integer
        case .boolean: storage = .flag
        case .double, .float, .date: storage = .double
        case .string, .uri, .objectID, .binary, .transformable: storage = .bytes
        case .decimal, .uuid, .undefined: storage = .other
        }
    }

    /// A column of `rows` nil values that stores nothing until one of them is set.
    package static func allNil(type: AttributeType, rows: Int) -> AttributeColumn {
        var column = AttributeColumn(type: type)
        column.untouchedNilRows = rows
        return column
    }

    /// A column of `rows` copies of `value` (in the storage form of `type`), filled a page at
    /// a time; nil gives ``allNil(type:rows:)``.
    package static func repeating(_ value: Value?, type: AttributeType, rows: Int) -> AttributeColumn {
        var column = allNil(type: type, rows: rows)
        guard let value else { return column }
        column.untouchedNilRows = 0
        switch column.storage {
        case .integer:
            column.integers = PagedArray(repeating: value.integerValue ?? 0, count: rows)
            column.present = PagedArray(repeating: true, count: rows)
        case .flag:
            column.flags = PagedArray(repeating: flag(value), count: rows)
        case .double:
            let double = if case .date(let d) = value { d.timeIntervalSinceReferenceDate } else { value.doubleValue ?? 0 }
            column.doubles = PagedArray(repeating: double, count: rows)
            column.present = PagedArray(repeating: true, count: rows)
        case .bytes, .other:
            column.reserve(rows)
            for _ in 0 ..< rows { column.append(value) }
        }
        return column
    }

    /// The number of nil rows, counted a page at a time.
    package var nilCount: Int {
        if untouchedNilRows > 0 { return untouchedNilRows }
        var nils = 0
        switch storage {
        case .integer, .double: present.forEachPage { _, page in for p in page where !p { nils += 1 } }
        case .flag: flags.forEachPage { _, page in for f in page where f == Self.nilFlag { nils += 1 } }
        case .bytes: bytes.lengths.forEachPage { _, page in for length in page where length < 0 { nils += 1 } }
        case .other: others.forEachPage { _, page in for value in page where value == nil { nils += 1 } }
        }
        return nils
    }

    package var count: Int {
        if untouchedNilRows > 0 { return untouchedNilRows }
        return switch storage {
        case .integer: integers.count
        case .flag: flags.count
        case .double: doubles.count
        case .bytes: bytes.count
        case .other: others.count
        }
    }

    package mutating func reserve(_ rows: Int, bytesPerRow: Int = 16) {
        if untouchedNilRows > 0 { return }
        switch storage {
        case .integer:
            integers.reserveCapacity(rows)
            present.reserveCapacity(rows)
        case .flag: flags.reserveCapacity(rows)
        case .double:
            doubles.reserveCapacity(rows)
            present.reserveCapacity(rows)
        case .bytes: bytes.reserve(rows: rows, bytes: rows * bytesPerRow)
        case .other: others.reserveCapacity(rows)
        }
    }

    /// Appends a row. `value` must already have the storage form of ``type`` (see ``Value/converted(to:)``).
    package mutating func append(_ value: Value?) {
        if untouchedNilRows > 0 {
            if value == nil {
                untouchedNilRows += 1
                return
            }
            materialize()
        }
        switch storage {
        case .integer:
            integers.append(value?.integerValue ?? 0)
            present.append(value != nil)
        case .flag:
            flags.append(Self.flag(value))
        case .double:
            switch value {
            case .date(let d)?: doubles.append(d.timeIntervalSinceReferenceDate)
            case let v?: doubles.append(v.doubleValue ?? 0)
            case nil: doubles.append(0)
            }
            present.append(value != nil)
        case .bytes:
            switch value {
            case .string(let s)?: bytes.append(string: s)
            case .binary(let d)?: d.withUnsafeBytes { bytes.append($0) }
            default: bytes.append(nil)
            }
        case .other:
            others.append(value)
        }
    }

    /// Appends a nil row: ``append(_:)`` with nil, without looking at a value (stores reading
    /// a million objects call it for every attribute of every object).
    package mutating func appendNil() {
        if untouchedNilRows > 0 {
            untouchedNilRows += 1
            return
        }
        switch storage {
        case .integer:
            integers.append(0)
            present.append(false)
        case .flag: flags.append(Self.nilFlag)
        case .double:
            doubles.append(0)
            present.append(false)
        case .bytes: bytes.append(nil)
        case .other: others.append(nil)
        }
    }

    /// Appends `count` nil rows: ``appendNil()`` `count` times, a page at a time.
    package mutating func appendNils(_ count: Int) {
        if untouchedNilRows > 0 {
            untouchedNilRows += count
            return
        }
        switch storage {
        case .integer:
            integers.append(repeating: 0, count: count)
            present.append(repeating: false, count: count)
        case .flag: flags.append(repeating: Self.nilFlag, count: count)
        case .double:
            doubles.append(repeating: 0, count: count)
            present.append(repeating: false, count: count)
        case .bytes: bytes.appendNils(count)
        case .other: others.append(repeating: nil, count: count)
        }
    }

    /// Removes the last `count` rows.
    package mutating func removeLast(_ count: Int) {
        if untouchedNilRows > 0 {
            precondition(count <= untouchedNilRows, "cannot remove \(count) of the column's \(untouchedNilRows) rows")
            untouchedNilRows -= count
            return
        }
        switch storage {
        case .integer:
            integers.removeLast(count)
            present.removeLast(count)
        case .flag: flags.removeLast(count)
        case .double:
            doubles.removeLast(count)
            present.removeLast(count)
        case .bytes: bytes.removeLast(count)
        case .other: others.removeLast(count)
        }
    }

    /// Sets `row` to the integer `value`: ``set(_:_:)`` with `.integer(value)`, without making a ``Value``.
    package mutating func setInteger(_ row: Int, _ value: Int64) {
        guard untouchedNilRows == 0, storage == .integer else { return set(row, .integer(value)) }
        integers[row] = value
        present[row] = true
    }

    /// Sets `row` of a Boolean column to `value`: ``set(_:_:)`` with `.boolean(value)`, without making a ``Value``.
    package mutating func setBoolean(_ row: Int, _ value: Bool) {
        guard untouchedNilRows == 0, storage == .flag else { return set(row, .boolean(value)) }
        flags[row] = value ? 1 : 0
    }

    /// Sets `row` of a Double, Float or Date column to `value` (a date as seconds since 2001):
    /// ``set(_:_:)`` with the value, without making a ``Value``.
    package mutating func setDouble(_ row: Int, _ value: Double) {
        guard untouchedNilRows == 0, storage == .double else {
            return set(row, type == .date ? .date(Date(timeIntervalSinceReferenceDate: value)) : .double(value))
        }
        doubles[row] = value
        present[row] = true
    }

    /// Sets `row` of a String, URI, Binary or Transformable column to `bytes` (UTF-8 for text):
    /// ``set(_:_:)`` with the value, without making a ``Value``.
    package mutating func setBytes(_ row: Int, _ value: UnsafeRawBufferPointer) {
        guard untouchedNilRows == 0, storage == .bytes else {
            let isData = type == .binary || type == .transformable
            return set(row, isData ? .binary(Data(value)) : .string(String(decoding: value, as: UTF8.self)))
        }
        bytes.set(row, value)
    }

    /// Replaces the value of `row`.
    package mutating func set(_ row: Int, _ value: Value?) {
        if untouchedNilRows > 0 {
            precondition(row < untouchedNilRows, "row \(row) is past the column's \(untouchedNilRows) rows")
            if value == nil { return }
            materialize()
        }
        switch storage {
        case .integer:
            integers[row] = value?.integerValue ?? 0
            present[row] = value != nil
        case .flag:
            flags[row] = Self.flag(value)
        case .double:
            switch value {
            case .date(let d)?: doubles[row] = d.timeIntervalSinceReferenceDate
            case let v?: doubles[row] = v.doubleValue ?? 0
            case nil: doubles[row] = 0
            }
            present[row] = value != nil
        case .bytes:
            switch value {
            case .string(let s)?: bytes.set(row, string: s)
            case .binary(let d)?: d.withUnsafeBytes { bytes.set(row, $0) }
            default: bytes.set(row, nil)
            }
        case .other:
            others[row] = value
        }
    }

    /// The value of `row`, or nil.
    package func value(_ row: Int) -> Value? {
        if untouchedNilRows > 0 { return nil }
        switch storage {
        case .integer:
            guard present[row] else { return nil }
            return .integer(integers[row])
        case .flag:
            let flag = flags[row]
            return flag == Self.nilFlag ? nil : .boolean(flag != 0)
        case .double:
            guard present[row] else { return nil }
            return type == .date ? .date(Date(timeIntervalSinceReferenceDate: doubles[row])) : .double(doubles[row])
        case .bytes:
            switch type {
            case .binary, .transformable: return bytes.withBytes(row) { $0.map { .binary(Data($0)) } }
            default: return bytes.string(row).map(Value.string)
            }
        case .other:
            return others[row]
        }
    }

    package func isNil(_ row: Int) -> Bool {
        if untouchedNilRows > 0 { return true }
        return switch storage {
        case .integer, .double: !present[row]
        case .flag: flags[row] == Self.nilFlag
        case .bytes: bytes.isNil(row)
        case .other: others[row] == nil
        }
    }

    /// The ``flags`` byte for a boolean value in storage form.
    @inline(__always)
    static func flag(_ value: Value?) -> UInt8 {
        guard let value else { return nilFlag }
        return (value.integerValue ?? 0) != 0 ? 1 : 0
    }

    /// Gives an untouched all-nil column real storage: nil in every row.
    private mutating func materialize() {
        let rows = untouchedNilRows
        untouchedNilRows = 0
        switch storage {
        case .integer:
            integers = PagedArray(repeating: 0, count: rows)
            present = PagedArray(repeating: false, count: rows)
        case .flag:
            flags = PagedArray(repeating: Self.nilFlag, count: rows)
        case .double:
            doubles = PagedArray(repeating: 0, count: rows)
            present = PagedArray(repeating: false, count: rows)
        case .bytes:
            bytes = ByteColumn(chunks: [], starts: PagedArray(repeating: 0, count: rows), lengths: PagedArray(repeating: -1, count: rows))
        case .other:
            others = PagedArray(repeating: nil, count: rows)
        }
    }
}
