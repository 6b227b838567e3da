import OutlineEngine
import OutlineKit

/// The output of `outline find`: the items a predicate matches, with their paths, in document order.
extension OutlineDocument {
    /// One item a query matched.
    public struct Match: Sendable {
        /// The matching item.
        public var item: ManagedObject
        /// The item's path, as ``renderText(_:)`` labels it (`1.2.3`; shortened past 12 levels).
        public var label: String
        /// 1 for top-level items.
        public var depth: Int
    }

    /// The items matching `query` (a predicate over `Item`, such as `text CONTAINS[c] "milk"`)
    /// with their path labels, in document order; with `start`, only the items below it;
    /// `variables` give the query's `$name`s their values.
    ///
    /// - Throws: ``OutlineEngine/EngineError`` `invalidPredicate` or `unknownName` naming the
    ///   column of the query, or the item where evaluation stopped; ``OutlineError``
    ///   `invalidDocument` when some items are not under the root (``requireEveryItemUnderRoot()``),
    ///   which the search would miss.
    /// - Complexity: O(n) in the number of items, whatever the depth, for queries whose work
    ///   per item is bounded.
    public func matches(
        _ query: String, under start: ManagedObject? = nil,
        variables: [String: FetchPredicate.Argument] = [:]
    ) throws -> [Match] {
        try requireEveryItemUnderRoot()
        let request = try fetchRequest(query, variables: variables)
        let found = Set(try context.fetch(request))
        guard !found.isEmpty else { return [] }
        var result: [Match] = []
        result.reserveCapacity(found.count)
        let prefix = start.map(path(of:)) ?? []
        var numbers = prefix
        walk(from: start) { candidate, depth in
            numbers.removeLast(max(0, numbers.count - (prefix.count + depth - 1)))
            numbers.append(position(of: candidate) + 1)
            if found.contains(candidate) {
                result.append(Match(item: candidate, label: Self.label(numbers), depth: prefix.count + depth))
            }
            return true
        }
        return result
    }

    /// Matches as text: one line each, the path, a space, `[x] ` for done items and the text
    /// (control characters shown escaped, see ``OutlineKit/ControlCharacters``), then the tags.
    public func renderMatchesText(_ matches: [Match]) -> String {
        var out = ""
        for match in matches {
            out += match.label + " " + (isDone(match.item) ? "[x] " : "") + ControlCharacters.escaped(text(of: match.item) ?? "")
            let tags = tags(of: match.item)
            if !tags.isEmpty { out += "  " + tags.map(Self.tagLabel).joined(separator: " ") }
            out += "\n"
        }
        return out
    }

    /// Matches as a JSON array, one object per line:
    /// `{"path": "1.2", "id": 105, "depth": 2, "text": ..., "note": ..., "done": ..., "tags": [...]}`.
    /// `path` is shortened past 12 levels like the text output; `id` (`#105`) always addresses the item.
    public func renderMatchesJSON(_ matches: [Match]) -> String {
        var json = JSONWriter()
        json.raw("[")
        for (index, match) in matches.enumerated() {
            json.raw(index == 0 ? "\n  {" : ",\n  {")
            json.key("path")
            json.string(match.label)
            json.raw(", ")
            json.key("id")
            json.raw(String(context.objectID(of: match.item).rawValue))
            json.raw(", ")
            json.key("depth")
            json.int(match.depth)
            json.raw(", ")
            json.key("text")
            json.string(text(of: match.item))
            json.raw(", ")
            json.key("note")
            json.string(note(of: match.item))
            json.raw(", ")
            json.key("done")
            json.bool(isDone(match.item))
            json.raw(", ")
            json.key("tags")
            json.raw("[")
            for (index, tag) in tags(of: match.item).enumerated() {
                if index > 0 { json.raw(", ") }
                json.string(tag)
            }
            json.raw("]}")
        }
        json.raw(matches.isEmpty ? "]\n" : "\n]\n")
        return json.text
    }
}
