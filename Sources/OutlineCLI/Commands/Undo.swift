import ArgumentParser
import OutlineKit
import OutlineTool

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Undo the last change and print what was undone.",
        discussion: """
            Every command that changes a document is one step of the undo history the document \
            keeps, so undo works across separate runs, days later. It refuses when there is \
            nothing to undo, or when another program changed the document since (the history \
            no longer fits it). `outline history` lists the steps.

            Examples:
              outline undo groceries.outline
              outline undo groceries.outline && outline undo groceries.outline
            """)

    @OptionGroup var document: DocumentArgument

    func run() throws {
        let file = try document.openForEditing()
        let name = try file.undo()
        let notice = try file.save()
        try Console.output("Undid: \(ControlCharacters.escaped(name))\n")
        if let notice { Console.note(notice) }
    }
}
