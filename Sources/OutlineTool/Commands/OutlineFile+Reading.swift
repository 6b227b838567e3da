import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

extension OutlineFile {
    /// An outline opened to look at: from a document of either store format, or (read-only)
    /// from an OPML, Markdown or plain text file, or from standard input (`-`).
    public struct Reading {
        /// The outline. Its path is how messages name it (`standard input` for `-`).
        public var file: OutlineFile
        /// The format it was read in: `binary`, `xml`, `opml`, `markdown` or `text`.
        public var format: String
        /// What was odd in an interchange file, one `FILE: where: what.` line each.
        public var warnings: [String]
    }

    /// Opens what `path` names to read it: a store document as ``open(_:progress:)`` does
    /// (migrating an older one in memory), an interchange file by importing it in memory with
    /// the current schema, `-` from standard input. The format is found from the content, as
    /// `outline convert` finds it, unless `format` names it. Nothing is ever written.
    ///
    /// - Throws: as ``open(_:progress:)``, and the errors of the interchange readers.
    public static func openForReading(
        _ path: String, format: ConversionFormat? = nil, progress: ((MigrationProgress) -> Void)? = nil
    ) throws -> Reading {
        let file = try StandardStreams.openDocument(path)
        let name = file.path
        switch try ConversionInput.detect(file: file, declared: format) {
        case .store:
            let store = try PersistentStore.open(file, model: try OutlineSchemas.bundle, allowingOwnModel: true, progress: progress)
            return Reading(file: try OutlineFile(path: name, store: store), format: store.format.rawValue, warnings: [])
        case .interchange(let format):
            return try imported(Data(try file.readAll()), format: format, name: name)
        }
    }

    /// The outline of an interchange file, imported in memory.
    private static func imported(_ data: Data, format: InterchangeFormat, name: String) throws -> Reading {
        let outline: ImportedOutline
        do {
            let options = ImportOptions(schema: try OutlineSchemas.current, maxDepth: OPMLReader.Options.depthCeiling)
            outline = try Interchange.read(data, format: format, file: name, options: options)
        } catch {
            throw attribute(error, to: name)
        }
        let store = PersistentStore(context: outline.document.context)
        return Reading(
            file: try OutlineFile(path: name, store: store), format: format.rawValue,
            warnings: outline.warnings.map(\.description))
    }
}
