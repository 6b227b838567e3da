import Foundation
import OutlineEngine
import OutlineStorage

/// Reads a Markdown nested list into a new outline document, line by line.
///
/// What is read:
/// - List items `- text` (also `*`, `+`, `1.` and `1)`), nested by indentation: spaces, tabs
///   (4 columns) or both; the indentation step is learned from the first nested item (2 or 4
///   spaces usually).
/// - `- [ ] text` and `- [x] text` (or `[X]`): done state.
/// - Lines indented under an item that are not list items: the item's note, with blank lines
///   between paragraphs kept; the indentation of the item's text is removed.
/// - A line ending in an odd number of backslashes continues the item's text on the next line.
/// - A `# Title` line before the first item: the document title (``ImportedOutline/head``).
/// - The escapes of ``MarkdownSyntax``.
///
/// Warned about (errors in strict mode), with the line: an item indented two levels deeper
/// than the one before (read one level deeper), an item that lines up with no enclosing level
/// (read at the level it falls under), indentation mixing tabs and spaces, text outside any
/// item (read as a top-level item), and bytes that are not UTF-8 (replaced by U+FFFD).
public enum MarkdownImporter {
    /// Reads the Markdown document in `data`.
    ///
    /// - Parameter file: how messages name the file.
    /// - Throws: ``OutlineError`` `nonconforming` in strict mode; `notAnOutline` when
    ///   `options.schema` is not an outline schema.
    public static func read(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        var parser = MarkdownParser(builder: try OutlineBuilder(schema: try options.schema ?? OutlineSchemas.current),
                                    log: WarningLog(file: file, strict: options.strict), maxDepth: options.maxDepth)
        let text = try InterchangeText.decode(data, log: &parser.log)
        parser.builder.reserve(max(16, data.count / 32))
        var number = 0
        try InterchangeText.forEachLine(text) { line in
            number += 1
            try parser.add(line, number: number)
        }
        return try parser.finish()
    }
}

/// The state of one Markdown read.
struct MarkdownParser {
    /// An item whose children and note lines may still follow.
    struct Open {
        var indent: Int
        var content: Int
        var object: ManagedObject
        var note: [String] = []
    }

    var builder: OutlineBuilder
    var log: WarningLog
    let maxDepth: Int
    private var head = OPMLHead()
    private var open: [Open] = []
    /// Indentation step in columns, learned from the first nested item.
    private var unit: Int?
    /// Whether the document indents with tabs (learned from the first indented item).
    private var usesTabs: Bool?
    /// The text of the last item when its line ended in a line break, and its object.
    private var continued: (object: ManagedObject, text: String)?
    private var blankLines = 0
    private var droppedNotes = 0

    init(builder: OutlineBuilder, log: WarningLog, maxDepth: Int) {
        self.builder = builder
        self.log = log
        self.maxDepth = maxDepth
    }

    mutating func add(_ line: Substring, number: Int) throws {
        let indentation = MarkdownSyntax.indentation(line)
        let rest = line.dropFirst(indentation.characters)
        if rest.isEmpty {
            blankLines += 1
            continued = nil
            return
        }
        defer { blankLines = 0 }
        if let (object, text) = continued, blankLines == 0, let top = open.last, indentation.columns >= top.content {
            try continueText(object, text, MarkdownSyntax.dropIndentation(line, columns: top.content))
            return
        }
        continued = nil
        if let marker = MarkdownSyntax.listMarker(rest) {
            try addItem(rest, marker: marker, indentation: indentation, number: number)
        } else if open.isEmpty && builder.count == 0 && head.title == nil && (rest.hasPrefix("# ") || rest == "#") {
            head.title = String(rest.dropFirst(1).drop { $0 == " " })
        } else if let index = open.lastIndex(where: { indentation.columns >= $0.content }) {
            try addNoteLine(MarkdownSyntax.dropIndentation(line, columns: open[index].content), to: index)
        } else {
            try log.add(line: number, "this line is not a list item or under one; read as a top-level item",
                        hint: "Start items with \"- \" and indent notes under their item.", key: "outside")
            closeItems(keeping: 0)
            let object = builder.append(depth: 1, text: String(rest))
            open.append(Open(indent: indentation.columns, content: indentation.columns + 2, object: object))
        }
    }

