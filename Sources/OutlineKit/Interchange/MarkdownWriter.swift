import OutlineEngine
import OutlineStorage

/// One Markdown export run: the output so far and what could not be written.
struct MarkdownWriter {
    let document: OutlineDocument
    let options: MarkdownExportOptions
    private(set) var output = ""
    /// Whether the output ends with a blank line (or is empty).
    private var atBlankLine = true
    private var unwritable: (items: Int, names: [String]) = (0, [])
    private var corrupt: (count: Int, first: String?) = (0, nil)
    /// Items whose tags are not written (Markdown has no tags), and the first of them.
    private var tagged: (count: Int, first: ManagedObject?) = (0, nil)
    /// Items whose text or note loses white space at its start or end, and the first of them.
    private var trimmed: (count: Int, first: ManagedObject?) = (0, nil)

    init(document: OutlineDocument, options: MarkdownExportOptions) {
        self.document = document
        self.options = options
        output.reserveCapacity(document.itemCount * 24)
    }

    // MARK: Head

    /// Front matter (kept, or made from the title) and the preamble.
    mutating func writeHead(_ head: OPMLHead) {
        var preamble = head[field: MarkdownDocumentHead.preambleField].map { InterchangeText.lines(of: $0) } ?? []
        while let first = preamble.first, MarkdownSyntax.isBlank(first) { preamble.removeFirst() }
        if let frontMatter = head[field: MarkdownDocumentHead.frontMatterField] {
            append(frontMatter.hasSuffix("\n") ? String(frontMatter.dropLast()) : frontMatter)
        } else if let title = head.title, !title.isEmpty {
            append(MarkdownDocumentHead.frontMatter(title: title))
        } else if let first = preamble.first, MarkdownBlocks.trimmed(first) == "---" {
            // Front matter starts on the first line: a blank line before a first `---` keeps it
            // from reading as front matter.
            output += "\n"
        }
        if !preamble.isEmpty {
            blankLine()
            MarkdownNoteWriter.write(preamble.joined(separator: "\n"), indent: "", into: &output)
            atBlankLine = false
        }
        blankLine()
    }

    // MARK: Items

    /// Every item, in document order, without recursion; the file ends with one line break.
    mutating func writeItems() {
        defer { while output.hasSuffix("\n\n") { output.removeLast() } }
        let levels = options.style == .headings ? min(max(options.headingLevels, 1), 6) : 0
        // For the item at each depth of the current path: whether its children are headings.
        var childrenAreHeadings: [Bool] = [levels > 0]
        var headingDepth = 0
        document.walk { item, depth in
            childrenAreHeadings.removeLast(childrenAreHeadings.count - depth)
            headingDepth = min(headingDepth, depth - 1)
            let lines = InterchangeText.lines(of: document.text(of: item) ?? "")
            if childrenAreHeadings[depth - 1] && (lines.count == 1 || depth <= 2) {
                headingDepth = depth
                writeHeading(item, level: depth, lines: lines)
                childrenAreHeadings.append(depth < levels && childrenCanBeHeadings(item, depth: depth + 1))
            } else {
                writeListItem(item, indent: String(repeating: "  ", count: depth - headingDepth - 1), lines: lines)
                childrenAreHeadings.append(false)
            }
            return true
        }
    }

