import Foundation

/// A property-list value, as custom metadata keys of a store hold them.
public indirect enum PropertyListValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// True or false.
    case boolean(Bool)
    /// A point in time.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// An ordered list of values.
    case array([PropertyListValue])
    /// Keys keep the order they were read in; writers sort them as Core Data does.
    case dictionary([(key: String, value: PropertyListValue)])

    /// Whether both are the same value; dictionaries compare their entries in order.
    public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
        case (.boolean(let a), .boolean(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Hashes the value consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let v):
            hasher.combine(0)
            hasher.combine(v)
        case .integer(let v):
            hasher.combine(1)
            hasher.combine(v)
        case .real(let v):
            hasher.combine(2)
            hasher.combine(v)
        case .boolean(let v):
            hasher.combine(3)
            hasher.combine(v)
        case .date(let v):
            hasher.combine(4)
            hasher.combine(v)
        case .data(let v):
            hasher.combine(5)
            hasher.combine(v)
        case .array(let v):
            hasher.combine(6)
            hasher.combine(v)
        case .dictionary(let v):
            hasher.combine(7)
            for (k, value) in v {
                hasher.combine(k)
                hasher.combine(value)
            }
        }
    }
}
