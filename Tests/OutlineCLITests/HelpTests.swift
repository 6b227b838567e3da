import Foundation
import Testing

/// Help with examples on every command, the version, and completion scripts.
@Suite struct HelpTests {
    static let commands: [[String]] = [
        [], ["create"], ["show"], ["add"], ["edit"], ["remove"], ["move"], ["copy"], ["tag"], ["untag"], ["tags"],
        ["collapse"], ["expand"], ["batch"], ["find"], ["undo"], ["redo"], ["history"], ["info"], ["validate"],
        ["dump"], ["convert"], ["migrate"], ["schema"], ["schema", "show"], ["schema", "diff"],
    ]

    @Test(arguments: commands)
    func everyCommandHasHelpWithExamples(command: [String]) throws {
        let box = try CLISandbox()
        let result = try box.run(command + ["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nExamples:\n  outline \(command.joined(separator: " "))"), "\(result.stdout)")
        // Each example stays on its line at 80 columns (the test's COLUMNS): none wraps inside its quotes.
        let examples = result.stdout.components(separatedBy: "\nExamples:\n").last?.components(separatedBy: "\n\nUSAGE").first ?? ""
        for line in examples.split(separator: "\n") {
            #expect(line.hasPrefix("  ") && line.count <= 80, "\(command): \(line)")
            #expect(line.filter { $0 == "\"" }.count % 2 == 0 && line.filter { $0 == "'" }.count % 2 == 0, "\(command): \(line)")
        }
        #expect(result.stdout.contains("USAGE: outline \(command.joined(separator: " "))"))
    }

    @Test func everyOptionIsExplained() throws {
        let box = try CLISandbox()
        for command in Self.commands where !command.isEmpty {
            let help = try box.run(command + ["--help"]).stdout
            let options = help.components(separatedBy: "OPTIONS:").last ?? ""
            for line in options.split(separator: "\n") where line.hasPrefix("  -") {
                // An option without help text has nothing after its name.
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                #expect(columns.count > 1 || line.contains("<"), "\(command): \(line)")
            }
        }
    }

    @Test func addHelpReadsAsPinned() throws {
        let box = try CLISandbox()
        let result = try box.run("add", "--help")
        #expect(
            result.stdout == """
                OVERVIEW: Add an item and print its path.

                The item goes at the end of the parent's children, or at 1-based position --at.
                Prints the new item's path, or with --id its #ID (which stays the same when
                other items move). A text or note longer than a command line can come from a
                file, or from standard input (-).

                Examples:
                  outline add groceries.outline "Dairy"
                  outline add groceries.outline "Milk" --under 1
                  outline add groceries.outline "Eggs" --under 1 --at 1 --note "A dozen."
                  outline add groceries.outline "Bread" --done --id
                  outline add notes.outline --text-file - < title.txt

                USAGE: outline add <file> [<text>] [--text-file <file>] [--under <path>] [--at <n>] [--note <note>] [--note-file <file>] [--done] [--id] [--no-history]

                ARGUMENTS:
                  <file>                  The outline document (.outline, binary or XML).
                  <text>                  The item's text (or --text-file).

                OPTIONS:
                  --text-file <file>      Read the item's text from this file (- for standard
                                          input).
                  --under <path>          The parent item: a path such as 2.1.3, / for the
                                          root, or #ID (default: the root).
                  --at <n>                The 1-based position among the parent's children
                                          (default: the end).
                  --note <note>           A note shown beneath the item.
                  --note-file <file>      Read the note from this file (- for standard input).
                  --done                  Mark the item done.
                  --id                    Print the new item's #ID instead of its path.
                  --no-history            Save without the document's undo history: the history
                                          is dropped and this change cannot be undone.
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
    }

    /// No command's own option hides the tool's --version (schema show's model version is --model-version).
    @Test(arguments: commands.filter { !$0.isEmpty })
    func versionIsTheToolsOnEveryCommand(command: [String]) throws {
        let box = try CLISandbox()
        let result = try box.run(command + ["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "0.1.0\n")
        let help = try box.run(command + ["--help"]).stdout
        #expect(help.components(separatedBy: "  --version ").count == 2, "\(command): --version is listed once")
    }

    @Test func versionPrintsTheVersion() throws {
        let box = try CLISandbox()
        let result = try box.run("--version")
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsComeFromTheParser(shell: String) throws {
        let box = try CLISandbox()
        let result = try box.run("--generate-completion-script", shell)
        #expect(result.status == 0, "\(result)")
        for command in ["create", "show", "migrate", "schema", "batch", "tag", "collapse", "copy"] {
            #expect(result.stdout.contains(command))
        }
        #expect(result.stdout.contains("json"))
    }

    /// The bash script really completes: sourced into bash, it offers commands and a command's options.
    @Test func bashCompletionCompletesCommandsAndOptions() throws {
        let box = try CLISandbox()
        let script = try box.run("--generate-completion-script", "bash").stdout
        try Data(script.utf8).write(to: URL(fileURLWithPath: box.path("outline.bash")))
        let binary = try CLI.binary()
        let probe = """
            PATH=\(binary.deletingLastPathComponent().path):$PATH
            source ./outline.bash
            fn=$(complete -p outline | sed -E 's/.*-F ([^ ]+) .*/\\1/')
            COMP_WORDS=(outline unt); COMP_CWORD=1; COMP_LINE="outline unt"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=(); $fn outline unt outline; echo "commands: ${COMPREPLY[*]}"
            COMP_WORDS=(outline collapse g.outline --a); COMP_CWORD=3; COMP_LINE="outline collapse g.outline --a"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=(); $fn outline --a g.outline; echo "options: ${COMPREPLY[*]}"
            """
        let result = try box.run(executable: "/bin/bash", ["-c", probe])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "commands: untag\noptions: --all\n", "\(result)")
    }

    /// What swift-argument-parser's manual generator reads (`--experimental-dump-help`) covers every command.
    @Test func theManualGeneratorSeesEveryCommand() throws {
        let box = try CLISandbox()
        let result = try box.run("--experimental-dump-help")
        #expect(result.status == 0)
        let json = try result.jsonObject()
        let command = try #require(json["command"] as? [String: Any])
        let names = try #require(command["subcommands"] as? [[String: Any]]).compactMap { $0["commandName"] as? String }
        let expected = Self.commands.compactMap { $0.count == 1 ? $0[0] : nil }
        #expect(Set(expected).isSubset(of: Set(names)), "\(names)")
    }
}
