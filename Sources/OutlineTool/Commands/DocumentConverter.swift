import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// `outline convert`: reads a document in whichever format its content is, migrates it to the
/// model's current version on the way when it is older, and writes it in another format.
///
/// Store formats keep every object of the model; interchange formats (OPML, Markdown, text)
/// hold outline items only. An OPML head (or Markdown front matter and preamble) read from an interchange file
/// is kept in the document's metadata (``OutlineStorage/OPMLHead/metadataKey``) and written
/// back by later exports.
public enum DocumentConverter {
    /// What a conversion did.
    public struct Result: Sendable {
        /// The format the input was read as, found from its content.
        public var inputFormat: ConversionFormat
        /// The format written.
        public var outputFormat: ConversionFormat
        /// The migration done on the way, when the input was written with an older version.
        public var migration: MigrationReport?
        /// What was odd in the input or could not be expressed in the output, one line each
        /// (`FILE: where: what. What to do.`).
        public var warnings: [String]
        /// What the user should know about how the input was read (a model derived from the
        /// file), one `FILE: ...` line each.
        public var notes: [String] = []
        /// The bytes written when the output is `-`, for the caller to write to standard output.
        public var standardOutput: [UInt8]?
    }

    /// Converts `input` into `output` in `format`.
    ///
    /// - Parameters:
    ///   - model: the model whose versions read store input (the outline model by default;
    ///     store input of another model is then read with its own model, embedded or derived
    ///     from its data, and written with it embedded); interchange input is read into its
    ///     current version.
    ///   - level: zlib level of binary output, 0...9.
    ///   - inputFormat: the input's format when the user named it; nil finds it from the
    ///     content (and the name's extension).
    ///   - strict: interchange input is read strictly: the first oddity is an error, not a warning.
    ///   - flavor: how OPML output writes done state (each item keeps its own spelling when nil).
    ///   - markdown: how Markdown output is laid out (a nested list, or headings).
    ///   - lockTimeout: when `output` is the input file itself (converting in place), how many
    ///     seconds to wait for another process editing it; its ``OutlineStorage/DocumentLock``
    ///     is then held from reading to writing.
    ///   - replacingInput: when `output` is the input file itself (same device and inode,
    ///     whatever the names), convert it in place; allowed for the store formats only, which
    ///     hold everything. Without it, writing over the input is refused.
    ///   - progress: called as the work moves on: reading, migrating an older input, writing.
    ///
    /// `input` `-` reads standard input; `output` `-` writes nothing and returns the bytes in
    /// ``Result/standardOutput``.
    /// - Throws: ``OutlineStorage/StorageError`` when the input cannot be read or migrated or
    ///   the output cannot be written (the output is then unchanged); ``OutlineError``
    ///   `notAnOutline` when a document of another model is to be written as an outline,
    ///   `fileExists` when the output is the input and converting in place is not allowed.
    public static func convert(
        input: String, from inputFormat: ConversionFormat? = nil, output: String, to format: ConversionFormat,
        level: Int = BinaryStore.defaultCompressionLevel, model: ModelBundle,
        strict: Bool = false, flavor: OPMLFlavor? = nil,
        markdown: MarkdownExportOptions = MarkdownExportOptions(),
        replacingInput: Bool = false,
        lockTimeout: Double = OutlineFile.defaultLockTimeout,
        progress: ((WorkProgress) -> Void)? = nil
    ) throws -> Result {
        let toStandardOutput = StandardStreams.isStandard(output)
        let fromStandardInput = StandardStreams.isStandard(input)
        let inPlace = !toStandardOutput && !fromStandardInput && AtomicFile.namesSameFile(input, output)
        if inPlace { try checkInPlace(input: input, output: output, format: format, allowed: replacingInput) }
        let lock = inPlace ? try DocumentLock.acquire(input, timeout: lockTimeout) : nil
        defer { lock?.release() }
        let store: PersistentStore
        let name = StandardStreams.inputDisplayName(input)
        progress?(.reading(name))
        var result: Result
        // One open: detection, then the whole input, read from the same descriptor (a pipe works).
        let file = try StandardStreams.openDocument(input)
        switch try ConversionInput.detect(file: file, declared: inputFormat) {
        case .store:
            store = try PersistentStore.open(
                file, model: model, allowingOwnModel: OwnModels.areAllowed(with: model),
                progress: progress.map { report in { report(.migrating($0)) } })
            result = Result(inputFormat: ConversionFormat(store.format), outputFormat: format, migration: store.migration, warnings: [])
            if let note = OwnModels.derivationNote(store, file: name) { result.notes.append(note) }
        case .interchange(let interchange):
            let data = Data(try file.readAll())
            let input = name
            let imported: ImportedOutline
            do {
                // Read as deep as any reader allows: every depth the store formats hold up to
                // that comes back from the OPML this tool writes.
                let options = ImportOptions(strict: strict, schema: try model.current, maxDepth: OPMLReader.Options.depthCeiling)
                imported = try Interchange.read(data, format: interchange, file: input, options: options)
            } catch {
                throw OutlineFile.attribute(error, to: input)
            }
            store = PersistentStore(context: imported.document.context)
            if imported.head != OPMLHead() {
                store[metadata: OPMLHead.metadataKey] = imported.head.propertyListValue
            }
            result = Result(
                inputFormat: ConversionFormat(interchange), outputFormat: format, migration: nil,
                warnings: imported.warnings.map(\.description))
        }

        let input = name
        progress?(.writing(toStandardOutput ? StandardStreams.outputName : output))
        switch format.kind {
        case .store(let storeFormat):
            store.options.compressionLevel = min(max(level, 0), 9)
            if toStandardOutput {
                try checkedForSave(store, file: input)
                result.standardOutput = try store.encoded(as: storeFormat)
            } else {
                try store.save(to: output, format: storeFormat)
            }
        case .interchange(let interchange):
            let document: OutlineDocument
            do {
                document = try OutlineDocument(context: store.context)
            } catch {
                throw OutlineFile.attribute(error, to: input)
            }
            try checkIndentation(of: document, as: interchange, output: output)
            var head = OPMLHead()
            if let stored = store[metadata: OPMLHead.metadataKey] {
                do {
                    head = try OPMLHead(propertyListValue: stored)
                } catch let error as StorageError {
                    var warning = error
                    warning.file = input
                    result.warnings.append(warning.description)
                }
            }
            let shownOutput = toStandardOutput ? StandardStreams.outputName : output
            let exported: ExportedOutline
            do {
                exported = try Interchange.write(
                    document, format: interchange, head: head, file: shownOutput,
                    opml: OPMLExportOptions(flavor: flavor), markdown: markdown)
            } catch {
                throw OutlineFile.attribute(error, to: input)
            }
            if toStandardOutput {
                result.standardOutput = [UInt8](exported.data)
            } else {
                try AtomicFile.write([UInt8](exported.data), to: output)
            }
            result.warnings += exported.warnings.map(\.description)
        }
        return result
    }

