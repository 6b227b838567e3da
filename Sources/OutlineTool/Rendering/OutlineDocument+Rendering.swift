import OutlineEngine
import OutlineKit

/// Rendering an outline for people (an indented, numbered tree) and for scripts (JSON).
/// Both walk the tree without recursion, so any depth works.
extension OutlineDocument {
    /// What to render and how.
    public struct RenderOptions: Sendable {
        /// Render the items under this one (the root when nil); paths stay absolute.
        public var start: ManagedObject?
        /// How many levels below the start to render (all when nil).
        public var depth: Int?
        /// Show each item's stable id (`#102`).
        public var showsIDs: Bool

        /// Options that render the whole tree (or from `start`, `depth` levels deep), with or without ids.
        public init(start: ManagedObject? = nil, depth: Int? = nil, showsIDs: Bool = false) {
            self.start = start
            self.depth = depth
            self.showsIDs = showsIDs
        }
    }

    /// The tree as text: one line per item, `1.2.3` numbering, two spaces of indent per level,
    /// `[x]` before done items, notes on the lines beneath their item.
    ///
    /// ```
    /// 1 Groceries
    ///   1.1 [x] Milk
    ///       Oat, not soy.
    /// ```
    public func renderText(_ options: RenderOptions = RenderOptions()) -> String {
        var out = ""
        let start = options.start ?? root
        let prefix = path(of: start)
        var numbers = prefix
        let baseDepth = prefix.count
        walk(from: start, maxDepth: options.depth ?? .max) { item, depth in
            // depth is relative to `start` (1 for its children).
            numbers.removeLast(max(0, numbers.count - (baseDepth + depth - 1)))
            numbers.append(position(of: item) + 1)
            let indent = String(repeating: "  ", count: min(depth - 1, Self.maximumIndent))
            let number = Self.label(numbers)
            out += indent + number + " " + (isDone(item) ? "[x] " : "") + (text(of: item) ?? "")
            if options.showsIDs { out += "  #\(context.objectID(of: item).rawValue)" }
            out += "\n"
            if let note = note(of: item) {
                let noteIndent = indent + String(repeating: " ", count: number.count + 1)
                for line in note.split(separator: "\n", omittingEmptySubsequences: false) {
                    out += noteIndent + line + "\n"
                }
            }
            return true
        }
        return out
    }

    /// Levels of indentation shown at most; deeper items line up at this level.
    static let maximumIndent = 40

    /// `1.2.3`, or for paths deeper than 12 levels the first and last five positions around
    /// an ellipsis and the depth (`1.1.1.1.1.….2.1.1.1.1 (depth 5000)`), so output stays linear.
    static func label(_ numbers: [Int]) -> String {
        if numbers.count <= 12 { return numbers.map(String.init).joined(separator: ".") }
        let head = numbers.prefix(5).map(String.init).joined(separator: ".")
        let tail = numbers.suffix(5).map(String.init).joined(separator: ".")
        return "\(head).….\(tail) (depth \(numbers.count))"
    }

    /// The tree as JSON: `{"schemaVersion": ..., "items": [{"text", "note", "done", "collapsed",
    /// "children"}, ...]}` where `items` are the children of the start item in order and
    /// `note` is null when absent (with `showsIDs`, each item also has `"id"`).
    public func renderJSON(_ options: RenderOptions = RenderOptions()) -> String {
        var json = JSONWriter()
        json.raw("{")
        json.key("schemaVersion")
        json.string(context.schema.name)
        json.raw(", ")
        json.key("items")
        json.raw("[")
        // Each frame is an open "children" array; `first` says whether a comma is due.
        var open: [Bool] = [true]
        var lastDepth = 1
        func close(to depth: Int) {
            while lastDepth > depth {
                json.raw("]}")
                open.removeLast()
                lastDepth -= 1
            }
        }
        walk(from: options.start ?? root, maxDepth: options.depth ?? .max) { item, depth in
            close(to: depth)
            if !open[open.count - 1] { json.raw(", ") }
            open[open.count - 1] = false
            json.raw("{")
            if options.showsIDs {
                json.key("id")
                json.raw(String(context.objectID(of: item).rawValue))
                json.raw(", ")
            }
            json.key("text"); json.string(text(of: item)); json.raw(", ")
            json.key("note"); json.string(note(of: item)); json.raw(", ")
            json.key("done"); json.bool(isDone(item)); json.raw(", ")
            json.key("collapsed"); json.bool(isCollapsed(item)); json.raw(", ")
            json.key("children")
            json.raw("[")
            open.append(true)
            lastDepth = depth + 1
            return true
        }
        close(to: 1)
        json.raw("]}\n")
        return json.text
    }
}
