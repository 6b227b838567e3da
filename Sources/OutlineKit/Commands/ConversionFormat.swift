import OutlineStorage

/// A format `outline convert` writes: a store format (binary, Core Data XML) or an
/// interchange format. Each format is one entry of ``all``; what it takes to read and write
/// it is decided by its ``Kind``, once per kind.
public struct ConversionFormat: Sendable, Hashable, CustomStringConvertible {
    /// How documents of a format are read and written.
    public enum Kind: Sendable, Hashable {
        /// A whole document with its model's objects, kept by ``OutlineStorage/PersistentStore``.
        case store(DocumentFormat)
    }

    /// The name `--to` takes.
    public let name: String
    /// The file name extensions that choose this format for an output without `--to`.
    public let extensions: [String]
    public let kind: Kind

    public var description: String { name }

    public static let binary = ConversionFormat(name: "binary", extensions: ["outline"], kind: .store(.binary))
    public static let xml = ConversionFormat(name: "xml", extensions: ["xml"], kind: .store(.xml))

    /// Every format, in the order help text lists them.
    public static let all: [ConversionFormat] = [.binary, .xml]

    /// The format called `name` (`binary`, `xml`, ...), if there is one.
    public init?(named name: String) {
        guard let match = Self.all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    private init(name: String, extensions: [String], kind: Kind) {
        self.name = name
        self.extensions = extensions
        self.kind = kind
    }

    /// The output format for `path`: `requested` when given, else the one its extension names
    /// (`.outline` is binary).
    ///
    /// - Throws: ``OutlineError`` `unknownOutputFormat` when neither says which format to write.
    public static func forOutput(_ path: String, requested: ConversionFormat?) throws -> ConversionFormat {
        if let requested { return requested }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        if let match = all.first(where: { $0.extensions.contains(ext) }) { return match }
        let known = all.flatMap { format in format.extensions.map { ".\($0)" } }.joined(separator: ", ")
        throw OutlineError(.unknownOutputFormat, file: path,
                           ext.isEmpty ? "the output has no file name extension to choose its format by"
                               : "the extension .\(ext) names no format this tool writes",
                           hint: "Pass --to \(all.map(\.name).joined(separator: "|")), or use one of \(known).")
    }
}
