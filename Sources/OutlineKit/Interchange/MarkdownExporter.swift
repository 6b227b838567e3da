import Foundation
import OutlineEngine
import OutlineStorage

/// Which items a Markdown export gives a task box.
public enum MarkdownCheckboxes: String, Sendable, Hashable, CaseIterable {
    /// Done items get `[x]`; the others are plain items (the outline cannot tell an open task
    /// from a plain item).
    case doneOnly
    /// Every item gets a box: `[x]` when done, `[ ]` otherwise (for to-do lists).
    case always
}

/// How to write Markdown.
public struct MarkdownExportOptions: Sendable, Hashable {
    public var checkboxes: MarkdownCheckboxes

    public init(checkboxes: MarkdownCheckboxes = .doneOnly) {
        self.checkboxes = checkboxes
    }
}

/// Writes an outline document as a Markdown nested list.
///
/// Layout: an optional `# Title` and a blank line; then one `- ` item per line, indented by two
/// spaces per level (the column where the parent's text starts, which every CommonMark reader
/// nests by); `- [x] ` for done items; a note on the lines right after its item, indented like
/// the item's text, blank lines between paragraphs kept; a line break inside an item's text as
/// a backslash line break. Line breaks are written as `\n` (a `\r\n` in a text reads back
/// as `\n`). Text is escaped as ``MarkdownSyntax`` describes, so ``MarkdownImporter`` reads
/// back the same texts, notes and done states.
///
/// Not written: collapsed state (view state, silently) and kept OPML attributes (reported
/// once, with the number of items). Lost in the round trip: a note's leading and trailing
/// blank lines, lines of only spaces, an empty note, and the leading spaces of an item's text
/// written without a task box.
///
/// - Complexity: O(output); every line is indented, so a chain of depth d costs O(d²) bytes.
public enum MarkdownExporter {
    /// The Markdown file for `document`, with `title` as a `# ` heading when given.
    public static func write(_ document: OutlineDocument, title: String? = nil, file: String? = nil,
                             options: MarkdownExportOptions = MarkdownExportOptions()) -> ExportedOutline {
        var output = ""
        output.reserveCapacity(document.itemCount * 24)
        if let title, !title.isEmpty {
            output += "# \(title.replacingOccurrences(of: "\n", with: " "))\n\n"
        }
        var attributes = KeptAttributeTally()
        document.walk { item, depth in
            let indent = String(repeating: "  ", count: depth - 1)
            let done = document.isDone(item)
            output += indent
            output += done ? "- [x]" : options.checkboxes == .always ? "- [ ]" : "-"
            let lines = InterchangeText.lines(of: document.text(of: item) ?? "")
            for (index, line) in lines.enumerated() {
                let escaped = MarkdownSyntax.escapeEnd(MarkdownSyntax.escapeStart(line), lineBreak: index + 1 < lines.count)
                if index == 0 {
                    if !escaped.isEmpty { output += " " + escaped }
                } else {
                    output += "\n" + indent + "  " + escaped
                }
            }
            output += "\n"
            if let note = document.note(of: item) {
                writeNote(note, indent: indent + "  ", into: &output)
            }
            attributes.count(item, in: document)
            return true
        }
        var warnings: [InterchangeWarning] = []
        if let warning = attributes.warning(file: file, format: "Markdown") { warnings.append(warning) }
        return ExportedOutline(data: Data(output.utf8), warnings: warnings)
    }

    /// Appends the lines of `note`, indented, blank ones left empty; leading and trailing blank
    /// lines are dropped (the reader could not tell them from the spacing between items).
    private static func writeNote(_ note: String, indent: String, into output: inout String) {
        var lines = InterchangeText.lines(of: note)
        let isBlank = { (line: Substring) in line.allSatisfy { $0 == " " || $0 == "\t" } }
        while let first = lines.first, isBlank(first) { lines.removeFirst() }
        while let last = lines.last, isBlank(last) { lines.removeLast() }
        for line in lines {
            output += isBlank(line) ? "\n" : indent + MarkdownSyntax.escapeStart(line) + "\n"
        }
    }
}

/// Counts items whose kept OPML attributes an export cannot write.
struct KeptAttributeTally {
    private(set) var items = 0
    private var names: [String] = []

    mutating func count(_ item: ManagedObject, in document: OutlineDocument) {
        guard let attribute = document.shape.extraAttributes,
              let data = document.context.attributeValue(of: item, attribute)?.binaryValue,
              let extra = try? ExtraAttributes(decoding: data), !extra.kept.isEmpty else { return }
        items += 1
        for kept in extra.kept where names.count < 5 && !names.contains(kept.name) { names.append(kept.name) }
    }

    func warning(file: String?, format: String) -> InterchangeWarning? {
        guard items > 0 else { return nil }
        return InterchangeWarning(file: file, at: nil,
                                  "\(items) \(items == 1 ? "item has" : "items have") OPML attributes (\(names.joined(separator: ", "))) that \(format) cannot hold; they are not written",
                                  hint: "Export OPML to keep them.")
    }
}
