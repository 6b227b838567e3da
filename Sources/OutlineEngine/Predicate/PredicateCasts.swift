import Foundation

/// The conversions of `CAST(value, "type")`, as Foundation makes them: seconds since
/// 2001-01-01 to and from dates, strings to numbers, decimals, UUIDs and base64 data, and
/// values to their text.
enum PredicateCasts {
    /// The type names CAST accepts.
    static let types = ["NSDate", "NSDecimalNumber", "NSNumber", "NSUUID", "NSData", "NSString"]

    static let typesHint = "CAST converts to " + types.map { "\"\($0)\"" }.joined(separator: ", ") + "."

    static let hints = [
        "NSDate": "NSDate takes seconds since 2001-01-01 00:00:00 UTC, as in CAST(721692800, \"NSDate\").",
        "NSDecimalNumber": "NSDecimalNumber takes a number or a string of digits, as in CAST(\"12.50\", \"NSDecimalNumber\").",
        "NSNumber": "NSNumber takes a number, a date or a string such as \"42\", \"1.5\" or \"inf\".",
        "NSUUID": "NSUUID takes a string such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\".",
        "NSData": "NSData takes a base64 string, as in CAST(\"AQID\", \"NSData\").",
        "NSString": "NSString takes a number, a string, a date or a UUID.",
    ]

    /// `value` converted to `typeName`; `nil` when it cannot be (including a `nil` value).
    static func cast(_ value: Value?, to typeName: String) -> Value? {
        func isDecimalText(_ s: String) -> Bool {
            !s.isEmpty && s.allSatisfy { "0123456789.-+eE".contains($0) } && Double(s) != nil
        }
        switch (typeName, value) {
        case ("NSDate", .date(let d)?): return .date(d)
        case ("NSDate", let v?):
            guard let seconds = v.doubleValue, seconds.isFinite else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDecimalNumber", .decimal(let d)?): return .decimal(d)
        case ("NSDecimalNumber", .integer(let i)?): return .decimal(Decimal(i))
        case ("NSDecimalNumber", .double(let d)?) where d.isFinite: return .decimal(Decimal(d))
        case ("NSDecimalNumber", .string(let s)?) where isDecimalText(s):
            return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal)
        case ("NSNumber", .string(let s)?): return Int64(s).map(Value.integer) ?? Double(s).map(Value.double)
        case ("NSNumber", .date(let d)?): return .double(d.timeIntervalSinceReferenceDate)
        case ("NSNumber", let v?) where v.doubleValue != nil: return v
        case ("NSUUID", .uuid(let u)?): return .uuid(u)
        case ("NSUUID", .string(let s)?): return UUID(uuidString: s).map(Value.uuid)
        case ("NSData", .binary(let d)?): return .binary(d)
        case ("NSData", .string(let s)?): return Data(base64Encoded: s).map(Value.binary)
        case ("NSString", .string(let s)?): return .string(s)
        case ("NSString", .integer(let i)?): return .string(String(i))
        case ("NSString", .boolean(let b)?): return .string(b ? "1" : "0")
        case ("NSString", .double(let d)?): return .string(d.isFinite && d == d.rounded() && Swift.abs(d) < 1e15 ? String(Int64(d)) : String(d))
        case ("NSString", .decimal(let d)?): return .string(d.description)
        case ("NSString", .uuid(let u)?): return .string(u.uuidString)
        case ("NSString", .date(let d)?): return .string(d.description)
        default: return nil
        }
    }
}
