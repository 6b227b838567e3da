import Foundation

/// The values of one attribute for every row of an entity table, stored by type.
///
/// Integers and booleans live in `integers`, doubles, floats and dates (seconds since 2001) in
/// `doubles`, strings and binary data in `bytes`; the rare kinds (Decimal, UUID, Undefined) in
/// `others`. Fixed-width kinds use `present` to tell nil from a value.
@_spi(Storage) public struct AttributeColumn: Sendable {
    /// How the column stores its values.
    public enum Storage: Sendable {
        case integer, double, bytes, other
    }

    public let type: AttributeType
    public let storage: Storage
    public var integers: [Int64] = []
    public var doubles: [Double] = []
    public var bytes = ByteColumn()
    public var others: [Value?] = []
    public var present: [Bool] = []

    public init(type: AttributeType) {
        self.type = type
        switch type {
        case .integer16, .integer32, .integer64, .boolean: storage = .integer
        case .double, .float, .date: storage = .double
        case .string, .uri, .objectID, .binary, .transformable: storage = .bytes
        case .decimal, .uuid, .undefined: storage = .other
        }
    }

    public var count: Int {
        switch storage {
        case .integer: integers.count
        case .double: doubles.count
        case .bytes: bytes.count
        case .other: others.count
        }
    }

    public mutating func reserve(_ rows: Int, bytesPerRow: Int = 16) {
        switch storage {
        case .integer: integers.reserveCapacity(rows); present.reserveCapacity(rows)
        case .double: doubles.reserveCapacity(rows); present.reserveCapacity(rows)
        case .bytes: bytes.reserve(rows: rows, bytes: rows * bytesPerRow)
        case .other: others.reserveCapacity(rows)
        }
    }

    /// Appends a row. `value` must already have the storage form of ``type`` (see ``Value/converted(to:)``).
    public mutating func append(_ value: Value?) {
        switch storage {
        case .integer:
            integers.append(value?.integerValue ?? 0)
            present.append(value != nil)
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

    /// Replaces the value of `row`.
    public mutating func set(_ row: Int, _ value: Value?) {
        switch storage {
        case .integer:
            integers[row] = value?.integerValue ?? 0
            present[row] = value != nil
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
    public func value(_ row: Int) -> Value? {
        switch storage {
        case .integer:
            guard present[row] else { return nil }
            return type == .boolean ? .boolean(integers[row] != 0) : .integer(integers[row])
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

    public func isNil(_ row: Int) -> Bool {
        switch storage {
        case .integer, .double: !present[row]
        case .bytes: bytes.isNil(row)
        case .other: others[row] == nil
        }
    }
}
