import Foundation
import Testing

/// Help with examples on every command, the version, and completion scripts.
@Suite struct HelpTests {
    static let commands: [[String]] = [
        [], ["create"], ["show"], ["add"], ["edit"], ["remove"], ["move"], ["find"], ["info"], ["validate"],
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
        #expect(result.stdout == """
            OVERVIEW: Add an item and print its path.

            The item goes at the end of the parent's children, or at 1-based position --at.

            Examples:
              outline add groceries.outline "Dairy"
              outline add groceries.outline "Milk" --under 1
              outline add groceries.outline "Eggs" --under 1 --at 1 --note "A dozen."
              outline add groceries.outline "Bread" --done

            USAGE: outline add <file> <text> [--under <path>] [--at <n>] [--note <note>] [--done]

            ARGUMENTS:
              <file>                  The outline document (.outline, binary or XML).
              <text>                  The item's text.

            OPTIONS:
              --under <path>          The parent item: a path such as 2.1.3, / for the
                                      root, or #ID (default: the root).
              --at <n>                The 1-based position among the parent's children
                                      (default: the end).
              --note <note>           A note shown beneath the item.
              --done                  Mark the item done.
              --version               Show the version.
              -h, --help              Show help information.


            """)
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
        for command in ["create", "show", "migrate", "schema"] {
            #expect(result.stdout.contains(command))
        }
        #expect(result.stdout.contains("json"))
    }
}
