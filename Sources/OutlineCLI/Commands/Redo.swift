import ArgumentParser
import OutlineKit
import OutlineTool

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the last undone change again and print what was redone.",
        discussion: """
            Redo takes the steps `outline undo` took back, most recent first, until another \
            change is made: a new change drops the undone steps.

            Examples:
              outline redo groceries.outline
            """)

    @OptionGroup var document: DocumentArgument

    func run() throws {
        let file = try document.openForEditing()
        let name = try file.redo()
        let notice = try file.save()
        try Console.output("Redid: \(ControlCharacters.escaped(name))\n")
        if let notice { Console.note(notice) }
    }
}
