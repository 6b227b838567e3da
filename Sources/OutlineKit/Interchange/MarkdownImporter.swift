import Foundation
import OutlineEngine
import OutlineStorage

/// Reads Markdown as people write it (READMEs, changelogs, notes, Logseq and Obsidian pages)
/// into a new outline document, following CommonMark and GitHub-flavoured Markdown.
///
/// Structure:
/// - Headings (ATX `#` to `######`, setext `===` and `---`) are items at their level; a heading
///   that skips levels nests one deeper than the heading above it (as pandoc does), and
///   everything up to the next heading of the same or a higher level belongs to it.
/// - List items (`-`, `*`, `+`, `1.`, `1)`) are items, nested by indentation as CommonMark
///   nests them (spaces, tabs as 4 columns, or both); a list under a heading is its children.
///   The indentation step is learned from the first nested item.
/// - An item's text is its first paragraph, line breaks kept (lazy continuation lines
///   included); when the item starts with a code fence or an HTML block, that block.
/// - Everything else under a heading or list item (paragraphs, code blocks, tables, block
///   quotes, HTML blocks, link reference definitions, thematic breaks) is its note, as Markdown:
///   blank lines kept, the indentation of the item's content removed. Text that follows a
///   heading's list is added to the heading's note; text after a top-level list outside any
///   heading to the last top-level item's note.
/// - Task boxes `[ ]`, `[x]`, `[X]` and Logseq's `TODO` and `DONE` markers are done state;
///   `key:: value` lines right after an item's first line or a heading are properties, kept in
///   ``ExtraAttributes`` (see `MarkdownItemAttributes`).
/// - YAML front matter and the text before the first heading or list item are kept in the
///   head (see `MarkdownDocumentHead`); a front matter `title:` is the head's title.
/// - The escapes of `MarkdownEscaping`; other Markdown stays as written.
///
/// Every word of the file is somewhere in the outline. Warned about (errors in strict mode),
/// with the line: an item indented two levels deeper than the one before (read one level
/// deeper), an item that lines up with no enclosing level (read at the level it falls under),
/// indentation mixing tabs and spaces, a property given twice in one item (the second kept in
/// the note), values of `collapsed::` and `created::` that spell none, a file with no headings or
/// list items, and bytes that are not UTF-8 (replaced by U+FFFD). UTF-16 with a byte-order mark
/// is read too.
public enum MarkdownImporter {
    /// Reads the Markdown document in `data`.
    ///
    /// - Parameter file: how messages name the file.
    /// - Parameter data: the document's bytes (UTF-8, or UTF-16 with a byte-order mark).
    /// - Parameter options: strictness, the schema of the new document and the depth limit.
    /// - Throws: ``OutlineError`` `nonconforming` in strict mode or when the lists nest deeper
    ///   than `options.maxDepth`; `notAnOutline` when `options.schema` is not an outline schema.
    /// - Complexity: O(bytes), at any depth.
    public static func read(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        var parser = MarkdownParser(
            builder: try OutlineBuilder(schema: try options.schema ?? OutlineSchemas.current),
            log: WarningLog(file: file, strict: options.strict), maxDepth: options.maxDepth)
        let text = try InterchangeText.decode(data, log: &parser.log)
        parser.builder.reserve(max(16, data.count / 32))
        var lines = InterchangeText.lines(of: text)
        if lines.last?.isEmpty == true { lines.removeLast() }
        try parser.read(lines)
        return try parser.finish()
    }
}
