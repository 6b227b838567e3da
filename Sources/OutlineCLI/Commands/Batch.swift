import ArgumentParser
import OutlineKit
import OutlineStorage
import OutlineTool

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply many editing commands to a document at once: all of them, or none.",
        discussion: """
            Reads one command per line from standard input (or --script FILE), each written \
            as it would follow `outline` and FILE: add "Milk" --under 1, move '#117' --indent, \
            tag 2 work. Words are split as a shell splits them ('...', "...", \\), and # \
            starts a comment. The commands are add, edit, remove, move, copy, tag, untag, \
            collapse and expand. The document is opened once and saved once; each line is one \
            step of its undo history. When a line fails, nothing is saved: the document stays \
            as it was, the error names the line, and the exit status is 1. What the commands \
            print (new paths, ...) is printed once all have succeeded, one line each.

            Examples:
              outline batch groceries.outline < changes.txt
              outline batch groceries.outline --script changes.txt
              printf 'add Milk --under 1\\ntag 1.1 dairy\\n' | outline batch list.outline
            """)

    /// The commands a script may use, by name.
    static let commands: [String: any EditingCommand.Type] = [
        "add": Add.self, "edit": Edit.self, "remove": Remove.self, "move": Move.self, "copy": Copy.self,
        "tag": Tag.self, "untag": Untag.self, "collapse": Collapse.self, "expand": Expand.self,
    ]

    @OptionGroup var document: DocumentArgument

    @Option(
        help: ArgumentHelp("Read the commands from this file instead of standard input (- for standard input).", valueName: "file"),
        completion: .file())
    var script: String?

    @OptionGroup var history: HistoryOption

    /// A line of the script that failed; the document was left unchanged.
    struct LineFailure: Error, CustomStringConvertible {
        var script: String
        var line: Int
        var text: String
        var message: String

        var description: String {
            // A query's caret diagram stays below the sentence, as find prints it.
            let parts = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let diagram = parts.count > 1 ? "\n" + parts[1] : ""
            return "\(script): line \(line) (\(text)): \(parts.first ?? "") Nothing was changed: the document is as it was.\(diagram)"
        }
    }

    func run() throws {
        let source = script ?? StandardStreams.dash
        let name = StandardStreams.inputDisplayName(source)
        let text = try TextSource.read(source, as: "the script")
        let commands = try BatchScript(parsing: text, name: name).commands
        let parsing = BatchParsing(commands, document: document.file)  // while the document opens
        let file = try document.openForEditing(history)
        file.joinsStepsOnSave = false  // each line is its own undo step
        var outcomes = EditOutcome()
        for (command, parse) in zip(commands, parsing.commands()) {
            let outcome: EditOutcome
            do {
                let parsed = try parse.get()
                if parsed.history.dropsHistory {
                    throw ValidationError("--no-history applies to the whole batch: give it to `outline batch`, not to a line.")
                }
                outcome = try parsed.apply(to: file)
            } catch {
                var message = Self.message(for: error, command)
                if command.commentLooksLikeID {
                    message += " (# starts a comment here; quote an #ID, as in '#103'.)"
                }
                throw LineFailure(script: name, line: command.line, text: command.text, message: message)
            }
            outcomes.output += outcome.output
            outcomes.notes += outcome.notes
        }
        let notice = try file.save()
        for note in outcomes.notes { Console.note(note) }
        try Console.output(lines: outcomes.output)
        if let notice { Console.note(notice) }
        ProcessLifetime.keepUntilExit(file)
    }

    /// The editing command `command` writes, given the document's file as its first argument.
    /// Lines in the plain form are built directly (``BatchQuickParsing``), the rest by
    /// swift-argument-parser (``parseWithArgumentParser(_:document:)``): the result is the same.
    static func parse(_ command: BatchScript.Command, document: String) throws -> any EditingCommand {
        if let built = BatchQuickParsing.command(command.words, document: document) { return built }
        return try parseWithArgumentParser(command, document: document)
    }

    /// The editing command `command` writes, as swift-argument-parser parses it.
    static func parseWithArgumentParser(_ command: BatchScript.Command, document: String) throws -> any EditingCommand {
        let name = command.words[0]
        guard let type = commands[name] else {
            throw ValidationError("\(name) is not a command a batch can run; use \(commands.keys.sorted().joined(separator: ", ")).")
        }
        return try type.parseAsEditingCommand(DashArguments.normalized([document] + command.words.dropFirst(), of: type))
    }

    /// What went wrong on a line, in one sentence or more, without the `Error:` prefix.
    static func message(for error: any Error, _ command: BatchScript.Command) -> String {
        let type = commands[command.words[0]]
        if let type, OutlineCommand.exitCode(for: error) == .success {
            // --help (or --version) on a line: the help is for the command line, not a script.
            let name = type._commandName
            return "--help is not an edit: run `outline \(name) --help` to read how \(name) is written; "
                + "on a batch line leave out FILE, which the batch gives."
        }
        if let type, let unknown = UsageErrors.unknownOption(in: Array(command.words.dropFirst()), of: type) {
            return unknown
        }
        let adapted = CommandLineAdvice.adapted(error)
        switch adapted {
        case let error as OutlineError:
            return error.description
        case let error as StorageError:
            return error.description
        default:
            let parser: any ParsableCommand.Type = type ?? OutlineCommand.self
            let text = parser.message(for: adapted)
            let message = UsageErrors.reworded(text) ?? text
            // A query's caret diagram ends with the caret, not a sentence.
            return message.last.map { ".?!".contains($0) } == true || message.contains("\n") ? message : message + "."
        }
    }
}

extension EditingCommand {
    /// The command with `arguments` after the document (the batch's document is given first).
    static func parseAsEditingCommand(_ arguments: [String]) throws -> any EditingCommand {
        try parse(arguments)
    }
}
