import ArgumentParser
import Foundation
import OutlineKit
import OutlineStorage
import OutlineTerminal
import OutlineTool
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Edit the document full screen, or change one item's text, note or done state.",
        discussion: """
            With only FILE, opens the document in a full-screen outliner (? lists its keys); \
            a missing FILE is created after asking. Edits are saved in the background, after \
            a pause in typing, on Ctrl-S and on quit, and when the terminal closes. Colours are \
            left out when NO_COLOR is set.

            With an item, changes it: give at least one change. An empty --note removes the note.

            Examples:
              outline edit groceries.outline
              outline edit groceries.outline --read-only
              outline edit groceries.outline 1.2 --text "Oat milk"
              outline edit groceries.outline 1.2 --note "The big carton."
              outline edit groceries.outline 1.2 --done
              outline edit groceries.outline '#105' --not-done --note ""
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(help: ArgumentHelp("The item to change: a path such as 2.1.3, or #ID. Without it, FILE opens full screen.", valueName: "path"))
    var path: String?

    @Option(help: "The new text.")
    var text: String?

    @Option(help: "The new note (an empty note removes it).")
    var note: String?

    @Flag(exclusivity: .exclusive)
    var state: DoneState?

    @Flag(help: "Browse full screen without changing the document.")
    var readOnly = false

    func validate() throws {
        let changes = text != nil || note != nil || state != nil
        if path == nil && changes {
            throw ValidationError("Give the item to change (a path such as 1.2, or #ID) before --text, --note, --done or --not-done.")
        }
        if path != nil && readOnly {
            throw ValidationError("--read-only is for the full-screen editor: give only FILE.")
        }
        if path != nil && !changes {
            throw ValidationError("Nothing to change: give --text, --note, --done or --not-done.")
        }
    }

    func run() throws {
        guard let path else { return try runFullScreen() }
        let file = try document.openForEditing()
        let item = try file.item(at: path)
        try file.attributing(at: path) {
            let outline = file.document
            guard item != outline.root else {
                throw OutlineError(.invalidEdit, at: "/", "the root item cannot be edited",
                                   hint: "Edit the top-level items (1, 2, ...) instead.")
            }
            if let text { try outline.setText(text, of: item) }
            if let note { try outline.setNote(note.isEmpty ? nil : note, of: item) }
            if let state { try outline.setDone(state == .done, of: item) }
        }
        if let notice = try file.save() { Console.note(notice) }
    }

    private func runFullScreen() throws {
        let file = document.file
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw ValidationError("The full-screen editor needs a terminal on standard input and output; to change one item without it, give its path: outline edit \(file) PATH --text TEXT.")
        }
        var creates = false
        if !FileManager.default.fileExists(atPath: file) {
            if readOnly {
                throw StorageError(.unreadable, file: file, "the file does not exist", hint: "Check the name, or leave out --read-only to create it.")
            }
            guard FullScreenPrompt.confirm("\(file) does not exist. Create it? [y/N] ") else {
                throw StorageError(.unreadable, file: file, "the file does not exist and was not created",
                                   hint: "Answer y to create it, or create it first with `outline create \(file)`.")
            }
            creates = true
        }
        let progress = FullScreenPrompt.openingProgress(file)
        let editor = TerminalEditor(path: file, isReadOnly: readOnly, createsFile: creates,
                                    allowsColor: ProcessInfo.processInfo.environment["NO_COLOR", default: ""].isEmpty)
        let outcome: TerminalEditor.Outcome
        do {
            outcome = try editor.run(progress: progress, opened: FullScreenPrompt.clearProgress)
        } catch {
            FullScreenPrompt.clearProgress()
            throw error
        }
        switch outcome {
        case .finished:
            break
        case .savedOnSignal:
            Console.note("\(file): saved before exiting.")
        case .unsaved(let why):
            throw StorageError(.unwritable, file: file, "the edits were not saved: \(why)",
                               hint: "Check that the file's folder is writable and has room, then edit again.")
        }
    }
}