    /// Whether the children of `item` can all be headings at `depth`: below level 2 a heading
    /// holds one line (setext headings, which hold more, exist only at levels 1 and 2), and
    /// siblings are either all headings or all list items.
    private func childrenCanBeHeadings(_ item: ManagedObject, depth: Int) -> Bool {
        depth <= 2
            || document.children(of: item).allSatisfy { child in
                !(document.text(of: child) ?? "").contains { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            }
    }

    private mutating func writeListItem(_ item: ManagedObject, indent: String, lines: [Substring]) {
        let (prefix, properties) = taskAndProperties(item)
        let first = MarkdownBlocks.trimmedLeading(lines[0])
        let continuation = indent + "  "
        var line = indent + "-" + (prefix.map { " " + $0 } ?? "")
        let verbatim = properties.isEmpty ? Self.verbatimBlock([first] + lines.dropFirst(), offset: continuation.count) : nil
        if let verbatim {
            line += " " + first
            append(line)
            for text in lines.dropFirst() { append(MarkdownSyntax.isBlank(text) ? "" : continuation + text) }
            if case .html(let kind) = verbatim, kind.endsAtBlankLine { blankLine() }
        } else {
            let escaped = MarkdownEscaping.escape(first, .itemFirstLine)
            if !escaped.isEmpty {
                line += " " + escaped
            } else if prefix == nil {
                // A bare `-` after paragraph text would continue it (or underline it).
                blankLine()
            }
            append(line)
            for property in properties { append(continuation + property) }
            for text in lines.dropFirst() { append(continuation + MarkdownEscaping.escape(text, .textLine)) }
        }
        writeNote(item, indent: continuation)
    }

    private mutating func writeHeading(_ item: ManagedObject, level: Int, lines: [Substring]) {
        let (prefix, properties) = taskAndProperties(item)
        let first = MarkdownBlocks.trimmedLeading(lines[0])
        blankLine()
        let task = prefix.map { $0 + " " } ?? ""
        if lines.count == 1 {
            let content = MarkdownEscaping.escapeClosingHashes(task + MarkdownEscaping.escape(MarkdownBlocks.trimmed(first), .headingText))
            append(String(repeating: "#", count: level) + (content.isEmpty ? "" : " " + content))
        } else {
            append(task + MarkdownEscaping.escape(first, .setextFirstLine))
            for text in lines.dropFirst() { append(MarkdownEscaping.escape(text, .textLine)) }
            append(level == 1 ? "===" : "---")
        }
        for property in properties { append(property) }
        writeNote(item, indent: "")
        blankLine()
    }

    /// The note of `item` after a blank line, and a blank line after it (which ends an HTML
    /// block the note may end with).
    private mutating func writeNote(_ item: ManagedObject, indent: String) {
        guard let note = document.note(of: item), !note.allSatisfy({ $0.isWhitespace }) else { return }
        blankLine()
        MarkdownNoteWriter.write(note, indent: indent, into: &output)
        atBlankLine = false
        blankLine()
    }

    /// The task prefix and property lines of `item`, noting what cannot be written.
    private mutating func taskAndProperties(_ item: ManagedObject) -> (prefix: String?, properties: [String]) {
        if !document.tags(of: item).isEmpty {
            tagged.count += 1
            if tagged.first == nil { tagged.first = item }
        }
        if Self.losesWhiteSpace(text: document.text(of: item) ?? "", note: document.note(of: item)) {
            trimmed.count += 1
            if trimmed.first == nil { trimmed.first = item }
        }
        var extra: ExtraAttributes?
        do {
            extra = try document.extraAttributes(of: item)
        } catch {
            corrupt.count += 1
            if corrupt.first == nil { corrupt.first = (error as? OutlineError)?.description ?? "\(error)" }
        }
        let prefix = MarkdownItemAttributes.taskPrefix(done: document.isDone(item), extra: extra, always: options.checkboxes == .always)
        let (lines, names) = MarkdownItemAttributes.propertyLines(
            extra: extra, collapsed: document.isCollapsed(item),
            created: document.created(of: item))
        if !names.isEmpty {
            unwritable.items += 1
            for name in names where unwritable.names.count < 5 && !unwritable.names.contains(name) { unwritable.names.append(name) }
        }
        return (prefix, lines)
    }

    /// The block a text is, when its first line opens a code fence or an HTML block that ends
    /// exactly at its last line (or, for blocks that end at a blank line, holds all of it): the
    /// item's text is then written as that block, unescaped.
    static func verbatimBlock(_ lines: [Substring], offset: Int) -> MarkdownBlockScanner.State? {
        var scanner = MarkdownBlockScanner()
        guard scanner.feed(lines[0]) == .verbatim, scanner.state != .indentedCode else { return nil }
        let opened = scanner.state
        if opened == .none { return lines.count == 1 ? .html(.comment) : nil }
        for (index, line) in lines.enumerated().dropFirst() {
            if scanner.state == .none { return nil }
            if MarkdownSyntax.isBlank(line), case .html(let kind) = opened, kind.endsAtBlankLine { return nil }
            _ = scanner.feed(line, offset: offset)
            if scanner.state == .none && index < lines.count - 1 { return nil }
        }
        if case .html(let kind) = opened, kind.endsAtBlankLine { return opened }
        return scanner.state == .none ? opened : nil
    }

    // MARK: Output

    private mutating func append(_ line: String) {
        output += line
        output += "\n"
        atBlankLine = false
    }

    private mutating func blankLine() {
        guard !atBlankLine else { return }
        output += "\n"
        atBlankLine = true
    }

    /// Whether Markdown drops white space of `text` or `note`: at the start of the text's first
    /// line or the end of its last, blank lines at either end of the note, a note of white space.
    static func losesWhiteSpace(text: String, note: String?) -> Bool {
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true { return true }
        guard let note, !note.isEmpty else { return false }
        if note.allSatisfy(\.isWhitespace) { return true }
        let lines = InterchangeText.lines(of: note)
        return lines.first.map(MarkdownSyntax.isBlank) == true || lines.last.map(MarkdownSyntax.isBlank) == true
    }

    /// What the export could not write.
    func warnings(file: String?) -> [InterchangeWarning] {
        var warnings: [InterchangeWarning] = []
        func first(_ item: ManagedObject?) -> String {
            item.map { "item \(ItemReference.path(document.path(of: $0)))" } ?? ""
        }
        if tagged.count > 0 {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(tagged.count) \(tagged.count == 1 ? "item's tags were" : "items' tags were") not written (first: \(first(tagged.first))): Markdown has no tags",
                    hint: "Export OPML to keep them (as its category attribute)."))
        }
        if trimmed.count > 0 {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(trimmed.count) \(trimmed.count == 1 ? "item's text or note" : "items' texts or notes") lost white space at the start or end "
                        + "(first: \(first(trimmed.first))): Markdown does not keep it",
                    hint: "Export OPML to keep it."))
        }
        if unwritable.items > 0 {
            let items = unwritable.items
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(items) \(items == 1 ? "item has" : "items have") attributes (\(unwritable.names.joined(separator: ", "))) that Markdown cannot hold "
                        + "as property lines (a name that is not a property key, or a value with a line break); they are not written",
                    hint: "Export OPML to keep them."))
        }
        if corrupt.count > 0, let first = corrupt.first {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(corrupt.count) \(corrupt.count == 1 ? "item's" : "items'") stored attributes could not be decoded and were left out (first: \(first))"
                ))
        }
        return warnings
    }
}
