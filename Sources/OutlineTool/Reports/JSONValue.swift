import OutlineKit

/// A JSON value for the tool's reports (info, validation, migration plans, schemas), with
/// object keys kept in the order they were given so output is stable and readable.
enum JSONValue {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// `.string(text)`, or `.null` when `text` is nil.
    static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// `.int(number)`, or `.null` when `number` is nil.
    static func int(_ number: Int?) -> JSONValue { number.map { .int($0) } ?? .null }

    /// An array of strings.
    static func strings(_ texts: [String]) -> JSONValue { .array(texts.map { .string($0) }) }

    private var isScalar: Bool {
        switch self {
        case .array(let items): items.isEmpty
        case .object(let members): members.isEmpty
        default: true
        }
    }

    /// Pretty-printed JSON: two spaces per level, arrays of scalars on one line, a final newline.
    ///
    /// Renders without recursion.
    /// - Complexity: O(size of the output).
    func rendered() -> String {
        var out = JSONWriter()
        enum Frame {
            case array([JSONValue], next: Int)
            case object([(key: String, value: JSONValue)], next: Int)
        }
        var stack: [Frame] = []

        func newline(_ depth: Int) {
            out.raw("\n")
            out.raw(String(repeating: "  ", count: depth))
        }
        func scalar(_ value: JSONValue) {
            switch value {
            case .null: out.raw("null")
            case .bool(let b): out.bool(b)
            case .int(let n): out.int(n)
            case .string(let s): out.string(s)
            case .array(let items):
                out.raw("[")
                for (i, item) in items.enumerated() {
                    if i > 0 { out.raw(", ") }
                    scalar(item)
                }
                out.raw("]")
            case .object: out.raw("{}")
            }
        }
        func open(_ value: JSONValue) {
            switch value {
            case .array(let items) where !items.allSatisfy(\.isScalar):
                out.raw("[")
                stack.append(.array(items, next: 0))
            case .object(let members) where !members.isEmpty:
                out.raw("{")
                stack.append(.object(members, next: 0))
            default:
                scalar(value)
            }
        }

        open(self)
        while let top = stack.last {
            let depth = stack.count
            switch top {
            case .array(let items, let next):
                guard next < items.count else {
                    stack.removeLast()
                    newline(depth - 1)
                    out.raw("]")
                    continue
                }
                if next > 0 { out.raw(",") }
                stack[depth - 1] = .array(items, next: next + 1)
                newline(depth)
                open(items[next])
            case .object(let members, let next):
                guard next < members.count else {
                    stack.removeLast()
                    newline(depth - 1)
                    out.raw("}")
                    continue
                }
                if next > 0 { out.raw(",") }
                stack[depth - 1] = .object(members, next: next + 1)
                newline(depth)
                out.key(members[next].key)
                open(members[next].value)
            }
        }
        out.raw("\n")
        return out.text
    }
}
