import Foundation

/// An attribute value. A missing value (Core Data's `nil`) is represented by `Optional.none`.
///
/// Each case stands for a family of attribute types: `.integer` for Integer 16/32/64,
/// `.double` for Double and Float, `.string` for String and URI, `.binary` for Binary and
/// Transformable. ``Value/converted(to:)`` checks and converts a value for an attribute type.
public enum Value: Sendable, Hashable {
    /// A value of any integer type (16, 32 or 64 bits).
    case integer(Int64)
    /// A value of a floating-point type (`double` or `float`).
    case double(Double)
    /// A value of a `decimal` attribute.
    case decimal(Decimal)
    /// Text: a `string` attribute's value, or the text of a `uri` or `objectID` one.
    case string(String)
    /// A value of a `boolean` attribute.
    case boolean(Bool)
    /// A point in time, stored as seconds since 2001-01-01 00:00:00 UTC like Core Data.
    case date(Date)
    /// Bytes: a `binary` or `transformable` attribute's value.
    case binary(Data)
    /// A value of a `uuid` attribute.
    case uuid(UUID)
}

extension Value {
    /// The integer, if this is an integer or a boolean.
    public var integerValue: Int64? {
        switch self {
        case .integer(let v): v
        case .boolean(let b): b ? 1 : 0
        default: nil
        }
    }

    /// The number as a `Double`, if this is any kind of number or a boolean.
    public var doubleValue: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        case .boolean(let b): b ? 1 : 0
        default: nil
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is a boolean or the integer 0 or 1.
    public var booleanValue: Bool? {
        switch self {
        case .boolean(let b): b
        case .integer(let v) where v == 0 || v == 1: v == 1
        default: nil
        }
    }

    /// The date, if this is a date.
    public var dateValue: Date? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// The bytes, if this is binary data.
    public var binaryValue: Data? {
        if case .binary(let d) = self { return d }
        return nil
    }

    /// A short, human-readable rendering for messages and listings.
    public var displayString: String {
        switch self {
        case .integer(let v): String(v)
        case .double(let v): String(v)
        case .decimal(let v): v.description
        case .string(let s): "\"\(s)\""
        case .boolean(let b): b ? "YES" : "NO"
        case .date(let d): d.formatted(.iso8601)
        case .binary(let d): "<\(d.count) bytes>"
        case .uuid(let u): u.uuidString
        }
    }

    /// This value converted to the storage form of `type`, or `nil` when it does not fit.
    ///
    /// Conversions are exact: an integer out of range, a fractional double for an integer
    /// attribute, or a value of another family all give `nil`.
    public func converted(to type: AttributeType) -> Value? {
        switch type {
        case .integer16, .integer32, .integer64:
            let n: Int64?
            switch self {
            case .integer(let v): n = v
            case .boolean(let b): n = b ? 1 : 0
            case .double(let d): n = d.rounded() == d ? Int64(exactly: d) : nil
            case .decimal(let d):
                let dbl = NSDecimalNumber(decimal: d).doubleValue
                n = dbl.rounded() == dbl ? Int64(exactly: dbl) : nil
            default: n = nil
            }
            guard let n, type.integerRange!.contains(n) else { return nil }
            return .integer(n)
        case .double, .float:
            switch self {
            case .double: return self
            case .integer(let v): return .double(Double(v))
            case .decimal(let d): return .double(NSDecimalNumber(decimal: d).doubleValue)
            case .boolean(let b): return .double(b ? 1 : 0)
            default: return nil
            }
        case .decimal:
            switch self {
            case .decimal: return self
            case .integer(let v): return .decimal(Decimal(v))
            case .double(let d): return .decimal(Decimal(d))
            case .boolean(let b): return .decimal(b ? 1 : 0)
            default: return nil
            }
        case .boolean:
            return booleanValue.map(Value.boolean)
        case .string, .uri, .objectID:
            if case .string = self { return self }
            return nil
        case .date:
            if case .date = self { return self }
            return nil
        case .binary, .transformable:
            if case .binary = self { return self }
            return nil
        case .uuid:
            if case .uuid = self { return self }
            if case .string(let s) = self, let u = UUID(uuidString: s) { return .uuid(u) }
            return nil
        case .undefined:
            return self
        }
    }
}
