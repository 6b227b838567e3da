import ArgumentParser
import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTerminal
import OutlineTool

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Edit: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Edit the document full screen, or change the text, note or done state of items.",
        discussion: """
            With only FILE, opens the document in a full-screen outliner (? lists its keys); \
            a missing FILE is created after asking. Edits are saved in the background, after \
            a pause in typing (2 seconds, or OUTLINE_AUTOSAVE_SECONDS), on Ctrl-S and on quit, \
            and when the terminal closes; when the file cannot be saved over then (another \
            program changed it, or the save fails), the edits go to a new file beside it, \
            NAME.recovered.EXT. After a failed save q tries again, and Q quits without saving. \
            Colours are left out when NO_COLOR is set.

            Otherwise give at least one change, and the items: PATH, or --where QUERY for every item the \
            predicate matches (as find prints them; --var NAME=VALUE gives its $NAME a value, \
            as for find). --recursive changes the items below each \
            one too. An empty --note removes the note. The whole edit is one step. With \
            --where or --recursive, prints how many items changed.

            Examples:
              outline edit groceries.outline
              outline edit groceries.outline --read-only
              outline edit groceries.outline 1.2 --text "Oat milk"
              outline edit groceries.outline 1.2 --note "The big carton."
              outline edit groceries.outline '#105' --not-done --note ""
              outline edit groceries.outline 1 --done --recursive
              outline edit groceries.outline --where 'text BEGINSWITH "Old"' --done
              outline edit groceries.outline --where 'text == $item' --var item=Milk --done
            """)

    @OptionGroup var document: DocumentArgument

    @Argument(
        help: ArgumentHelp("The item to edit: a path such as 2.1.3, or #ID (or --where). Without it, FILE opens full screen.", valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp("Edit every item this predicate matches instead of PATH.", valueName: "query"))
    var `where`: String?

    @OptionGroup var variables: QueryVariablesOption

    @Flag(help: "Edit the items below each item too.")
    var recursive = false

    @Option(help: "The new text.")
    var text: String?

    @Option(help: ArgumentHelp("Read the new text from this file (- for standard input).", valueName: "file"), completion: .file())
    var textFile: String?

    @Option(help: "The new note (an empty note removes it).")
    var note: String?

    @Option(help: ArgumentHelp("Read the new note from this file (- for standard input).", valueName: "file"), completion: .file())
    var noteFile: String?

    @Flag(exclusivity: .exclusive)
    var state: DoneState?

    @Flag(help: "Browse full screen without changing the document.")
    var readOnly = false

    @OptionGroup var history: HistoryOption

    /// Whether the command opens the full-screen editor: only FILE was given.
    var isFullScreen: Bool {
        path == nil && `where` == nil && !hasChanges && !recursive && variables.variables.isEmpty
    }

    private var hasChanges: Bool {
        text != nil || textFile != nil || note != nil || noteFile != nil || state != nil
    }

    func validate() throws {
        if isFullScreen { return }
        if readOnly {
            throw ValidationError("--read-only is for the full-screen editor: give only FILE.")
        }
        if path == nil && `where` == nil {
            throw ValidationError(
                "Say which items: give PATH, or --where QUERY. Give the item to change before --text, --note, --done "
                    + "or --not-done; with only FILE, edit opens the full-screen editor.")
        }
        if !hasChanges {
            throw ValidationError("Nothing to change: give --text, --note, --done or --not-done.")
        }
        if path != nil && `where` != nil { throw ValidationError("Give PATH or --where QUERY, not both.") }
        _ = try variables.values(for: `where`)
        if text != nil && textFile != nil { throw ValidationError("Give --text or --text-file, not both.") }
        if note != nil && noteFile != nil { throw ValidationError("Give --note or --note-file, not both.") }
    }

    func run() throws {
        try isFullScreen ? runFullScreen() : runEditing()
    }

    func apply(to file: OutlineFile) throws -> EditOutcome {
        if isFullScreen {
            throw ValidationError("The full-screen editor cannot run here: give the item to change and at least one change.")
        }
        let text = try TextSource.choose(text, file: textFile, name: "text", optional: true)
        let note = try TextSource.choose(note, file: noteFile, name: "note", optional: true)
        let outline = file.document
        var targets: [ManagedObject]
        if let query = `where` {
            let values = try variables.values(for: query)
            targets = try QueryDiagnostic.showingColumn(of: query) {
                try file.attributing { try outline.matches(query, variables: values).map(\.item) }
            }
        } else if let path {
            targets = [try file.item(at: path)]
            if targets[0] == outline.root {
                throw OutlineError(
                    .invalidEdit, file: file.path, at: "/", "the root item cannot be edited",
                    hint: "Edit the top-level items (1, 2, ...) instead, or all of them with --where 'TRUEPREDICATE'.")
            }
        } else {
            targets = []
        }
        if recursive { targets = Self.withDescendants(targets, in: outline) }
        let counted = `where` != nil || recursive
        guard !targets.isEmpty else {
            return EditOutcome(output: ["No item matches; nothing changed."], changed: false)
        }
        let name = targets.count == 1 ? stepName(for: targets[0], in: file, text: text, note: note) : "Edit \(targets.count) items"
        try file.edit(name, at: path) {
            for item in targets {
                if let text { try outline.setText(text, of: item) }
                if let note { try outline.setNote(note.isEmpty ? nil : note, of: item) }
                if let state { try outline.setDone(state == .done, of: item) }
            }
        }
        return EditOutcome(output: counted ? ["Changed \(targets.count) \(targets.count == 1 ? "item" : "items")."] : [])
    }

    /// The undo step's name for one item, as the edits name themselves: the first change, and
    /// how many more there are (`Edit text of “Milk” and 1 more change`).
    func stepName(for item: ManagedObject, in file: OutlineFile, text: String?, note: String?) -> String {
        let quoted = "“" + OutlineDocument.shorten(file.document.text(of: item) ?? "") + "”"
        var names: [String] = []
        if text != nil { names.append("Edit text of \(quoted)") }
        if note != nil { names.append("Edit note of \(quoted)") }
        if let state { names.append(state == .done ? "Mark \(quoted) done" : "Mark \(quoted) not done") }
        guard let first = names.first else { return "Edit \(quoted)" }
        let more = names.count - 1
        return more == 0 ? first : "\(first) and \(more) more \(more == 1 ? "change" : "changes")"
    }

    /// `items` and everything below them, each once, in document order of each subtree.
    static func withDescendants(_ items: [ManagedObject], in outline: OutlineDocument) -> [ManagedObject] {
        var seen: Set<ManagedObject> = []
        var all: [ManagedObject] = []
        for item in items where !seen.contains(item) {
            for member in outline.subtree(of: item) where seen.insert(member).inserted { all.append(member) }
        }
        return all
    }

    private func runFullScreen() throws {
        let file = document.file
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw ValidationError(
                "The full-screen editor needs a terminal on standard input and output; to change one item without it, give its path: outline edit \(file) PATH --text TEXT."
            )
        }
        var creates = false
        if !FileManager.default.fileExists(atPath: file) {
            if readOnly {
                throw StorageError(.unreadable, file: file, "the file does not exist", hint: "Check the name, or leave out --read-only to create it.")
            }
            guard FullScreenPrompt.confirm("\(file) does not exist. Create it? [y/N] ") else {
                throw StorageError(
                    .unreadable, file: file, "the file does not exist and was not created",
                    hint: "Answer y to create it, or create it first with `outline create \(file)`.")
            }
            creates = true
        }
        let progress = FullScreenPrompt.openingProgress(file)
        let editor = TerminalEditor(
            path: file, isReadOnly: readOnly, createsFile: creates,
            allowsColor: ProcessInfo.processInfo.environment["NO_COLOR", default: ""].isEmpty,
            autosaveQuietPeriod: AutosaveDelay.quietPeriod)
        // The tool's signal thread would end the process at once; the editor saves first.
        SignalHandling.forward { TerminalEditor.deliver(signal: $0) }
        defer { SignalHandling.forward(to: nil) }
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
        case .recovered(let copy, let why):
            throw StorageError(
                .unwritable, file: file, "the edits were written to \(copy) instead; \(file) was not replaced because \(why)",
                hint: "Compare the two files and keep the version you want (open \(copy) with `outline edit`).")
        case .unsaved(let why, let hint, let recovery):
            throw StorageError(
                .unwritable, file: file, "the edits were not saved: \(why); nor could a recovery copy be written beside it: \(recovery)",
                hint: hint)
        case .quitWithoutSaving(let why):
            throw StorageError(
                .unwritable, file: file, "quit without saving, as asked (Q): the edits were not saved (\(why))",
                hint: "The file holds what the session saved before the save failed, if anything.")
        }
    }
}
