import OutlineKit
import OutlineStorage

/// A format `outline convert` writes: a store format (binary, Core Data XML) or an
/// interchange format. Each format is one entry of ``all``; what it takes to read and write
/// it is decided by its ``Kind``, once per kind.
public struct ConversionFormat: Sendable, Hashable, CustomStringConvertible {
    /// How documents of a format are read and written.
    public enum Kind: Sendable, Hashable {
        /// A whole document with its model's objects, kept by ``OutlineStorage/PersistentStore``.
        case store(DocumentFormat)
        /// An outline exchanged with other programs (items only), through ``Interchange``.
        case interchange(InterchangeFormat)
    }

    /// The name `--to` takes.
    public let name: String
    /// The file name extensions that choose this format for an output without `--to`.
    public let extensions: [String]
    /// How the format is read and written.
    public let kind: Kind

    /// The format's name, as `outline convert` accepts it.
    public var description: String { name }

    /// Outline's binary document (`.outline`).
    public static let binary = ConversionFormat(name: "binary", extensions: ["outline"], kind: .store(.binary))
    /// Core Data's XML store (`.xml`).
    public static let xml = ConversionFormat(name: "xml", extensions: ["xml"], kind: .store(.xml))
    /// OPML 2.0 (`.opml`).
    public static let opml = ConversionFormat(name: "opml", extensions: ["opml"], kind: .interchange(.opml))
    /// A Markdown nested list (`.md`).
    public static let markdown = ConversionFormat(name: "markdown", extensions: ["md", "markdown"], kind: .interchange(.markdown))
    /// Tab-indented plain text (`.txt`).
    public static let text = ConversionFormat(name: "text", extensions: ["txt", "text"], kind: .interchange(.text))

    /// Every format, in the order help text lists them.
    public static let all: [ConversionFormat] = [.binary, .xml, .opml, .markdown, .text]

    /// The format called `name` (`binary`, `xml`, ...), if there is one.
    public init?(named name: String) {
        guard let match = Self.all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// The conversion format of a store format.
    public init(_ store: DocumentFormat) {
        switch store {
        case .binary: self = .binary
        case .xml: self = .xml
        }
    }

    /// The conversion format of an interchange format.
    public init(_ interchange: InterchangeFormat) {
        switch interchange {
        case .opml: self = .opml
        case .markdown: self = .markdown
        case .text: self = .text
        }
    }

    private init(name: String, extensions: [String], kind: Kind) {
        self.name = name
        self.extensions = extensions
        self.kind = kind
    }

    /// The output format for `path`: `requested` when given, else the one its extension names
    /// (`.outline` is binary, `.xml` Core Data XML, `.opml`, `.md`, `.txt`).
    ///
    /// - Throws: ``OutlineError`` `unknownOutputFormat` when neither says which format to write.
    public static func forOutput(_ path: String, requested: ConversionFormat?) throws -> ConversionFormat {
        if let requested { return requested }
        if StandardStreams.isStandard(path) {
            throw OutlineError(
                .unknownOutputFormat, file: StandardStreams.outputName,
                "standard output (-) has no file name extension to choose its format by",
                hint: "Pass --to \(all.map(\.name).joined(separator: "|")).")
        }
        let ext = pathExtension(path)
        if let match = all.first(where: { $0.extensions.contains(ext) }) { return match }
        let known = all.flatMap { format in format.extensions.map { ".\($0)" } }.joined(separator: ", ")
        throw OutlineError(
            .unknownOutputFormat, file: path,
            ext.isEmpty
                ? "the output has no file name extension to choose its format by"
                : "the extension .\(ext) names no format this tool writes",
            hint: "Pass --to \(all.map(\.name).joined(separator: "|")), or use one of \(known).")
    }

    /// The lower-cased extension of the last component of `path` ("" when it has none).
    static func pathExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
