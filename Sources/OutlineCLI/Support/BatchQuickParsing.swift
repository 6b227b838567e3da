import ArgumentParser

/// Builds the editing command of a batch line written in the plain form (see ``PlainLine``)
/// without swift-argument-parser, which reflects over the command's type to build its
/// arguments anew on every parse (about 0.2 ms a line, more than applying the line costs).
///
/// It builds exactly the command swift-argument-parser would: each option and flag is set from
/// the line or to its default, and the command's own validation runs. A line it does not
/// build, because it is not in the plain form or fails validation, is left to
/// swift-argument-parser, so that what is accepted and every error message stay as they were.
/// `BatchQuickParsingTests` compares the two on lines of every command; a property the table
/// below does not set makes those tests fail.
enum BatchQuickParsing {
    /// The command `words` (its name first) write on `document`, or nil when swift-argument-parser
    /// is to parse the line.
    static func command(_ words: [String], document: String) -> (any EditingCommand)? {
        guard let name = words.first, let build = builders[name], document.utf8.first != UInt8(ascii: "-") else { return nil }
        var argument = DocumentArgument()
        argument.file = document
        return build(words.dropFirst(), argument)
    }

    private typealias Builder = @Sendable (ArraySlice<String>, DocumentArgument) -> (any EditingCommand)?

    private static let builders: [String: Builder] = [
        "add": add, "edit": edit, "remove": remove, "move": move, "copy": copy,
        "tag": tag, "untag": untag, "collapse": collapse, "expand": expand,
    ]

    private static let historyFlag = "--no-history"

    private static func history(_ line: PlainLine) -> HistoryOption {
        var history = HistoryOption()
        history.dropsHistory = line.flag(historyFlag)
        return history
    }

    /// `command` on `document` with the history option of `line`, once its option groups (the
    /// document, those `groups` validates, the history) and then itself passed their validation,
    /// as swift-argument-parser runs it; nil when one fails (the line then goes to
    /// swift-argument-parser, which words the error).
    private static func finished<Command: EditingCommand>(
        _ command: Command, on document: DocumentArgument, _ line: PlainLine, groups: (inout Command) throws -> Void = { _ in }
    ) -> Command? {
        var command = command
        command.document = document
        command.history = history(line)
        do {
            try command.document.validate()
            try groups(&command)
            try command.history.validate()
            try command.validate()
            return command
        } catch {
            return nil
        }
    }

    private static func add(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard
            let line = PlainLine(
                words, options: ["--text-file", "--under", "--at", "--note", "--note-file"], flags: ["--done", "--id", historyFlag]),
            line.values.count <= 1, let at = line.integer("--at")
        else { return nil }
        var command = Add()
        command.text = line.values.first
        command.textFile = line.option("--text-file")
        command.under = line.option("--under")
        command.at = at
        command.note = line.option("--note")
        command.noteFile = line.option("--note-file")
        command.done = line.flag("--done")
        command.id = line.flag("--id")
        return finished(command, on: document, line)
    }

    private static func edit(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard
            let line = PlainLine(
                words, options: ["--where", "--text", "--text-file", "--note", "--note-file"],
                flags: ["--recursive", "--done", "--not-done", "--read-only", historyFlag]),
            line.values.count <= 1, line.flagCount(["--done", "--not-done"]) <= 1
        else { return nil }
        var command = Edit()
        command.path = line.values.first
        command.`where` = line.option("--where")
        command.recursive = line.flag("--recursive")
        command.text = line.option("--text")
        command.textFile = line.option("--text-file")
        command.note = line.option("--note")
        command.noteFile = line.option("--note-file")
        command.state = line.flag("--done") ? .done : line.flag("--not-done") ? .notDone : nil
        command.readOnly = line.flag("--read-only")
        var variables = QueryVariablesOption()
        variables.variables = []  // a plain line has no --var
        command.variables = variables
        return finished(command, on: document, line)
    }

    private static func remove(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard let line = PlainLine(words, options: [], flags: [historyFlag]), line.values.count == 1 else { return nil }
        var command = Remove()
        command.path = line.values[0]
        return finished(command, on: document, line)
    }

    private static let directions: [String: MoveDirection] = Dictionary(
        uniqueKeysWithValues: MoveDirection.allCases.map { ("--" + $0.rawValue, $0) })

    private static func move(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard
            let line = PlainLine(words, options: ["--under", "--at"], flags: Set(directions.keys).union([historyFlag])),
            line.values.count == 1, line.flagCount(directions.keys) <= 1, let at = line.integer("--at")
        else { return nil }
        var command = Move()
        command.path = line.values[0]
        command.under = line.option("--under")
        command.at = at
        command.direction = directions.first { line.flag($0.key) }?.value
        return finished(command, on: document, line)
    }

    private static func copy(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard
            let line = PlainLine(words, options: ["--under", "--at"], flags: ["--id", historyFlag]),
            line.values.count == 1, let under = line.option("--under"), let at = line.integer("--at")
        else { return nil }
        var command = Copy()
        command.path = line.values[0]
        command.under = under
        command.at = at
        command.id = line.flag("--id")
        return finished(command, on: document, line)
    }

    private static func tag(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard let line = PlainLine(words, options: [], flags: [historyFlag]), let path = line.values.first else { return nil }
        var command = Tag()
        command.path = path
        command.names = Array(line.values.dropFirst())
        return finished(command, on: document, line)
    }

    private static func untag(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard let line = PlainLine(words, options: [], flags: ["--all", historyFlag]), let path = line.values.first else { return nil }
        var command = Untag()
        command.path = path
        command.names = Array(line.values.dropFirst())
        command.all = line.flag("--all")
        return finished(command, on: document, line)
    }

    /// The line of `collapse` or `expand` and the items it names.
    private static func folding(_ words: ArraySlice<String>) -> (line: PlainLine, targets: FoldingTargets)? {
        guard let line = PlainLine(words, options: [], flags: ["--all", historyFlag]), line.values.count <= 1 else { return nil }
        var targets = FoldingTargets()
        targets.path = line.values.first
        targets.all = line.flag("--all")
        return (line, targets)
    }

    private static func collapse(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard let (line, targets) = folding(words) else { return nil }
        var command = Collapse()
        command.targets = targets
        return finished(command, on: document, line) { try $0.targets.validate() }
    }

    private static func expand(_ words: ArraySlice<String>, _ document: DocumentArgument) -> (any EditingCommand)? {
        guard let (line, targets) = folding(words) else { return nil }
        var command = Expand()
        command.targets = targets
        return finished(command, on: document, line) { try $0.targets.validate() }
    }
}
