import ArgumentParser
import Foundation
import OutlineTool

/// Usage errors as the tool reports them, on top of the argument parser's:
///
/// - An unknown option wins over every other complaint about the same command line (the parser
///   checks the values it understood first, so `outline edit f 1 --txt x` used to say "Nothing
///   to change"), and comes with the nearest option the command has (`--text`).
/// - Wording that confuses is rewritten: two flags of one choice given together (`--done
///   --not-done`) "cannot be combined" instead of "had already been set".
enum UsageErrors {
    /// A usage error the tool words itself; exit status 64.
    struct Problem: Error, CustomStringConvertible {
        var message: String
        var command: ParsableCommand.Type
        var commandPath: String

        var description: String { message }

        /// `Error: message`, the usage line and where to read more, as the parser prints its own.
        var fullText: String {
            let usage = OutlineCommand.usageString(for: command)
            return "Error: \(message)\nUsage: \(usage)\n  See '\(commandPath) --help' for more information."
        }
    }

    /// The error to report for `error`, thrown while parsing or running `arguments` (the tool's
    /// arguments, without its name): `error` itself, or a ``Problem`` when the command line has
    /// an unknown option or the parser's message is reworded.
    static func rewritten(_ error: any Error, arguments: [String]) -> any Error {
        guard OutlineCommand.exitCode(for: error) == .validationFailure, !(error is Problem) else { return error }
        let (command, path, rest) = subcommand(of: arguments)
        if let unknown = unknownOption(in: rest, of: command) {
            return Problem(message: unknown, command: command, commandPath: path)
        }
        let message = OutlineCommand.message(for: error)
        if let reworded = reworded(message) {
            return Problem(message: reworded, command: command, commandPath: path)
        }
        return error
    }

