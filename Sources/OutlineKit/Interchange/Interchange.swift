import Foundation
import OutlineStorage

/// One entry point for every interchange format, for callers that choose the format at run
/// time (the CLI's `outline convert`).
public enum Interchange {
    /// Reads `data` in `format` into a new document.
    ///
    /// - Throws: as ``OPMLImporter/read(_:file:options:)``, ``MarkdownImporter/read(_:file:options:)``
    ///   or ``PlainTextImporter/read(_:file:options:)``.
    public static func read(
        _ data: Data, format: InterchangeFormat, file: String,
        options: ImportOptions = ImportOptions()
    ) throws -> ImportedOutline {
        switch format {
        case .opml: try OPMLImporter.read(data, file: file, options: options)
        case .markdown: try MarkdownImporter.read(data, file: file, options: options)
        case .text: try PlainTextImporter.read(data, file: file, options: options)
        }
    }

    /// Writes `document` in `format`. `head` is written whole by OPML; Markdown writes its front
    /// matter (or title) and preamble (see `MarkdownDocumentHead`).
    ///
    /// The root item's text (the Core Data example app's root has one) is the title when `head`
    /// has none: OPML's `<title>`, Markdown's front matter. Plain text has no place for it, which
    /// a warning says.
    ///
    /// - Throws: ``OutlineError`` `invalidDocument` when some items are not under the root
    ///   (``OutlineDocument/requireEveryItemUnderRoot()``): every format would leave them out.
    public static func write(
        _ document: OutlineDocument, format: InterchangeFormat, head: OPMLHead = OPMLHead(),
        file: String? = nil, opml: OPMLExportOptions = OPMLExportOptions(),
        markdown: MarkdownExportOptions = MarkdownExportOptions()
    ) throws -> ExportedOutline {
        try document.requireEveryItemUnderRoot()
        var head = head
        let rootText = document.text(of: document.root).flatMap { $0.isEmpty ? nil : $0 }
        if head.title == nil, let rootText { head.title = rootText }
        switch format {
        case .opml: return try OPMLExporter.write(document, head: head, file: file, options: opml)
        case .markdown: return MarkdownExporter.write(document, head: head, file: file, options: markdown)
        case .text:
            var exported = try PlainTextExporter.write(document, file: file)
            if let rootText {
                exported.warnings.insert(
                    InterchangeWarning(
                        file: file, at: nil, "the root item's text “\(ControlCharacters.escaped(rootText))” was not written: plain text has no title",
                        hint: "Export Markdown or OPML to keep it."),
                    at: 0)
            }
            return exported
        }
    }
}
