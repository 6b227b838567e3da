import OutlineEngine
import OutlineKit

/// Rendering an outline for people (an indented, numbered tree) and for scripts (JSON).
/// Both walk the tree without recursion, so any depth works.
extension OutlineDocument {
    /// What to render and how.
    public struct RenderOptions: Sendable {
        /// Render the items under this one (the root when nil); paths stay absolute.
        public var start: ManagedObject?
        /// Render `start` itself too, above the items under it (`outline show --under 2`).
        public var includesStart: Bool
        /// How many levels below the start to render (all when nil). Items whose children
        /// are left out say how many there are.
        public var depth: Int?
        /// Show each item's stable id (`#102`).
        public var showsIDs: Bool
        /// Text only: render the children of collapsed items too. Without it a collapsed item
        /// is shown with the number of its children, which are left out (the start's own
        /// children are always shown). JSON always holds them (with `"collapsed": true`).
        public var expandsAll: Bool

        /// Options that render the whole tree (or from `start`, with it when `includesStart`, `depth`
        /// levels deep), with or without ids, expanding collapsed items or not.
        public init(
            start: ManagedObject? = nil, includesStart: Bool = false, depth: Int? = nil,
            showsIDs: Bool = false, expandsAll: Bool = true
        ) {
            self.start = start
            self.includesStart = includesStart
            self.depth = depth
            self.showsIDs = showsIDs
            self.expandsAll = expandsAll
        }
    }

    /// The tree as text: one line per item, `1.2.3` numbering, two spaces of indent per level,
    /// `[x]` before done items, `[+N]` after items whose N children are left out (collapsed,
    /// or below `depth`), then the tags (`@work @"to read"`), notes on the lines beneath their
    /// item. Control characters in texts, notes and tags are shown escaped (see
    /// ``OutlineKit/ControlCharacters``), so every item stays on its line.
    ///
    /// ```
    /// 1 Groceries  @errands
    ///   1.1 [x] Milk
    ///       Oat, not soy.
    ///   1.2 Cheese [+3]
    /// ```
    public func renderText(_ options: RenderOptions = RenderOptions()) -> String {
        var out = ""
        let start = options.start ?? root
        let prefix = path(of: start)
        let showsStart = options.includesStart && start != root
        let indentBase = showsStart ? 1 : 0
        let maxDepth = options.depth ?? .max
        func line(_ item: ManagedObject, _ numbers: [Int], level: Int, hidden: Int) {
            let indent = String(repeating: "  ", count: min(level, Self.maximumIndent))
            let number = Self.label(numbers)
            out += indent + number + " " + (isDone(item) ? "[x] " : "") + ControlCharacters.escaped(text(of: item) ?? "")
            if hidden > 0 { out += " [+\(hidden)]" }
            let tags = tags(of: item)
            if !tags.isEmpty { out += "  " + tags.map(Self.tagLabel).joined(separator: " ") }
            if options.showsIDs { out += "  #\(context.objectID(of: item).rawValue)" }
            out += "\n"
            if let note = note(of: item) {
                let noteIndent = indent + String(repeating: " ", count: number.count + 1)
                for noteLine in note.split(separator: "\n", omittingEmptySubsequences: false) {
                    out += noteIndent + ControlCharacters.escaped(String(noteLine)) + "\n"
                }
            }
        }
        if showsStart { line(start, prefix, level: 0, hidden: 0) }
        var numbers = prefix
        walk(from: start) { item, depth in
            // depth is relative to `start` (1 for its children).
            numbers.removeLast(max(0, numbers.count - (prefix.count + depth - 1)))
            numbers.append(position(of: item) + 1)
            let count = childCount(of: item)
            let hides = count > 0 && (depth >= maxDepth || (!options.expandsAll && isCollapsed(item)))
            line(item, numbers, level: depth - 1 + indentBase, hidden: hides ? count : 0)
            return !hides
        }
        return out
    }

    /// The number of children of `item`.
    func childCount(of item: ManagedObject) -> Int {
        context.relatedObjects(of: item, shape.children).count
    }

    /// `@name`, or `@"name"` for a name with spaces, quotes or `@` (escaped as text is).
    static func tagLabel(_ name: String) -> String {
        let shown = ControlCharacters.escaped(name)
        let plain = !shown.isEmpty && !shown.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "@" })
        return plain ? "@" + shown : "@\"" + shown.replacingOccurrences(of: "\"", with: "\\\"") + "\""
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
    /// "tags", "childCount", "children"}, ...]}` where `items` are the children of the start
    /// item in order (the start item itself with `includesStart`), `note` is null when absent
    /// and `children` is left out where `depth` leaves the children out (`childCount` says
    /// how many there are). With `showsIDs`, each item also has `"id"`. Texts are exact.
    public func renderJSON(_ options: RenderOptions = RenderOptions()) -> String {
        var json = JSONWriter()
        json.raw("{")
        json.key("schemaVersion")
        json.string(context.schema.name)
        json.raw(", ")
        json.key("items")
        json.raw("[")
        let start = options.start ?? root
        let showsStart = options.includesStart && start != root
        let maxDepth = options.depth ?? .max
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
        /// Writes `item` up to its children; returns whether its children follow.
        func item(_ item: ManagedObject, depth: Int, showsChildren: Bool) -> Bool {
            close(to: depth)
            if !open[open.count - 1] { json.raw(", ") }
            open[open.count - 1] = false
            json.raw("{")
            if options.showsIDs {
                json.key("id")
                json.raw(String(context.objectID(of: item).rawValue))
                json.raw(", ")
            }
            json.key("text")
            json.string(text(of: item))
            json.raw(", ")
            json.key("note")
            json.string(note(of: item))
            json.raw(", ")
            json.key("done")
            json.bool(isDone(item))
            json.raw(", ")
            json.key("collapsed")
            json.bool(isCollapsed(item))
            json.raw(", ")
            json.key("tags")
            json.raw("[")
            for (index, tag) in tags(of: item).enumerated() {
                if index > 0 { json.raw(", ") }
                json.string(tag)
            }
            json.raw("], ")
            let count = childCount(of: item)
            json.key("childCount")
            json.int(count)
            guard showsChildren || count == 0 else {
                json.raw("}")
                return false
            }
            json.raw(", ")
            json.key("children")
            json.raw("[")
            open.append(true)
            lastDepth = depth + 1
            return true
        }
        let offset = showsStart ? 1 : 0
        if showsStart { _ = item(start, depth: 1, showsChildren: true) }
        walk(from: start) { child, depth in
            item(child, depth: depth + offset, showsChildren: depth < maxDepth)
        }
        close(to: 1)
        json.raw("]}\n")
        return json.text
    }
}
