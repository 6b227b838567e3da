import OutlineKit

/// The output of `outline tags`: every tag with the number of items that have it.
extension OutlineDocument {
    /// One line per tag, by name: the name (control characters escaped), two spaces, the count.
    ///
    /// ```
    /// dairy  2 items
    /// this week  1 item
    /// ```
    public func renderTagsText() -> String {
        tagCounts().map { "\(ControlCharacters.escaped($0.name))  \($0.count) \($0.count == 1 ? "item" : "items")\n" }.joined()
    }

    /// `[{"name": "dairy", "count": 2}, ...]`, one tag per line, names exact.
    public func renderTagsJSON() -> String {
        var json = JSONWriter()
        json.raw("[")
        let counts = tagCounts()
        for (index, tag) in counts.enumerated() {
            json.raw(index == 0 ? "\n  {" : ",\n  {")
            json.key("name")
            json.string(tag.name)
            json.raw(", ")
            json.key("count")
            json.int(tag.count)
            json.raw("}")
        }
        json.raw(counts.isEmpty ? "]\n" : "\n]\n")
        return json.text
    }
}
