import OutlineEngine
import OutlineStorage

/// The state of one Markdown read: the headings and list items still open, the text before the
/// first of them, and what the lines so far taught about the file's indentation.
///
/// Every line is handled in time proportional to its length (the open list item that contains a
/// line is found by binary search, as their content columns grow with depth), and nothing
/// recurses, so a deep or long file reads in linear time.
struct MarkdownParser {
    var builder: OutlineBuilder
    var log: WarningLog
    let maxDepth: Int
    var head = OPMLHead()
    /// The Markdown before the first heading or list item.
    var preamble = MarkdownNoteReader()
    /// The open headings, outermost first (each a child of the one before).
    var headings: [MarkdownOpenItem] = []
    /// The open list items, outermost first (each a child of the one before, the first a child
    /// of the innermost heading or of the root).
    var lists: [MarkdownOpenItem] = []
    /// The last top-level list item outside any heading, once the lines after it left it:
    /// it takes the text that follows until the next item or heading.
    var parked: MarkdownOpenItem?
    /// The plain paragraph the section's last lines were, which a setext underline would turn
    /// into a heading: where it starts in the section's note, and its lines as written.
    var sectionParagraph: (start: Int, lines: [Substring])?
    /// Indentation step in columns, learned from the first nested item.
    var unit: Int?
    /// Whether the document indents with tabs (learned from the first indented item).
    var usesTabs: Bool?
    var dropped = DroppedValues()
    /// Whether any heading or list item was read.
    var hasItems = false

    init(builder: OutlineBuilder, log: WarningLog, maxDepth: Int) {
        self.builder = builder
        self.log = log
        self.maxDepth = maxDepth
    }

    /// Reads `lines` (the file's lines, without line breaks), YAML front matter first when the
    /// file starts with some.
    mutating func read(_ lines: [Substring]) throws {
        let frontMatter = MarkdownDocumentHead.frontMatterLength(lines)
        if frontMatter > 0 {
            head[field: MarkdownDocumentHead.frontMatterField] = lines[..<frontMatter].joined(separator: "\n")
            if let title = MarkdownDocumentHead.title(inFrontMatter: lines[1 ..< frontMatter - 1]) { head.title = title }
        }
        for index in lines.indices.dropFirst(frontMatter) {
            try add(lines[index], number: index + 1)
        }
    }

    /// Handles one line.
    mutating func add(_ line: Substring, number: Int) throws {
        let indentation = MarkdownSyntax.indentation(line)
        let rest = line[indentation.end...]
        if MarkdownSyntax.isBlank(rest) {
            addBlank()
            return
        }
        let place = Place(
            line: line, rest: rest, columns: indentation.columns, number: number,
            tabs: indentation.tabs, spaces: indentation.spaces)
        // Items are read in place (a copy of one would make every append to its note copy it).
        guard let deepestContent = lists.last?.content else {
            try addToSection(place, previousSibling: nil)
            return
        }
        if place.columns >= deepestContent {
            try addInside(lists.count - 1, place, previousSibling: nil)
            return
        }
        if lists[lists.count - 1].hasOpenParagraph && !Self.startsBlockOutside(rest) {
            try addLazy(place)
            return
        }
        let container = lastList(contentAtMost: place.columns)
        let next = (container ?? -1) + 1
        let previousSibling = lists[next].indent
        closeLists(keeping: next)
        if let container {
            try addInside(container, place, previousSibling: previousSibling)
        } else {
            try addToSection(place, previousSibling: previousSibling)
        }
    }

    /// A line and where it stands.
    struct Place {
        let line: Substring
        /// The line after its indentation.
        let rest: Substring
        let columns: Int
        let number: Int
        let tabs: Bool
        let spaces: Bool
    }

    /// A blank line ends the paragraph open in the innermost item (and HTML blocks that end at
    /// a blank line); inside a code block it is kept.
    private mutating func addBlank() {
        if let last = lists.indices.last {
            switch lists[last].titleState {
            case .paragraph(open: true):
                lists[last].titleState = .paragraph(open: false)
                if !lists[last].hadChildren { lists[last].note.addBlank() }
            case .verbatim(var scanner):
                _ = scanner.feed("")
                if scanner.state == .none {
                    lists[last].titleState = .done
                } else {
                    lists[last].title.append("")
                    lists[last].titleState = .verbatim(scanner)
                }
            case .paragraph(open: false), .done:
                if !lists[last].hadChildren { lists[last].note.addBlank() }
            }
        } else if !headings.isEmpty {
            headings[headings.count - 1].readsProperties = false
            if !headings[headings.count - 1].hadChildren { headings[headings.count - 1].note.addBlank() }
        } else if parked != nil {
            if parked?.hadChildren == false { parked?.note.addBlank() }
        } else {
            preamble.addBlank()
        }
    }

