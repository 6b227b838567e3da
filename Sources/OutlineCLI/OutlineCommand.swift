import ArgumentParser
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
            top-level item), / for the root, or #ID for an item's stable id (see show --ids).

            Documents written with an older schema version are migrated when edited; the old \
            file is kept as FILE.bak. Commands that change a document wait for another \
            command changing the same document to finish (up to 30 seconds, or \
            OUTLINE_LOCK_TIMEOUT seconds); commands that only read never wait. Exit status: \
            0 success, 1 the work failed, 64 bad usage.

            Examples:
              outline create groceries.outline
              outline add groceries.outline "Dairy"
              outline add groceries.outline "Milk" --under 1 --note "Oat, not soy."
              outline show groceries.outline
              outline find groceries.outline 'text CONTAINS[c] "milk" AND done == NO'
              outline convert groceries.outline groceries.xml
            """,
        version: "0.1.0",
        subcommands: [
            Create.self, Show.self, Add.self, Edit.self, Remove.self, Move.self, Find.self,
            Info.self, Validate.self, Dump.self, Convert.self, Migrate.self, SchemaCommand.self,
        ])

    static func main() {
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
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: CommandLineAdvice.adapted(error))
        }
    }
}
