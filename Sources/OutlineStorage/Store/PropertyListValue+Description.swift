import Foundation

extension PropertyListValue: CustomStringConvertible {
    /// The value for messages and debugging: `"text"`, `12`, `1.5`, `true`, `date(seconds since
    /// 2001)`, `data(4 bytes)`, `[...]`, `{key: value, ...}`. Dates print as their seconds, so a
    /// value no document may hold (not a number, infinite) prints too (Foundation's own
    /// description of such a `Date` traps).
    public var description: String {
        switch self {
        case .string(let text): text.debugDescription
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .boolean(let flag): String(flag)
        case .date(let date): "date(\(date.timeIntervalSinceReferenceDate))"
        case .data(let bytes): "data(\(bytes.count) bytes)"
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let entries): "{" + entries.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