    /// Whether `rest` starts a block when it stands outside the item whose paragraph it could
    /// otherwise continue lazily.
    static func startsBlockOutside(_ rest: Substring) -> Bool {
        MarkdownSyntax.listMarker(rest) != nil || MarkdownBlocks.isThematicBreak(rest) || MarkdownBlocks.atxHeading(rest) != nil
            || MarkdownBlocks.fenceOpening(rest) != nil || rest.first == ">" || MarkdownBlocks.htmlBlockStart(rest, canBeOther: false) != nil
    }

    /// The index of the deepest open list item whose content starts at or before `columns`
    /// (their content columns grow with depth, so a binary search finds it).
    private func lastList(contentAtMost columns: Int) -> Int? {
        var low = 0
        var high = lists.count
        while low < high {
            let middle = (low + high) / 2
            if lists[middle].content <= columns { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Continues the paragraph of the innermost list item with a line indented less than its
    /// content (a lazy continuation line).
    private mutating func addLazy(_ place: Place) throws {
        let last = lists.count - 1
        if lists[last].titleState == .paragraph(open: true) {
            try addTitleLine(last, place.rest, offset: place.columns, place: place)
        } else {
            lists[last].addNoteLine(place.rest, offset: place.columns)
        }
    }

    /// Adds a line of the open first paragraph of list item `index`: a property, or text.
    /// `relative` is the line from column `offset` on.
    mutating func addTitleLine(_ index: Int, _ relative: Substring, offset: Int, place: Place) throws {
        if let (key, value) = MarkdownSyntax.propertyLine(place.rest), place.columns - min(place.columns, lists[index].content) < 4 {
            if lists[index].attributes.addProperty(key: key, value: value) {
                try checkProperty(key, value, line: place.number)
            } else {
                try duplicateProperty(key, line: place.number)
                lists[index].addNoteLine(relative, offset: offset)
            }
            return
        }
        lists[index].title.append(MarkdownEscaping.unescape(relative, .textLine))
    }

    mutating func checkProperty(_ key: String, _ value: String, line: Int) throws {
        if let odd = MarkdownItemAttributes.oddValue(key: key, value: value) {
            try log.add(line: line, odd, hint: key == "created" ? "Dates look like \"Sat, 09 Apr 2007 14:57:36 GMT\"." : nil, key: "property-\(key)")
        }
    }

    mutating func duplicateProperty(_ key: String, line: Int) throws {
        try log.add(
            line: line, "the property \(key) appears twice in one item; the second is kept in the item's note",
            hint: "Give each property of an item once.", key: "property-twice")
    }

    // MARK: Finishing

    /// Closes the open list items after the first `count`; a top-level one outside any heading
    /// is kept for the text that follows it.
    mutating func closeLists(keeping count: Int) {
        while lists.count > count {
            var item = lists.removeLast()
            if item.depth == 1 && headings.isEmpty {
                if let previous = parked { finalize(previous) }
                // The item's end ends its last block: text after it starts a new one.
                item.hadChildren = true
                parked = item
            } else {
                finalize(item)
            }
        }
    }

    /// Stores what `item` collected in its object.
    mutating func finalize(_ item: MarkdownOpenItem) {
        var title = item.title
        if item.verbatimTitle {
            while title.count > 1, title.last == "" { title.removeLast() }
        } else if let last = title.last, last.last == " " || last.last == "\t" {
            // A paragraph's final white space is not part of it (CommonMark strips it).
            title[title.count - 1] = String(last.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        builder.setText(title.joined(separator: "\n"), of: item.object)
        if let note = item.note.text, !builder.setNote(note, of: item.object) { dropped.notes += 1 }
        let mapped = item.attributes.mapped()
        if let done = item.attributes.done, !builder.setDone(done, of: item.object) { dropped.done += 1 }
        if let collapsed = mapped.collapsed { builder.setCollapsed(collapsed, of: item.object) }
        if let created = mapped.created { builder.setCreated(created, of: item.object) }
        if let extra = mapped.extra, !builder.setExtraAttributes(extra, of: item.object) {
            dropped.attributes += extra.kept.count
        }
    }

    consuming func finish() throws -> ImportedOutline {
        closeLists(keeping: 0)
        if let parked { finalize(parked) }
        for heading in headings.reversed() { finalize(heading) }
        if let text = preamble.text {
            head[field: MarkdownDocumentHead.preambleField] = text
            if !hasItems {
                try log.add(
                    at: nil, "the file has no headings or list items; its text is kept as the document's preamble, not as items",
                    hint: "Start sections with \"# \" or items with \"- \".", key: "no-items")
            }
        }
        try dropped.report(to: &log, schema: builder.schema.name, attributesName: "properties")
        return ImportedOutline(document: try builder.finish(), head: head, warnings: log.finished())
    }
}
