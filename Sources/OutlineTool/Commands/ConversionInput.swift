import Foundation
import OutlineKit
import OutlineStorage

/// How `outline convert` reads its input, decided from the content by
/// ``OutlineStorage/FileContent`` (the detection every command uses): binary documents and XML
/// whose root is `<database>` are stores, XML whose root is `<opml>` is OPML; other text is
/// Markdown or plain text (by extension, else by whether it has headings or list items),
/// whatever it starts with.
enum ConversionInput: Equatable {
    case store
    case interchange(InterchangeFormat)

    /// The way to read `file`, from its first bytes (read from its one descriptor, so that the
    /// rest can be read from it too).
    static func detect(file: DocumentFile) throws -> ConversionInput {
        let prefix = try file.prefix(FileContent.prefixSize)
        return detect(prefix: Array(prefix), pathExtension: ConversionFormat.pathExtension(file.path))
    }

    /// The way to read a file starting with `prefix` and named with `pathExtension`. Files the
    /// extension claims (`.outline`, `.xml`, `.opml`) go to that reader when their content is
    /// not what it reads, so that its message says what is wrong.
    static func detect(prefix: [UInt8], pathExtension ext: String) -> ConversionInput {
        switch FileContent.detect(prefix) {
        case .empty, .binary, .xmlStore, .unknown:
            return .store
        case .opml:
            return .interchange(.opml)
        case .otherXML:
            return ext == "opml" ? .interchange(.opml) : .store
        case .text(let encoding):
            if ext == "outline" || ext == "xml" { return .store }
            if ext == "opml" { return .interchange(.opml) }
            if let format = InterchangeFormat(pathExtension: ext) { return .interchange(format) }
            return MarkdownImporter.looksLikeMarkdown(prefix, encoding: encoding) ? .interchange(.markdown) : .interchange(.text)
        }
    }
}
