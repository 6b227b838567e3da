import Foundation
import OutlineEngine
import OutlineStorage

/// Reads tab-indented plain text (as Bike, TaskPaper, h-m-m and Logseq exchange it) into a new
/// outline document: one item per line, one leading tab per level, the rest of the line is the
/// text, exactly (no markers are interpreted). Blank lines are skipped.
///
/// Warned about (errors in strict mode), with the line: indentation with spaces (read with the
/// step of the first indented line, 4 columns per tab), tabs and spaces mixed, an item two
/// levels deeper than the one before (read one level deeper), bytes that are not UTF-8.
public enum PlainTextImporter {
    /// Reads the text in `data`.
    ///
    /// - Parameter file: how messages name the file.
    /// - Parameter data: the text's bytes (UTF-8).
    /// - Parameter options: strictness, the schema of the new document and the depth limit.
    /// - Throws: ``OutlineError`` `nonconforming` in strict mode; `notAnOutline` when
    ///   `options.schema` is not an outline schema.
    public static func read(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        var builder = try OutlineBuilder(schema: try options.schema ?? OutlineSchemas.current)
        var log = WarningLog(file: file, strict: options.strict)
        let text = try InterchangeText.decode(data, log: &log)
        builder.reserve(max(16, data.count / 16))
        var number = 0
        var unit: Int?
        try InterchangeText.forEachLine(text) { line in
            number += 1
            let indentation = MarkdownSyntax.indentation(line)
            let content = line[indentation.end...]
            guard !content.allSatisfy({ $0 == " " || $0 == "\t" }) else { return }
            if indentation.spaces {
                if indentation.tabs {
                    try log.add(line: number, "the indentation mixes tabs and spaces", hint: "Indent with tabs only.", key: "mixed")
                } else {
                    try log.add(
                        line: number, "the line is indented with spaces instead of tabs; read with \(unit ?? indentation.columns) spaces per level",
                        hint: "Indent with tabs only.", key: "spaces")
                }
            }
            if unit == nil && indentation.columns > 0 { unit = indentation.spaces && !indentation.tabs ? indentation.columns : 4 }
            var depth = indentation.columns / (unit ?? 4) + 1
            if depth > builder.depth + 1 {
                try log.add(
                    line: number,
                    "the line is indented \(depth - builder.depth - 1 == 1 ? "1 level" : "\(depth - builder.depth - 1) levels") deeper than a child of the line before; read as its child",
                    hint: "Indent each level by one tab more than its parent.", key: "jump")
                depth = builder.depth + 1
            }
            guard depth <= options.maxDepth else {
                throw OutlineError(
                    .nonconforming, at: "\(file): line \(number)", "the outline is nested more than \(options.maxDepth) levels deep",
                    hint: "Flatten the outline, or import it with a higher maxDepth.")
            }
            builder.append(depth: depth, text: String(content))
        }
        return ImportedOutline(document: try builder.finish(), head: OPMLHead(), warnings: log.finished())
    }
}

/// Writes an outline document as tab-indented plain text: one item per line, one tab per level.
///
/// Plain text holds only the tree and the texts. Reported once each, with the number of items
/// and the first one's path: notes, done state and tags are dropped (export Markdown or OPML to keep
/// them), a newline or tab inside a text is written as a space, leading spaces of a text are
/// dropped (they would read as indentation), an empty text is written as an empty line (which
/// reads back as nothing), and kept OPML attributes are not written. Collapsed state is not
/// written either.
///
/// - Complexity: O(output); a chain of depth d costs O(d²) bytes of tabs.
public enum PlainTextExporter {
    /// The text file for `document`.
    ///
    /// - Throws: ``OutlineError`` `invalidDocument` when some items are not under the root
    ///   (``OutlineDocument/requireEveryItemUnderRoot()``): they would be left out.
    public static func write(_ document: OutlineDocument, file: String? = nil) throws -> ExportedOutline {
        try document.requireEveryItemUnderRoot()
        var output = ""
        output.reserveCapacity(document.itemCount * 16)
        var tallies: [(one: String, many: String, why: String, hint: String?, count: Int, first: ManagedObject?)] = [
            ("note was dropped", "notes were dropped", "plain text has no notes", "Export Markdown or OPML to keep them.", 0, nil),
            (
                "done state was dropped", "done states were dropped", "plain text has no done state",
                "Export Markdown or OPML to keep them.", 0, nil
            ),
            ("item's tags were dropped", "items' tags were dropped", "plain text has no tags", "Export OPML to keep them.", 0, nil),
            ("text held line breaks or tabs", "texts held line breaks or tabs", "line breaks and tabs are written as spaces", nil, 0, nil),
            ("text started with spaces", "texts started with spaces", "leading spaces are dropped, as they would read as indentation", nil, 0, nil),
            ("text was empty", "texts were empty", "an empty text is written as an empty line, which reads back as nothing", nil, 0, nil),
        ]
        func tally(_ index: Int, _ item: ManagedObject) {
            tallies[index].count += 1
            if tallies[index].first == nil { tallies[index].first = item }
        }
        var attributes = KeptAttributeTally()
        document.walk { item, depth in
            var text = document.text(of: item) ?? ""
            if document.note(of: item) != nil { tally(0, item) }
            if document.isDone(item) { tally(1, item) }
            if !document.tags(of: item).isEmpty { tally(2, item) }
            if text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) {
                tally(3, item)
                text = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
            }
            if text.first == " " {
                tally(4, item)
                text = String(text.drop { $0 == " " })
            }
            if text.isEmpty { tally(5, item) }
            output += String(repeating: "\t", count: depth - 1) + text + "\n"
            attributes.count(item, in: document)
            return true
        }
        var warnings: [InterchangeWarning] = []
        for tally in tallies where tally.count > 0 {
            let first = tally.first.map { "item \(ItemReference.path(document.path(of: $0)))" } ?? ""
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil, "\(tally.count) \(tally.count == 1 ? tally.one : tally.many) (first: \(first)): \(tally.why)",
                    hint: tally.hint))
        }
        if let warning = attributes.warning(file: file, format: "plain text") { warnings.append(warning) }
        return ExportedOutline(data: Data(output.utf8), warnings: warnings)
    }
}
