import ArgumentParser

/// Texts that begin with a dash (`outline add list.outline "- wash dishes"`, `--text "-5 °C"`)
/// passed on as texts instead of options.
///
/// The argument parser reads every word that begins with `-` as options: `"- wash dishes"`
/// became the short flags ` `, `w`, `a`, `s`, `h`, ..., so `-h` printed the help and nothing was
/// added (exit 0). A word that begins with a dash followed by a space, a digit or a sign, or
/// that holds a space, cannot be an option of this tool, so it is a text:
///
/// - as the value of an option that takes one (`--text "- wash"`), it is joined to it
///   (`--text=- wash`);
/// - otherwise it is a positional argument: the positional arguments go after `--`, in their
///   order, behind the options.
///
/// Words that look like options (`-x`, `--txt`) are left to the parser, which reports them.
enum DashArguments {
    /// The tool's `arguments` (without its name) with the subcommand's dash-led texts made texts.
    static func normalizedCommandLine(_ arguments: [String]) -> [String] {
        guard arguments.contains(where: isDashText) else { return arguments }
        let (command, _, rest) = UsageErrors.subcommand(of: arguments)
        return Array(arguments.prefix(arguments.count - rest.count)) + normalized(rest, of: command)
    }

    /// `arguments` of `command` (the words after its name) with dash-led texts made texts; the
    /// same words when there are none.
    static func normalized(_ arguments: [String], of command: ParsableCommand.Type) -> [String] {
        guard arguments.contains(where: isDashText) else { return arguments }
        let valued = optionsTakingValues(of: command)
        var options: [String] = []
        var positionals: [String] = []
        var movesPositionals = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                // What follows is positional already; it stays after the one `--` written out.
                positionals += arguments[index...]
                movesPositionals = true
                break
            }
            if isDashText(word) {
                positionals.append(word)
                movesPositionals = true
            } else if word.hasPrefix("-") && word != "-" {
                options.append(word)
                // An option that takes a value: its value is the next word, whatever it is.
                if !word.contains("="), let long = valued[word], index < arguments.count {
                    let value = arguments[index]
                    index += 1
                    if isDashText(value) || value.hasPrefix("-") && value != "-" {
                        options[options.count - 1] = long + "=" + value
                    } else {
                        options.append(value)
                    }
                }
            } else {
                positionals.append(word)
            }
        }
        guard movesPositionals else { return options + positionals }
        return options + ["--"] + positionals
    }

    /// Whether `word` begins with a dash but cannot be an option: a dash followed by a space,
    /// a digit or a sign (`- item`, `-5`, `-+`), or a dash-led word holding whitespace
    /// (`--- notes ---`).
    static func isDashText(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count >= 2, word != "--" else { return false }
        if word.contains(where: \.isWhitespace) { return true }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isLetter || second == "-")
    }

    /// The options of `command` that take a value, each name (`--text`, `-o`) with the form to
    /// join a value to (`--text`; a short name's long name when it has one).
    static func optionsTakingValues(of command: ParsableCommand.Type) -> [String: String] {
        var valued: [String: String] = [:]
        for option in UsageErrors.options(of: command) where option.takesValue {
            guard let joined = option.names.first(where: { $0.hasPrefix("--") }) ?? option.names.first else { continue }
            for name in option.names { valued[name] = joined }
        }
        return valued
    }
}
