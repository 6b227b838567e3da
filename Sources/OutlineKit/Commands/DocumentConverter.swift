import Foundation
import OutlineEngine
import OutlineStorage

/// `outline convert`: reads a document in whichever format its content is, migrates it to the
/// model's current version on the way when it is older, and writes it in another format.
public enum DocumentConverter {
    /// What a conversion did.
    public struct Result: Sendable {
        /// The format the input was read as (`binary`, `xml`, ...).
        public var inputFormat: String
        public var outputFormat: ConversionFormat
        /// The migration done on the way, when the input was written with an older version.
        public var migration: MigrationReport?
        /// What the output format could not express, one line each.
        public var warnings: [String]
    }

    /// Converts `input` into `output` in `format`.
    ///
    /// - Parameters:
    ///   - model: the model whose versions read the input (the outline model by default).
    ///   - level: zlib level of binary output, 0...9.
    ///   - progress: called while an older input is migrated.
    /// - Throws: ``OutlineStorage/StorageError`` when the input cannot be read or migrated or
    ///   the output cannot be written (the output is then unchanged).
    public static func convert(input: String, output: String, to format: ConversionFormat,
                               level: Int = BinaryStore.defaultCompressionLevel, model: ModelBundle,
                               progress: ((MigrationProgress) -> Void)? = nil) throws -> Result {
        let store = try PersistentStore.open(input, model: model, progress: progress)
        var result = Result(inputFormat: store.format.rawValue, outputFormat: format, migration: store.migration, warnings: [])
        switch format.kind {
        case .store(let storeFormat):
            store.options.compressionLevel = min(max(level, 0), 9)
            try store.save(to: output, format: storeFormat)
        }
        result.warnings = []
        return result
    }
}