    /// Refuses to write over the input (`output` names the same file) unless `allowed` and the
    /// output format holds everything the input does (binary or XML).
    private static func checkInPlace(input: String, output: String, format: ConversionFormat, allowed: Bool) throws {
        let same = output == input ? "the output is the input file" : "the output \(output) is the input file itself (the same file on disk)"
        guard case .store = format.kind else {
            throw OutlineError(
                .fileExists, file: input, "\(same); writing \(format.name) over it would replace the document with a format that holds less",
                hint: "Write to another file; the input is left as it is.")
        }
        guard allowed else {
            throw OutlineError(
                .fileExists, file: input, "\(same); converting would replace the document being read",
                hint:
                    "Write to another file, or pass --force to convert it in place (\(format.name) holds everything; the input is replaced atomically)."
            )
        }
    }

    /// Validates `store` as a save would, for output that is not saved to a file.
    private static func checkedForSave(_ store: PersistentStore, file: String) throws {
        do {
            try store.context.validateForSave()
        } catch let error as EngineError {
            throw StorageError(
                .validationFailed, file: file, at: error.location, error.message,
                hint: "Correct the values and convert again; nothing was written.", underlying: error)
        }
    }

    /// The most bytes of indentation a Markdown or text output may need (256 MiB).
    public static let maximumIndentation = 1 << 28

    /// Refuses to write a Markdown or text file whose indentation alone would be over
    /// ``maximumIndentation`` bytes: those formats nest by indenting every line, so a chain
    /// `d` levels deep needs about d²/2 indents (a million levels, half a terabyte of them).
    ///
    /// - Complexity: O(items).
    private static func checkIndentation(of document: OutlineDocument, as format: InterchangeFormat, output: String) throws {
        let unit =
            switch format {
            case .opml: 0
            case .markdown: 2
            case .text: 1
            }
        guard unit > 0 else { return }
        var total = 0
        var deepest = 0
        document.walk { _, depth in
            total += (depth - 1) * unit
            deepest = max(deepest, depth)
            return true
        }
        guard total > maximumIndentation else { return }
        let name = format == .markdown ? "Markdown" : "plain text"
        throw StorageError(
            .limitExceeded, file: output,
            "the outline is nested \(DocumentInfo.grouped(deepest)) levels deep; as \(name) its indentation alone would take "
                + "\(DocumentInfo.grouped(total)) bytes, over the limit of \(DocumentInfo.grouped(maximumIndentation))",
            hint: "\(name.prefix(1).uppercased() + name.dropFirst()) nests items by indenting them; convert to OPML, "
                + "Core Data XML or binary instead, which hold any depth.")
    }
}
