import OutlineEngine

/// Lines inside a list item, lines of a section, and the items they start.
extension MarkdownParser {
    /// A line indented at least to the content of list item `index` (the deepest open one).
    mutating func addInside(_ index: Int, _ place: Place, previousSibling: Int?) throws {
        // The item is read in place: a copy of it would make every append to its note copy it.
        let content = lists[index].content
        let relative = MarkdownSyntax.dropIndentation(place.line, columns: content)
        let depthInItem = place.columns - content
        let marker = MarkdownBlocks.isThematicBreak(place.rest) ? nil : MarkdownSyntax.listMarker(place.rest)
        switch lists[index].titleState {
        case .verbatim(var scanner):
            _ = scanner.feed(relative, offset: content)
            lists[index].title.append(String(relative))
            lists[index].titleState = scanner.state == .none ? .done : .verbatim(scanner)
            return
        case .paragraph(open: true):
            if let marker, depthInItem >= 4 || marker.canInterruptParagraph {
                lists[index].titleState = .done
                try addItem(marker, place, parent: index, previousSibling: previousSibling)
            } else if depthInItem < 4, marker == nil, MarkdownBlocks.interruptsParagraph(place.rest) {
                lists[index].titleState = .done
                lists[index].addNoteLine(relative)
            } else {
                try addTitleLine(index, relative, offset: content, place: place)
            }
            return
        case .paragraph(open: false), .done:
            break
        }
        let scanner = lists[index].noteScanner
        switch scanner.state {
        case .fence, .html:
            lists[index].addNoteLine(relative)
            return
        case .indentedCode where depthInItem >= 4:
            lists[index].addNoteLine(relative)
            return
        case .none, .paragraph, .indentedCode:
            break
        }
        if depthInItem >= 4 && !scanner.inParagraph {
            lists[index].addNoteLine(relative)
        } else if let marker, !(scanner.inParagraph && depthInItem < 4 && !marker.canInterruptParagraph) {
            try addItem(marker, place, parent: index, previousSibling: previousSibling)
        } else {
            lists[index].addNoteLine(relative)
        }
    }

    /// A line outside every open list item: a heading, a top-level list item of the section, or
    /// text of the section (the note of its heading, of the last top-level item, or the
    /// preamble).
    mutating func addToSection(_ place: Place, previousSibling: Int?) throws {
        let rest = place.rest
        if let last = headings.indices.last, headings[last].readsProperties {
            if place.columns < 4, let (key, value) = MarkdownSyntax.propertyLine(rest) {
                if headings[last].attributes.addProperty(key: key, value: value) {
                    try checkProperty(key, value, line: place.number)
                } else {
                    try duplicateProperty(key, line: place.number)
                    addSectionText(place.line)
                }
                return
            }
            headings[last].readsProperties = false
        }
        let scanner = sectionScanner
        switch scanner.state {
        case .fence, .html:
            addSectionText(place.line)
            return
        case .indentedCode where place.columns >= 4:
            addSectionText(place.line)
            return
        case .none, .paragraph, .indentedCode:
            break
        }
        if place.columns < 4, let (level, content) = MarkdownBlocks.atxHeading(rest) {
            try addHeading(level: level, lines: [content], atx: true, line: place.number)
        } else if place.columns < 4, let level = MarkdownBlocks.setextUnderline(rest), let paragraph = sectionParagraph,
            scanner.state == .paragraph(quote: false)
        {
            truncateSectionText(to: paragraph.start)
            try addHeading(level: level, lines: paragraph.lines, atx: false, line: place.number - paragraph.lines.count)
        } else if !MarkdownBlocks.isThematicBreak(rest), let marker = MarkdownSyntax.listMarker(rest),
            !(place.columns >= 4 && !scanner.inParagraph),
            !(scanner.inParagraph && place.columns < 4 && !marker.canInterruptParagraph)
        {
            try addItem(marker, place, parent: nil, previousSibling: previousSibling)
        } else {
            addSectionText(place.line)
        }
    }

