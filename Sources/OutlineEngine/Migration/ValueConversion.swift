import Foundation

/// Converting attribute values between numeric and boolean types during migration.
enum ValueConversion {
    /// `value` (of type `from`) as a value of type `to`, or nil when it does not convert exactly
    /// and `lossy` is false. With `lossy`, narrowing truncates like Core Data.
    static func convert(_ value: Value, from: AttributeType, to: AttributeType, lossy: Bool) -> Value? {
        if from == to { return value }
        switch to {
        case .integer16, .integer32, .integer64:
            if let exact = value.converted(to: to) { return exact }
            guard lossy else { return nil }
            let wide: Int64
            switch value {
            case .integer(let v): wide = v
            case .boolean(let b): wide = b ? 1 : 0
            case .double(let d): wide = d.isNaN ? 0 : Int64(max(min(d.rounded(.towardZero), 9.2e18), -9.2e18))
            case .decimal(let d): wide = Int64(max(min(NSDecimalNumber(decimal: d).doubleValue.rounded(.towardZero), 9.2e18), -9.2e18))
            default: return nil
            }
            switch to {
            case .integer16: return .integer(Int64(Int16(truncatingIfNeeded: wide)))
            case .integer32: return .integer(Int64(Int32(truncatingIfNeeded: wide)))
            default: return .integer(wide)
            }
        case .double, .float:
            guard let d = value.doubleValue else { return nil }
            let result = to == .float ? Double(Float(d)) : d
            if lossy || exactlyEqual(result, value) { return .double(result) }
            return nil
        case .decimal:
            guard let converted = value.converted(to: .decimal) else { return nil }
            if lossy { return converted }
            if case .decimal(let d) = converted, case .double(let original) = value {
                return NSDecimalNumber(decimal: d).doubleValue == original ? converted : nil
            }
            return converted
        case .boolean:
            if let b = value.booleanValue { return .boolean(b) }
            if case .double(let d) = value, d == 0 || d == 1 { return .boolean(d == 1) }
            if case .decimal(let d) = value, d == 0 || d == 1 { return .boolean(d == 1) }
            guard lossy, let d = value.doubleValue else { return nil }
            return .boolean(d != 0)
        default:
            return value.converted(to: to)
        }
    }

    /// Whether the double `result` represents `original` without loss.
    private static func exactlyEqual(_ result: Double, _ original: Value) -> Bool {
        switch original {
        case .integer(let v): return Int64(exactly: result) == v
        case .double(let d): return result == d || (result.isNaN && d.isNaN)
        case .boolean(let b): return result == (b ? 1 : 0)
        case .decimal(let d): return Decimal(result) == d
        default: return false
        }
    }
}
