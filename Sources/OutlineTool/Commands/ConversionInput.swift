import Foundation
import OutlineKit
import OutlineStorage

/// How `outline convert` reads its input, decided from the content by
/// ``OutlineStorage/FileContent`` (the detection every command uses): binary documents and XML
/// whose root is `<database>` are stores, XML whose root is `<opml>` is OPML; other text is
/// Markdown or plain text (by extension, else by whether its first line is a heading or a list
/// item), whatever it starts with. `--from` names the format instead.
enum ConversionInput: Equatable {
    case store
    case interchange(InterchangeFormat)

    /// The way to read `file`: as `declared` when the user named its format (`--from`), else
    /// from its first bytes (read from its one descriptor, so that the rest can be read from it
    /// too).
    static func detect(file: DocumentFile, declared: ConversionFormat? = nil) throws -> ConversionInput {
        let prefix = try file.prefix(FileContent.prefixSize)
        if prefix.isEmpty && file.path == StandardStreams.inputName {
            // Most likely the command before it in a pipe failed: nothing to read is an error,
            // not an empty outline that would replace an output.
            throw StorageError(
                .unknownFormat, file: file.path, "nothing was read: standard input is empty",
                hint: "Pipe a document into the command, or give its file name instead of -.")
        }
        if let declared {
            switch declared.kind {
            case .store: return .store  // the store reader tells binary from XML itself
            case .interchange(let format): return .interchange(format)
            }
        }
        return detect(prefix: Array(prefix), pathExtension: ConversionFormat.pathExtension(file.path))
    }

    /// Whether at most half of `prefix` is control characters other than tabs and line breaks.
    private static func isMostlyText(_ prefix: [UInt8]) -> Bool {
        prefix.lazy.filter { $0 < 0x20 && !(0x09 ... 0x0D).contains($0) }.count * 2 <= prefix.count
    }

    /// The way to read a file starting with `prefix` and named with `pathExtension`. Files the
    /// extension claims (`.outline`, `.xml`, `.opml`) go to that reader when their content is
    /// not what it reads, so that its message says what is wrong.
    static func detect(prefix: [UInt8], pathExtension ext: String) -> ConversionInput {
        switch FileContent.detect(prefix) {
        case .empty:
            // An empty Markdown or text file is an empty outline; an empty document is damage.
            if let format = InterchangeFormat(pathExtension: ext), format != .opml { return .interchange(format) }
            return .store
        case .unknown:
            // A file named as Markdown or text that is mostly text, but holds a NUL byte or bytes
            // that are not UTF-8: its reader says where, and reads the rest.
            if let format = InterchangeFormat(pathExtension: ext), format != .opml, isMostlyText(prefix) { return .interchange(format) }
            return .store
        case .binary, .xmlStore:
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