    /// The block state of the section's text as its next line will see it.
    private var sectionScanner: MarkdownBlockScanner {
        if let heading = headings.last { return heading.noteScanner }
        if let parked { return parked.noteScanner }
        return preamble.scanner
    }

    /// Adds a line of text to the section, following the plain paragraph it may belong to.
    private mutating func addSectionText(_ line: Substring) {
        let start: Int
        let scanner: MarkdownBlockScanner
        if let last = headings.indices.last {
            start = headings[last].note.lines.count
            let wasParagraph = headings[last].noteScanner.inParagraph
            headings[last].addNoteLine(line)
            scanner = headings[last].note.scanner
            followParagraph(line, start: start, continues: wasParagraph, scanner: scanner)
        } else if parked != nil {
            start = parked!.note.lines.count
            let wasParagraph = parked!.noteScanner.inParagraph
            parked!.addNoteLine(line, offset: 0)
            followParagraph(line, start: start, continues: wasParagraph, scanner: parked!.note.scanner)
        } else {
            start = preamble.lines.count
            let wasParagraph = preamble.scanner.inParagraph
            preamble.add(line, offset: 0)
            followParagraph(line, start: start, continues: wasParagraph, scanner: preamble.scanner)
        }
    }

    private mutating func followParagraph(_ line: Substring, start: Int, continues: Bool, scanner: MarkdownBlockScanner) {
        guard scanner.state == .paragraph(quote: false) else {
            sectionParagraph = nil
            return
        }
        if continues, sectionParagraph != nil {
            sectionParagraph?.lines.append(line)
        } else {
            sectionParagraph = (start, [line])
        }
    }

    /// Takes back the section's text from line `count` on (a paragraph that is a setext heading).
    private mutating func truncateSectionText(to count: Int) {
        if let last = headings.indices.last {
            headings[last].note.truncate(to: count)
        } else if parked != nil {
            parked!.note.truncate(to: count)
        } else {
            preamble.truncate(to: count)
        }
        sectionParagraph = nil
    }

    // MARK: Items

    /// Starts a list item at `place`, a child of list item `parent` (nil: of the section).
    private mutating func addItem(_ marker: MarkdownSyntax.ListMarker, _ place: Place, parent: Int?, previousSibling: Int?) throws {
        try checkIndentation(place, parent: parent, previousSibling: previousSibling)
        let parentDepth = parent.map { lists[$0].depth } ?? headings.last?.depth ?? 0
        guard parentDepth < maxDepth else {
            throw OutlineError(
                .nonconforming, at: "\(log.file): line \(place.number)", "the list is nested more than \(maxDepth) levels deep",
                hint: "Flatten the list, or import it with a higher maxDepth.")
        }
        if let parent {
            lists[parent].hadChildren = true
        } else if let last = headings.indices.last {
            headings[last].hadChildren = true
        } else if let previous = parked {
            finalize(previous)
            parked = nil
        }
        sectionParagraph = nil
        hasItems = true
        let object = builder.append(depth: parentDepth + 1, text: "")
        var item = MarkdownOpenItem(
            object: object, depth: parentDepth + 1, indent: place.columns,
            content: place.columns + marker.length + max(1, marker.spacing), headingLevel: nil, line: place.number)
        var content = MarkdownBlocks.trimmedLeading(place.rest.dropFirst(marker.length + marker.spacing))
        if let box = MarkdownSyntax.taskBox(content) {
            item.attributes.setBox(done: box.done)
            content = MarkdownBlocks.trimmedLeading(box.rest)
        } else if let task = MarkdownSyntax.taskMarker(content) {
            item.attributes.setMarker(task.marker, done: task.done)
            content = MarkdownBlocks.trimmedLeading(task.rest)
        }
        var scanner = MarkdownBlockScanner()
        if MarkdownBlocks.fenceOpening(content) != nil || MarkdownBlocks.htmlBlockStart(content) != nil {
            _ = scanner.feed(content)
            item.title = [String(content)]
            item.titleState = scanner.state == .none ? .done : .verbatim(scanner)
            item.verbatimTitle = true
        } else {
            item.title = [MarkdownEscaping.unescape(content, .itemFirstLine)]
            item.titleState = .paragraph(open: true)
        }
        lists.append(item)
    }

