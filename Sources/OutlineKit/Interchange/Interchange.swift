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
    /// - Throws: ``OutlineError`` `invalidDocument` when some items are not under the root
    ///   (``OutlineDocument/requireEveryItemUnderRoot()``): every format would leave them out.
    public static func write(
        _ document: OutlineDocument, format: InterchangeFormat, head: OPMLHead = OPMLHead(),
        file: String? = nil, opml: OPMLExportOptions = OPMLExportOptions(),
        markdown: MarkdownExportOptions = MarkdownExportOptions()
    ) throws -> ExportedOutline {
        try document.requireEveryItemUnderRoot()
        switch format {
        case .opml: return try OPMLExporter.write(document, head: head, file: file, options: opml)
        case .markdown: return MarkdownExporter.write(document, head: head, file: file, options: markdown)
        case .text: return try PlainTextExporter.write(document, file: file)
        }
    }
}
