import Foundation
import OutlineEngine

/// How model files spell attribute values: defaults, bounds and counts, read leniently and
/// written the way Xcode writes them.
enum ModelValues {
    /// Whether attributes of `type` have defaults and bounds written as text.
    static func hasTextForm(_ type: AttributeType) -> Bool {
        switch type {
        case .binary, .transformable, .objectID, .undefined: false
        default: true
        }
    }

    /// The type of the bounds (`minValueString`, `maxValueString`) of an attribute of `type`:
    /// the type itself for numbers and dates, a length (Integer 64) for strings and binary data.
    static func boundType(of type: AttributeType) -> AttributeType? {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .date: type
        case .string, .binary, .transformable: .integer64
        default: nil
        }
    }

    /// A value read from a model file, and what was odd about how it was written.
    struct Reading {
        /// The value; nil when the text stands for no value (an empty default of a number).
        var value: Value?
        /// Why the form is odd though accepted (a fraction for an integer, ...), for a warning.
        var oddity: String?
    }

    /// Reads a default or bound for `type` in every form Xcode and its model compiler accept;
    /// nil when the text cannot stand for a value of `type` (the model is refused then).
    ///
    /// - Integers: whole numbers, also written as decimals (`0.0`, `1e3`); a fraction (`1.5`)
    ///   is read toward zero with an oddity; out of the type's range is refused.
    /// - Booleans: `YES`/`NO`, `true`/`false`, `1`/`0`, `1.0`/`0.0` (any case); another number
    ///   is YES unless 0, with an oddity.
    /// - Decimal, Double, Float: finite numbers. Dates: finite seconds since 2001-01-01 UTC.
    /// - Empty text: the empty string for String and URI, no value for the other types.
    /// Surrounding spaces are ignored, except in strings.
    static func read(_ text: String, as type: AttributeType) -> Reading? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty && type != .string && type != .uri && type != .undefined { return Reading(value: nil) }
        switch type {
        case .integer16, .integer32, .integer64:
            var oddity: String?
            let number: Int64
            if let n = Int64(trimmed) {
                number = n
            } else if let d = Double(trimmed), d.isFinite, let whole = Int64(exactly: d.rounded(.towardZero)) {
                number = whole
                if whole != Int64(exactly: d) { oddity = "\"\(trimmed)\" is not a whole number; read as \(whole)" }
            } else {
                return nil
            }
            guard type.integerRange?.contains(number) == true else { return nil }
            return Reading(value: .integer(number), oddity: oddity)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1", "1.0": return Reading(value: .boolean(true))
            case "no", "false", "0", "0.0": return Reading(value: .boolean(false))
            default:
                guard let d = Double(trimmed), d.isFinite else { return nil }
                let flag = d != 0
                return Reading(value: .boolean(flag), oddity: "\"\(trimmed)\" is not YES or NO; read as \(flag ? "YES" : "NO")")
            }
        default:
            return parse(text, as: type).map { Reading(value: $0) }
        }
    }

    /// Parses a value for `type` in its plain form; `nil` when the text does not fit.
    ///
    /// Integers accept an integral decimal form (`0.0`); booleans `YES`/`NO`/`true`/`false`/`1`/`0`;
    /// dates are seconds since 2001-01-01 UTC, as in `defaultDateTimeInterval`.
    static func parse(_ text: String, as type: AttributeType) -> Value? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            let number: Int64?
            if let n = Int64(trimmed) {
                number = n
            } else if let d = Double(trimmed), d.isFinite, d.rounded() == d {
                number = Int64(exactly: d)
            } else {
                number = nil
            }
            guard let number, type.integerRange?.contains(number) == true else { return nil }
            return .integer(number)
        case .double, .float:
            guard let d = Double(trimmed), d.isFinite else { return nil }
            return .double(d)
        case .decimal:
            guard let d = Double(trimmed), d.isFinite, let decimal = Decimal(string: trimmed, locale: posix) else {
                return nil
            }
            return .decimal(decimal)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return .boolean(true)
            case "no", "false", "0": return .boolean(false)
            default: return nil
            }
        case .date:
            guard let seconds = Double(trimmed), seconds.isFinite else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            return UUID(uuidString: trimmed).map(Value.uuid)
        case .string, .uri:
            return .string(text)
        case .binary, .transformable, .objectID, .undefined:
            return nil
        }
    }

    /// Parses a relationship count: a whole number of 0 or more (`1` or `1.0`).
    static func count(_ text: String) -> Int? {
        guard case .integer(let n)? = parse(text, as: .integer64), n >= 0, let count = Int(exactly: n) else {
            return nil
        }
        return count
    }

    /// The text Xcode writes for `value`: `0` for integers, `0.0` for doubles, `YES`/`NO`,
    /// seconds since 2001 for dates.
    static func format(_ value: Value) -> String {
        switch value {
        case .integer(let n): String(n)
        case .double(let d): String(d)
        case .decimal(let d): d.description
        case .string(let s): s
        case .boolean(let b): b ? "YES" : "NO"
        case .date(let date): String(date.timeIntervalSinceReferenceDate)
        case .binary(let data): data.base64EncodedString()
        case .uuid(let u): u.uuidString
        }
    }

    /// What to do about a value that does not parse.
    static func hint(for type: AttributeType, key: String) -> String {
        let example: String
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange.map { " (\($0.lowerBound) to \($0.upperBound))" } ?? ""
            example = "a whole number in range\(range), such as 0"
        case .decimal, .double, .float: example = "a number such as 0.0"
        case .boolean: example = "YES or NO"
        case .date: example = "seconds since 2001-01-01 UTC, such as 0"
        case .uuid: example = "a UUID such as 00000000-0000-0000-0000-000000000000"
        default: example = "a value of that type"
        }
        return "Write \(example), or remove \(key)."
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
