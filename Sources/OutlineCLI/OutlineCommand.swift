import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `outline` tool: one subcommand per file in `Commands/`; the work is done by OutlineKit.
@main
struct OutlineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outline",
        abstract: "Create, edit, inspect, convert and migrate outline documents.",
        discussion: """
            FILE is a .outline document, binary or XML. Items are addressed by PATH: 1-based \
            positions from the top (2.1.3 is the third child of the first child of the second \
            top-level item), / for the root, or #ID for an item's stable id (see show --ids). \
            Paths are exact: no spaces, signs or leading zeros. A text that begins with a dash \
            followed by a space or a digit ("- wash dishes", "-5 °C") is a text; put -- before \
            any other word that begins with a dash and is not an option.

            Documents written with an older schema version are migrated when edited; the old \
            file is kept as FILE.bak (FILE.1.bak, ... when that name is taken: a backup is \
            never replaced). Commands that change a document wait for another command \
            changing the same document to finish (up to 30 seconds, or OUTLINE_LOCK_TIMEOUT \
            seconds); commands that only read never wait. - stands for standard input or \
            output where a file is read or written. Ctrl-C leaves every file as it was (once \
            the new version is in place, the command finishes instead). Exit status: 0 \
            success, 1 the work failed, 64 bad usage, 128 + N ended by signal N.

            Examples:
              outline create groceries.outline
              outline add groceries.outline "Dairy"
              outline add groceries.outline "Milk" --under 1 --note "Oat, not soy."
              outline show groceries.outline
              outline find groceries.outline 'text CONTAINS[c] "milk" AND done == NO'
              outline convert groceries.outline groceries.xml
              outline batch groceries.outline < changes.txt
            """,
        version: "0.1.0",
        subcommands: [
            Create.self, Show.self, Add.self, Edit.self, Remove.self, Move.self, Copy.self,
            Tag.self, Untag.self, Tags.self, Collapse.self, Expand.self, Batch.self, Find.self,
            Undo.self, Redo.self, History.self,
            Info.self, Validate.self, Dump.self, Convert.self, Migrate.self, SchemaCommand.self,
        ])

    static func main() {
        // Before any other thread exists, so that all of them leave these signals to one thread.
        SignalHandling.install()
        // A closed pipe (`outline show big.outline | head`) must end writes, not the process.
        signal(SIGPIPE, SIG_IGN)
        // Likewise a file size limit (`ulimit -f`): a write past it fails with EFBIG, and the
        // save reports it and leaves the document as it was, instead of the process dying.
        signal(SIGXFSZ, SIG_IGN)
        // An argument that is not UTF-8 would be read with U+FFFD in place of its bad bytes:
        // two file names would become one. Refuse it before anything is opened.
        if let problem = ArgumentEncoding.problem(CommandLine.argc, CommandLine.unsafeArgv) {
            Console.diagnostic("Error: \(problem)")
            ArgumentEncoding.exitForBadUsage()
        }
        let arguments = DashArguments.normalizedCommandLine(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            finish(with: error, arguments: arguments)
        }
        Foundation.exit(0)
    }

    /// Reports `error` (with the tool's advice and wording) and exits with its status: help
    /// and version requests print to standard output and exit 0.
    static func finish(with error: any Error, arguments: [String]) -> Never {
        let error = UsageErrors.rewritten(CommandLineAdvice.adapted(error, arguments: arguments), arguments: arguments)
        if let problem = error as? UsageErrors.Problem {
            Console.diagnostic(problem.fullText)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        let code = exitCode(for: error)
        let text = fullMessage(for: error)
        if code == .success {
            try? Console.output(text.isEmpty ? "" : text + "\n")
        } else if !text.isEmpty {
            Console.diagnostic(text)
        }
        Foundation.exit(code.rawValue)
    }
}
