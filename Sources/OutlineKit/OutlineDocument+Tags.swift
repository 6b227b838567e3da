import OutlineEngine

/// Tags: named labels shared between items (schema version 3 on). A tag is one `Tag` object
/// per name, linked to its items; tagging links an item to the tag of that name (creating it
/// when new), untagging unlinks it and removes a tag that no item carries any more. Each call
/// is one undo step.
extension OutlineDocument {
    /// Whether the schema has tags.
    public var supportsTags: Bool { shape.tags != nil }

    /// The names of `item`'s tags, in the order they were added.
    public func tags(of item: ManagedObject) -> [String] {
        guard let tags = shape.tags else { return [] }
        return context.relatedObjects(of: item, tags.itemTags).map { tagName(of: $0) }
    }

    /// Every tag with the number of items that carry it, by name (byte order).
    ///
    /// - Complexity: O(tags + links).
    public func tagCounts() -> [(name: String, count: Int)] {
        guard let tags = shape.tags else { return [] }
        return context.graph.objects(ofEntity: tags.entity)
            .map { (name: tagName(of: $0), count: context.relatedObjects(of: $0, tags.items).count) }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// Adds the tags `names` to each of `items` (a tag an item already has is left as it is).
    ///
    /// - Returns: how many tags were added, over all items.
    /// - Throws: ``OutlineError`` `notInThisVersion` when the schema has no tags,
    ///   `invalidEdit` for a name that cannot be a tag (see ``checkTagName(_:)``) or the root.
    @discardableResult
    public func addTags(_ names: [String], to items: [ManagedObject]) throws -> Int {
        let tags = try tagShape()
        for name in names { try Self.checkTagName(name) }
        try refuseRoot(items, "tagged")
        var existing = tagObjects()
        var added = 0
        try context.perform("Tag \(itemsForStepName(items)) with \(Self.quotedList(names))") {
            for name in unique(names) {
                let tag: ManagedObject
                if let found = existing[name] {
                    tag = found
                } else {
                    tag = try context.insert(entity: tags.entity)
                    try context.setAttribute(.string(name), tags.name, of: tag)
                    existing[name] = tag
                }
                for item in items where !context.relatedObjects(of: item, tags.itemTags).contains(tag) {
                    try context.add(tag, to: tags.itemTags, of: item)
                    added += 1
                }
            }
        }
        return added
    }

    /// Removes the tags `names` from each of `items` (`names` nil: every tag they have). A tag
    /// no item carries afterwards is deleted.
    ///
    /// - Returns: how many tags were removed, over all items.
    /// - Throws: ``OutlineError`` `notInThisVersion` when the schema has no tags.
    @discardableResult
    public func removeTags(_ names: [String]?, from items: [ManagedObject]) throws -> Int {
        let tags = try tagShape()
        var removed = 0
        let wanted = names.map(Set.init)
        let step = names.map { "Remove \(Self.quotedList($0)) from \(itemsForStepName(items))" } ?? "Remove all tags from \(itemsForStepName(items))"
        try context.perform(step) {
            var touched: [ManagedObject] = []
            for item in items {
                for tag in context.relatedObjects(of: item, tags.itemTags) where wanted?.contains(tagName(of: tag)) ?? true {
                    try context.remove(tag, from: tags.itemTags, of: item)
                    touched.append(tag)
                    removed += 1
                }
            }
            for tag in Set(touched) where context.exists(tag) && context.relatedObjects(of: tag, tags.items).isEmpty {
                try context.delete(tag)
            }
        }
        return removed
    }

    /// Checks that `name` can be a tag: not empty, no space at either end, no comma (OPML's
    /// `category` separates tags with commas) and no control characters.
    ///
    /// - Throws: ``OutlineError`` `invalidEdit` saying what is wrong with it.
    public static func checkTagName(_ name: String) throws {
        let ends = [name.unicodeScalars.first, name.unicodeScalars.last].compactMap { $0 }
        let problem: String? =
            if name.isEmpty {
                "a tag name cannot be empty"
            } else if ends.contains(where: { $0.properties.isWhitespace }) {
                "the tag name \"\(name)\" begins or ends with a space"
            } else if name.contains(",") {
                "the tag name \"\(name)\" contains a comma"
            } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                "the tag name \"\(ControlCharacters.escaped(name))\" contains a control character"
            } else {
                nil
            }
        guard let problem else { return }
        throw OutlineError(
            .invalidEdit, problem,
            hint: "Give each tag as a word or words of its own, such as work or \"to read\"; OPML lists tags separated by commas.")
    }

    // MARK: Helpers

    private func tagShape() throws -> OutlineShape.TagShape {
        guard let tags = shape.tags else {
            throw OutlineError(
                .notInThisVersion, at: context.schema.name, "this schema version has no tags",
                hint: "Migrate the document to the current version first.")
        }
        return tags
    }

    private func tagName(of tag: ManagedObject) -> String {
        shape.tags.flatMap { context.attributeValue(of: tag, $0.name)?.stringValue } ?? ""
    }

    /// The tag objects by name.
    private func tagObjects() -> [String: ManagedObject] {
        guard let tags = shape.tags else { return [:] }
        var byName: [String: ManagedObject] = [:]
        for tag in context.graph.objects(ofEntity: tags.entity) where byName[tagName(of: tag)] == nil {
            byName[tagName(of: tag)] = tag
        }
        return byName
    }

    private func refuseRoot(_ items: [ManagedObject], _ what: String) throws {
        if items.contains(root) {
            throw OutlineError(
                .invalidEdit, at: "/", "the root item cannot be \(what)",
                hint: "Name the top-level items (1, 2, ...) instead.")
        }
    }

    private func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// `“a”`, `“a”, “b”` for undo step names.
    static func quotedList(_ names: [String]) -> String {
        names.prefix(3).map { "“\(shorten($0))”" }.joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
    }

    /// How an undo step names the items it tags: `“Milk”`, or `3 items`.
    private func itemsForStepName(_ items: [ManagedObject]) -> String {
        items.count == 1 ? "“\(Self.shorten(text(of: items[0]) ?? ""))”" : "\(items.count) items"
    }
}
