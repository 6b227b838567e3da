import Foundation
import OutlineEngine
import OutlineStorage

/// Which items a Markdown export gives a task box.
public enum MarkdownCheckboxes: String, Sendable, Hashable, CaseIterable {
    /// Done items get `[x]` and open tasks (items read from `[ ]`, `TODO`, or an OPML done
    /// attribute) `[ ]`; the others are plain items.
    case doneOnly
    /// Every item gets a box: `[x]` when done, `[ ]` otherwise (for to-do lists). Items that had
    /// none read back as open tasks.
    case always
}

/// How a Markdown export lays out the outline.
public enum MarkdownStyle: String, Sendable, Hashable, CaseIterable {
    /// One nested list: every item a list item, two spaces of indentation per level.
    case list
    /// The top levels as headings (`#` for the first level, `##` for the second, ...), the
    /// levels below them as lists under their heading.
    case headings
}

/// How to write Markdown.
public struct MarkdownExportOptions: Sendable, Hashable {
    /// Which items get a task box.
    public var checkboxes: MarkdownCheckboxes
    /// A nested list, or headings over lists.
    public var style: MarkdownStyle
    /// With ``MarkdownStyle/headings``, how many levels are headings, in
    /// ``headingLevelRange`` (values outside it are clamped).
    public var headingLevels: Int

    /// The heading levels Markdown has.
    public static let headingLevelRange = 1 ... 6

    /// Options for a nested list with boxes on done and open-task items, unless given otherwise.
    public init(checkboxes: MarkdownCheckboxes = .doneOnly, style: MarkdownStyle = .list, headingLevels: Int = 2) {
        self.checkboxes = checkboxes
        self.style = style
        self.headingLevels = headingLevels
    }
}

/// Writes an outline document as Markdown that ``MarkdownImporter`` reads back as the same tree:
/// the same texts, notes, done states, properties and collapsed states.
///
/// Layout: the head's front matter (or front matter holding its title) and preamble (see
/// `MarkdownDocumentHead`); then each item, as a list item (`- `, indented two spaces per
/// level) or, in ``MarkdownStyle/headings``, as a heading at its level. An item's task state
/// comes first (`[x]`, `[ ]`, `DONE`, `TODO`, see `MarkdownItemAttributes`), then its text
/// (the first line after the marker, the others on the lines below, indented like it), its
/// properties as `key:: value` lines right after the first line (after a heading), and its note
/// after a blank line, indented like the text. Items whose text has several lines are setext
/// headings at levels 1 and 2; at deeper levels their siblings and they are written as a list
/// under their parent heading instead. Line breaks are written as `\n`; escapes are those of
/// `MarkdownEscaping`.
///
/// A folded item gets `collapsed:: true` (as Logseq writes it); creation dates are written
/// (`created::`) only for items read with them, as OPML's `created` attribute is; a done item's
/// open-task slot is not written (it shows `[x]` or `DONE` either way). Not written, with a
/// warning: tags (Markdown has none; OPML keeps them), kept attributes whose name is not a
/// property key or whose value holds a line break. Lost in the round trip, with a warning:
/// leading white space of a text's first line and trailing white space of its last line, a
/// note's leading and trailing blank lines; without one: the spaces on a note's blank lines, and
/// where OPML placed `text` among an item's attributes.
///
/// - Complexity: O(output); in the list style every line is indented, so a chain of depth d
///   costs O(d²) bytes.
public enum MarkdownExporter {
    /// The Markdown file for `document`, with `head` (usually ``ImportedOutline/head`` as kept in
    /// the document's metadata) before the items.
    public static func write(
        _ document: OutlineDocument, head: OPMLHead = OPMLHead(), file: String? = nil,
        options: MarkdownExportOptions = MarkdownExportOptions()
    ) -> ExportedOutline {
        var writer = MarkdownWriter(document: document, options: options)
        writer.writeHead(head)
        writer.writeItems()
        return ExportedOutline(data: Data(writer.output.utf8), warnings: writer.warnings(file: file))
    }
}
