import Foundation
import OutlineStorage

/// One entry point for every interchange format, for callers that choose the format at run
/// time (the CLI's `outline convert`).
public enum Interchange {
    /// Reads `data` in `format` into a new document.
    ///
    /// - Throws: as ``OPMLImporter/read(_:file:options:)``, ``MarkdownImporter/read(_:file:options:)``
    ///   or ``PlainTextImporter/read(_:file:options:)``.
    public static func read(_ data: Data, format: InterchangeFormat, file: String,
                            options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        switch format {
        case .opml: try OPMLImporter.read(data, file: file, options: options)
        case .markdown: try MarkdownImporter.read(data, file: file, options: options)
        case .text: try PlainTextImporter.read(data, file: file, options: options)
        }
    }

    /// Writes `document` in `format`. `head` is written whole by OPML; Markdown writes its front
    /// matter (or title) and preamble (see ``MarkdownDocumentHead``).
    public static func write(_ document: OutlineDocument, format: InterchangeFormat, head: OPMLHead = OPMLHead(),
                             file: String? = nil, opml: OPMLExportOptions = OPMLExportOptions(),
                             markdown: MarkdownExportOptions = MarkdownExportOptions()) -> ExportedOutline {
        switch format {
        case .opml: OPMLExporter.write(document, head: head, file: file, options: opml)
        case .markdown: MarkdownExporter.write(document, head: head, file: file, options: markdown)
        case .text: PlainTextExporter.write(document, file: file)
        }
    }
}
