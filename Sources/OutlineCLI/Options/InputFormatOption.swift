import ArgumentParser
import OutlineTool

/// `--from FORMAT`: the format of the input, for input whose name and content do not tell it
/// (standard input, a file without a telling extension, plain text whose first line reads as
/// Markdown).
struct InputFormatOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The input's format: \(ConversionFormat.all.map(\.name).joined(separator: ", ")) (default: from its content and extension).",
            valueName: "format"),
        completion: .list(ConversionFormat.all.map(\.name)))
    var from: String?

    func validate() throws {
        _ = try format()
    }

    /// The format named by `--from`, or nil without it.
    func format() throws -> ConversionFormat? {
        guard let from else { return nil }
        guard let format = ConversionFormat(named: from) else {
            throw ValidationError("--from \(from) is not a format; use one of \(ConversionFormat.all.map(\.name).joined(separator: ", ")).")
        }
        return format
    }
}