    private mutating func addItem(_ rest: Substring, marker: (length: Int, spacing: Int),
                                  indentation: (columns: Int, characters: Int, tabs: Bool, spaces: Bool), number: Int) throws {
        let indent = indentation.columns
        if indentation.tabs && indentation.spaces {
            try log.add(line: number, "the indentation mixes tabs and spaces", hint: "Indent with one or the other.", key: "mixed")
        } else if indent > 0, let usesTabs, usesTabs != indentation.tabs {
            try log.add(line: number, "the indentation uses \(indentation.tabs ? "tabs" : "spaces") where the lines before use \(usesTabs ? "tabs" : "spaces")",
                        hint: "Indent with one or the other.", key: "mixed")
        }
        if indent > 0 && usesTabs == nil { usesTabs = indentation.tabs && !indentation.spaces }

        // The parent is the last open item whose text starts at or before this indentation
        // (CommonMark's rule); the item this one follows at the same level should line up.
        let parentIndex = open.lastIndex { $0.content <= indent }
        let levelStart = parentIndex.map { $0 + 1 } ?? 0
        if levelStart < open.count, open[levelStart].indent != indent {
            let place = parentIndex.map { "a child of the item on the level above (indented \(open[$0].indent))" } ?? "a top-level item"
            try log.add(line: number, "the item is indented \(indent) columns, which lines up with no item above; read as \(place)",
                        hint: "Indent each level by the same amount.", key: "uneven")
        }
        if let parentIndex {
            let step = indent - open[parentIndex].indent
            if unit == nil { unit = step }
            if let unit, unit > 0, step >= 2 * unit {
                try log.add(line: number, "the item is indented \(step) columns deeper than its parent, two levels or more; read as one level deeper",
                            hint: "Indent each level by \(unit) \(usesTabs == true ? "columns (one tab)" : "spaces").", key: "jump")
            }
        }
        guard levelStart < maxDepth else {
            throw OutlineError(.nonconforming, at: "\(log.file): line \(number)", "the list is nested more than \(maxDepth) levels deep",
                               hint: "Flatten the list, or import it with a higher maxDepth.")
        }
        closeItems(keeping: levelStart)

        var content = rest.dropFirst(marker.length + marker.spacing)
        var done = false
        if let box = MarkdownSyntax.taskBox(content) {
            done = box.done
            content = box.rest
        }
        let (end, lineBreak) = MarkdownSyntax.unescapeEnd(content)
        let text = MarkdownSyntax.unescapeStart(end)
        let object = builder.append(depth: open.count + 1, text: text)
        if done { builder.setDone(true, of: object) }
        open.append(Open(indent: indent, content: indent + marker.length + max(1, marker.spacing), object: object))
        if lineBreak { continued = (object, text) }
    }

    private mutating func continueText(_ object: ManagedObject, _ text: String, _ line: Substring) throws {
        let (end, lineBreak) = MarkdownSyntax.unescapeEnd(line)
        let joined = text + "\n" + MarkdownSyntax.unescapeStart(end)
        builder.setText(joined, of: object)
        continued = lineBreak ? (object, joined) : nil
    }

    private mutating func addNoteLine(_ line: Substring, to index: Int) throws {
        closeItems(keeping: index + 1)
        if !open[index].note.isEmpty {
            open[index].note.append(contentsOf: repeatElement("", count: blankLines))
        }
        open[index].note.append(MarkdownSyntax.unescapeStart(line))
    }

    /// Closes the open items after the first `count`, storing their notes.
    private mutating func closeItems(keeping count: Int) {
        while open.count > count {
            let item = open.removeLast()
            if !item.note.isEmpty, !builder.setNote(item.note.joined(separator: "\n"), of: item.object) { droppedNotes += 1 }
        }
    }

    consuming func finish() throws -> ImportedOutline {
        closeItems(keeping: 0)
        if droppedNotes > 0 {
            try log.add(at: nil, "\(droppedNotes) notes were not imported: the schema \(builder.schema.name) has no notes",
                        hint: "Import into the current schema to keep them.", key: "schema-notes")
        }
        return ImportedOutline(document: try builder.finish(), head: head, warnings: log.finished())
    }
}