    /// Warns about indentation that mixes tabs and spaces, jumps two levels, or lines up with
    /// no item above.
    private mutating func checkIndentation(_ place: Place, parent: Int?, previousSibling: Int?) throws {
        let indent = place.columns
        if place.tabs && place.spaces {
            try log.add(line: place.number, "the indentation mixes tabs and spaces", hint: "Indent with one or the other.", key: "mixed")
        } else if indent > 0, let usesTabs, usesTabs != place.tabs {
            try log.add(
                line: place.number,
                "the indentation uses \(place.tabs ? "tabs" : "spaces") where the lines before use \(usesTabs ? "tabs" : "spaces")",
                hint: "Indent with one or the other.", key: "mixed")
        }
        if indent > 0 && usesTabs == nil { usesTabs = place.tabs && !place.spaces }
        if let previousSibling, previousSibling != indent {
            let where_ = parent.map { "a child of the item on the level above (indented \(lists[$0].indent))" } ?? "a top-level item"
            try log.add(
                line: place.number, "the item is indented \(indent) columns, which lines up with no item above; read as \(where_)",
                hint: "Indent each level by the same amount.", key: "uneven")
        }
        if let parent {
            let step = indent - lists[parent].indent
            if unit == nil { unit = step }
            if let unit, unit > 0, step >= 2 * unit {
                try log.add(
                    line: place.number, "the item is indented \(step) columns deeper than its parent, two levels or more; read as one level deeper",
                    hint: "Indent each level by \(unit) \(usesTabs == true ? "columns (one tab)" : "spaces").", key: "jump")
            }
        }
    }

    /// Starts a heading of `level` whose text is `lines` as written (one line for an ATX
    /// heading, the paragraph for a setext one).
    private mutating func addHeading(level: Int, lines: [Substring], atx: Bool, line: Int) throws {
        closeLists(keeping: 0)
        if let previous = parked {
            finalize(previous)
            parked = nil
        }
        while let last = headings.last, let lastLevel = last.headingLevel, lastLevel >= level {
            finalize(headings.removeLast())
        }
        let depth = (headings.last?.depth ?? 0) + 1
        guard depth <= maxDepth else {
            throw OutlineError(
                .nonconforming, at: "\(log.file): line \(line)", "the list is nested more than \(maxDepth) levels deep",
                hint: "Flatten the list, or import it with a higher maxDepth.")
        }
        if let last = headings.indices.last { headings[last].hadChildren = true }
        sectionParagraph = nil
        hasItems = true
        let object = builder.append(depth: depth, text: "")
        var item = MarkdownOpenItem(object: object, depth: depth, indent: 0, content: 0, headingLevel: level, line: line)
        var first = atx ? MarkdownEscaping.unescapeClosingHashes(lines[0]) : MarkdownBlocks.trimmedLeading(lines[0])
        if let box = MarkdownSyntax.taskBox(first) {
            item.attributes.setBox(done: box.done)
            first = MarkdownBlocks.trimmedLeading(box.rest)
        } else if let task = MarkdownSyntax.taskMarker(first) {
            item.attributes.setMarker(task.marker, done: task.done)
            first = MarkdownBlocks.trimmedLeading(task.rest)
        }
        item.title = [MarkdownEscaping.unescape(first, atx ? .headingText : .setextFirstLine)]
        item.title += lines.dropFirst().map { MarkdownEscaping.unescape($0, .textLine) }
        item.readsProperties = true
        headings.append(item)
    }
}