    /// The subcommand `arguments` name, its path (`outline schema show`) and the arguments after its name.
    static func subcommand(of arguments: [String]) -> (ParsableCommand.Type, String, [String]) {
        var command: ParsableCommand.Type = OutlineCommand.self
        var path = "outline"
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            guard !word.hasPrefix("-"),
                let next = command.configuration.subcommands.first(where: { $0._commandName == word })
            else { break }
            command = next
            path += " " + word
            index += 1
        }
        return (command, path, Array(arguments[index...]))
    }

    /// `Unknown option '--txt'. Did you mean '--text'?` for the first option in `arguments`
    /// that `command` does not have, or nil when it has them all.
    static func unknownOption(in arguments: [String], of command: ParsableCommand.Type) -> String? {
        let known = optionNames(of: command)
        for argument in arguments {
            if argument == "--" { break }
            let name: String
            if argument.hasPrefix("--") {
                name = String(argument.split(separator: "=", maxSplits: 1).first ?? Substring(argument))
            } else if argument.count >= 2, argument.hasPrefix("-"), let letter = argument.dropFirst().first, letter.isLetter {
                name = String(argument.prefix(2))
            } else {
                continue
            }
            guard name != "--", !known.contains(name) else { continue }
            var message = "Unknown option '\(name)'."
            // An option naming a format (`--txt`) is advised as one, unless the command has an
            // option it abbreviates or spells out (`edit --txt` means `--text`).
            let format = formatNamed(by: name)
            if let format, known.contains("--to") {
                message += " Did you mean '--to \(format.name)'?"
            } else if let format, spelledOut(name, in: known) == nil {
                message += formatAdvice(format, command: command)
            } else if let suggestion = nearest(to: name, in: known) {
                message += " Did you mean '\(suggestion)'?"
            }
            return message
        }
        return nil
    }

    /// The format an option such as `--txt`, `--md` or `--opml` names, by its name or extension.
    static func formatNamed(by option: String) -> ConversionFormat? {
        guard option.hasPrefix("--") else { return nil }
        let word = option.dropFirst(2).lowercased()
        return ConversionFormat.all.first { $0.name == word || $0.extensions.contains(word) }
    }

    /// What to use instead of an option naming `format` on a command that has neither `--to`
    /// nor an option like it: `convert`, which writes every format (`show` prints text already).
    static func formatAdvice(_ format: ConversionFormat, command: ParsableCommand.Type) -> String {
        if command == Show.self && format == .text { return " show prints text already; leave the option out." }
        let name = format.name
        return " To write the outline as \(name), use `outline convert FILE OUTPUT --to \(name)` (- as OUTPUT writes to standard output)."
    }

    /// The option names `command` takes (`--under`, `-h`, ...), the built-in ones included.
    static func optionNames(of command: ParsableCommand.Type) -> Set<String> {
        var names: Set<String> = ["--help", "-h", "--version"]
        for option in options(of: command) { names.formUnion(option.names) }
        if command == OutlineCommand.self { names.insert("--generate-completion-script") }
        return names
    }

    /// The options and flags `command` declares, each with its names (`--under`, `-u`) and
    /// whether it takes a value, as swift-argument-parser describes them.
    static func options(of command: ParsableCommand.Type) -> [(names: [String], takesValue: Bool)] {
        guard let data = command._dumpHelp().data(using: .utf8),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let info = root["command"] as? [String: Any],
            let arguments = info["arguments"] as? [[String: Any]]
        else { return [] }
        return arguments.compactMap { argument in
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { entry -> String? in
                guard let name = entry["name"] as? String, let kind = entry["kind"] as? String else { return nil }
                return kind == "long" ? "--" + name : "-" + name
            }
            return names.isEmpty ? nil : (names, argument["kind"] as? String == "option")
        }
    }

    /// The known option closest to `name`: one it abbreviates (`--dep` for `--depth`), else
    /// the shortest one that starts with the same letter and has its letters in order (`--txt`
    /// for `--text`), else one a few edits away.
    static func nearest(to name: String, in known: Set<String>) -> String? {
        if let spelled = spelledOut(name, in: known) { return spelled }
        let candidates = known.filter { $0.hasPrefix("--") == name.hasPrefix("--") }.sorted()
        let limit = max(2, name.count / 3)
        let scored = candidates.map { ($0, distance(name, $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// The known option `name` abbreviates (`--dep` for `--depth`), else the shortest one that
    /// starts with the same letter and has its letters in order (`--txt` for `--text`).
    static func spelledOut(_ name: String, in known: Set<String>) -> String? {
        let candidates = known.filter { $0.hasPrefix("--") == name.hasPrefix("--") }.sorted()
        if name.hasPrefix("--"), name.count > 3, let prefixed = candidates.first(where: { $0.hasPrefix(name) }) {
            return prefixed
        }
        let letters = Array(name.drop { $0 == "-" })
        if letters.count >= 2 {
            let ordered = candidates.filter { candidate in
                let other = Array(candidate.drop { $0 == "-" })
                guard other.first == letters.first else { return false }
                var index = 0
                for character in other where index < letters.count && character == letters[index] { index += 1 }
                return index == letters.count
            }
            if let shortest = ordered.min(by: { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }) { return shortest }
        }
        return nil
    }

    /// The edit distance between `a` and `b` (insertions, deletions, substitutions, swaps of neighbours).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0 ... a.count { table[i][0] = i }
        for j in 0 ... b.count { table[0][j] = j }
        for i in 1 ... a.count {
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The parser's message in clearer words, or nil when it reads well as it is.
    static func reworded(_ message: String) -> String? {
        // "Value to be set with flag '--not-done' had already been set with flag '--done'"
        let pattern = #"Value to be set with flag '([^']+)' had already been set with flag '([^']+)'"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: message, range: NSRange(message.startIndex..., in: message)),
            let second = Range(match.range(at: 1), in: message), let first = Range(match.range(at: 2), in: message)
        else { return nil }
        return "\(message[first]) and \(message[second]) cannot be combined; give one of them."
    }
}
