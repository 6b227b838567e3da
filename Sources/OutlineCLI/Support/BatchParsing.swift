import Dispatch
import OutlineTool

/// The lines of an `outline batch` script parsed into editing commands on another thread
/// while the document opens: no line's parse depends on the document. Plain lines take a few
/// microseconds each (``BatchQuickParsing``), but a line left to swift-argument-parser, which
/// reflects over the command's type, costs about 0.2 ms, more than applying it.
/// The results are used in order, so that the first failing line is still the one reported.
// @unchecked Sendable: `results` is written only by the parsing work, before it signals
// `done`, and read only after `done` was waited for.
final class BatchParsing: @unchecked Sendable {
    private var results: [Result<any EditingCommand, any Error>] = []
    private let done = DispatchSemaphore(value: 0)

    /// Starts parsing `commands`, each with `document` as its first argument.
    init(_ commands: [BatchScript.Command], document: String) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            results = commands.map { command in Result { try Batch.parse(command, document: document) } }
            done.signal()
        }
    }

    /// The command of each line, or the error parsing it threw, in order; waits until all are parsed.
    func commands() -> [Result<any EditingCommand, any Error>] {
        done.wait()
        done.signal()  // a second call does not wait forever
        return results
    }
}
