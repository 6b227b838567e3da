import ArgumentParser
import OutlineKit
import OutlineStorage
import OutlineTool

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a document in another format.",
        discussion: """
            The input's format is found from its content (binary, Core Data XML or OPML; other \
            text is Markdown when its first line is a heading or a list item, else plain text, \
            unless its extension is .md or .txt), or named with --from. The output's format is --to, else OUTPUT's \
            extension: .outline is binary (unless --to xml), .xml Core Data XML, .opml OPML, \
            .md Markdown, .txt plain text. Documents written with an older schema version are \
            migrated on the way; the input is never changed: an OUTPUT that is the input file \
            itself (by device and inode, whatever its name) is refused, unless the output is \
            binary or XML, which hold everything, and --force is given. INPUT - reads standard \
            input, OUTPUT - writes standard output (with --to). What a format cannot hold (notes \
            in plain text, ...) is reported as a warning. A Core Data XML store of another \
            app without its model converts between binary and XML with a model derived from \
            the file, which the output embeds (it reopens without --model and keeps the \
            version hashes the app recorded).

            Markdown input: headings become items at their level, lists under a heading its \
            children, paragraphs, code blocks, tables and the like the notes of the heading or \
            item above them. Markdown output is a nested list (--markdown-style list), or the \
            top --heading-levels levels as headings and the rest as lists under them \
            (--markdown-style headings); both read back as the same outline.

            Examples:
              outline convert groceries.outline groceries.xml
              outline convert groceries.xml groceries.outline --level 9
              outline convert groceries.outline copy.outline --to xml
              outline convert groceries.outline groceries.opml
              outline convert notes.md notes.outline
              outline convert notes.outline notes.md --markdown-style headings
              outline convert export.opml notes.outline --strict
              outline convert notes.outline notes.opml --flavor workflowy
              outline convert library.xml library.outline --model Library.xcdatamodeld
              outline convert notes.md - --to opml
              outline convert todo.list todo.outline --from text
              outline convert notes.outline notes.outline --to xml --force
            """)

    @Argument(help: "The document to read (- for standard input).", completion: .file())
    var input: String

    @Argument(help: "The file to write (replaced if it exists; - for standard output).", completion: .file())
    var output: String

    @Option(
        help: ArgumentHelp(
            "The output format: \(ConversionFormat.all.map(\.name).joined(separator: ", ")) (default: from OUTPUT's extension).",
            valueName: "format"),
        completion: .list(ConversionFormat.all.map(\.name)))
    var to: String?

    @OptionGroup var inputFormat: InputFormatOption

    @Option(
        help: "The zlib compression level of binary output, 0 (none, fastest) to 9 (smallest; default: \(BinaryStore.defaultCompressionLevel)).")
    var level: Int?

    @Flag(help: "Read OPML, Markdown or text input strictly: the first oddity is an error instead of a warning.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "How OPML output writes done state: \(OPMLFlavor.allCases.map(\.rawValue).joined(separator: ", ")) (default: as each item was read, else omni).",
            valueName: "flavor"),
        completion: .list(OPMLFlavor.allCases.map(\.rawValue)))
    var flavor: String?

    @Option(
        help: ArgumentHelp(
            "How Markdown output lays out the outline: list (one nested list) or headings (the top levels as headings, the rest as lists).",
            valueName: "style"),
        completion: .list(MarkdownStyle.allCases.map(\.rawValue)))
    var markdownStyle: String = MarkdownStyle.list.rawValue

    @Option(help: ArgumentHelp("With --markdown-style headings, how many levels are headings, 1 to 6 (default: 2).", valueName: "n"))
    var headingLevels: Int?

    @Flag(help: "When OUTPUT is the input file itself, convert it in place (binary or XML output only).")
    var force = false

    @OptionGroup var model: ModelOption

    func validate() throws {
        if let level, !(0 ... 9).contains(level) {
            throw ValidationError("--level must be between 0 and 9 (got \(level)).")
        }
        let format = try outputFormat()
        if let flavor, OPMLFlavor(rawValue: flavor) == nil {
            throw ValidationError("--flavor \(flavor) is not a flavor; use one of \(OPMLFlavor.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        // Options that change nothing for this output are refused, not ignored.
        if level != nil, format != .binary {
            throw ValidationError("--level applies only to binary output.")
        }
        if flavor != nil, format != .opml {
            throw ValidationError("--flavor applies only to OPML output.")
        }
        _ = try markdownOptions()
    }

    /// How to write Markdown, from --markdown-style and --heading-levels.
    private func markdownOptions() throws -> MarkdownExportOptions {
        guard let style = MarkdownStyle(rawValue: markdownStyle) else {
            throw ValidationError(
                "--markdown-style \(markdownStyle) is not a style; use one of \(MarkdownStyle.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        var options = MarkdownExportOptions(style: style)
        if let headingLevels {
            guard MarkdownExportOptions.headingLevelRange.contains(headingLevels) else {
                throw ValidationError("--heading-levels must be between 1 and 6 (got \(headingLevels)).")
            }
            guard style == .headings else {
                throw ValidationError("--heading-levels applies only with --markdown-style headings.")
            }
            options.headingLevels = headingLevels
        }
        if style != .list || headingLevels != nil, try outputFormat() != .markdown {
            throw ValidationError("--markdown-style and --heading-levels apply only to Markdown output.")
        }
        return options
    }

    /// The format to write, from --to or OUTPUT's extension.
    private func outputFormat() throws -> ConversionFormat {
        var requested: ConversionFormat?
        if let to {
            guard let format = ConversionFormat(named: to) else {
                throw ValidationError("--to \(to) is not a format; use one of \(ConversionFormat.all.map(\.name).joined(separator: ", ")).")
            }
            requested = format
        }
        do {
            return try ConversionFormat.forOutput(output, requested: requested)
        } catch let error as OutlineError {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let progress = ProgressBar()
        defer { progress.finish() }
        let format = try outputFormat()
        if StandardStreams.isStandard(output), case .store(.binary) = format.kind, Console.standardOutputIsTerminal {
            throw ValidationError("Binary output would go to the terminal; redirect standard output to a file or a pipe, or choose --to xml.")
        }
        let result = try DocumentConverter.convert(
            input: input, from: try inputFormat.format(), output: output, to: format,
            level: level ?? BinaryStore.defaultCompressionLevel,
            model: try model.bundle(), strict: strict,
            flavor: flavor.flatMap(OPMLFlavor.init(rawValue:)), markdown: try markdownOptions(),
            replacingInput: force, lockTimeout: LockWait.seconds,
            progress: progress.handler)
        progress.finish()
        if let bytes = result.standardOutput {
            try bytes.withUnsafeBytes { try Console.output(bytes: $0) }
        }
        let input = StandardStreams.inputDisplayName(input)
        for note in result.notes { Console.note(note) }
        if let migration = result.migration {
            Console.note(
                "\(input): migrated from \(migration.path.first ?? "an older version") to \(migration.path.last ?? "the current version") on the way; \(input) is unchanged."
            )
        }
        for warning in result.warnings { Console.warning(warning) }
    }
}
