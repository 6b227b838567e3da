import ArgumentParser
import OutlineKit
import OutlineTool

struct Move: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move an item (with everything under it) and print its new path.",
        discussion: """
            Give exactly one of --under (optionally with --at), --up, --down, --indent and \
            --outdent. Paths name items as they are before the move.

            Examples:
              outline move groceries.outline 3 --under 1
              outline move groceries.outline 3 --under 1 --at 1
              outline move groceries.outline 1.2 --up
              outline move groceries.outline 2 --indent
              outline move groceries.outline 1.1 --outdent
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to move: a path such as 2.1.3, or #ID.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("The new parent: a path such as 2.1.3, / for the root, or #ID.", valueName: "path"))
    var under: String?

    @Option(help: ArgumentHelp("With --under: the 1-based position among the new siblings (default: the end).", valueName: "n"))
    var at: Int?

    @Flag(exclusivity: .exclusive)
    var direction: MoveDirection?

    @OptionGroup var history: HistoryOption

    func validate() throws {
        switch (under, direction) {
        case (nil, nil):
            throw ValidationError("Say where to: give --under PATH, --up, --down, --indent or --outdent.")
        case (_?, let direction?):
            throw ValidationError("--under and --\(direction.rawValue) cannot be combined; give one of them.")
        default:
            break
        }
        if at != nil && under == nil {
            throw ValidationError("--at needs --under.")
        }
        if let at, at < 1 {
            throw ValidationError("--at must be 1 or more (got \(at)).")
        }
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        let item = try file.item(at: path)
        let destination = try under.map(file.item(at:))
        try file.edit(at: path) {
            let outline = file.document
            switch direction {
            case .up?: try outline.moveUp(item)
            case .down?: try outline.moveDown(item)
            case .indent?: try outline.indent(item)
            case .outdent?: try outline.outdent(item)
            case nil:
                if let destination { try outline.moveItem(item, under: destination, at: at.map { $0 - 1 }) }
            }
        }
        return EditOutcome(output: [file.path(of: item)])
    }
}
