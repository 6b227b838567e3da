import OutlineEditor
import OutlineKit
import OutlineStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last terminating signal received (0 for none); set by the signal handler, read by the loop.
private let receivedSignal = Atomic<Int32>(0)

/// One `outline edit` session on an actor of its own: the stack's container belongs to it,
/// so background saves and autosaves finish here between keys.
actor EditorSession {
    private let settings: TerminalEditor
    private var events: [DocumentEvent] = []
    /// A save at `q` failed and the message offered `Q`, which now quits without saving
    /// while saves keep failing.
    private var offersQuitWithoutSaving = false

    init(_ settings: TerminalEditor) {
        self.settings = settings
    }

    func run(
        progress: @escaping @Sendable (LoadProgress) -> Void,
        opened: @Sendable () -> Void
    ) async -> Result<TerminalEditor.Outcome, any Error> {
        do {
            let options = DocumentContainer.Options(
                autosave: settings.isReadOnly ? nil : .init(quietPeriod: settings.autosaveQuietPeriod, savesOnClose: true),
                externalChangeInterval: settings.externalChangeInterval, isReadOnly: settings.isReadOnly)
            let stack: OutlineStack
            if settings.createsFile {
                let format: DocumentFormat = settings.path.lowercased().hasSuffix(".xml") ? .xml : .binary
                stack = try await OutlineStack.create(settings.path, format: format, options: options)
                try await stack.save()
            } else {
                stack = try await OutlineStack.open(settings.path, options: options, progress: { progress($0) })
            }
            opened()
            return .success(await loop(stack))
        } catch {
            return .failure(error)
        }
    }

    /// Records `signal` for the session loop, which saves and ends when it next looks.
    nonisolated static func deliver(signal: Int32) {
        receivedSignal.store(signal, ordering: .relaxed)
    }

    private func receive(_ event: DocumentEvent) {
        events.append(event)
    }

    private func loop(_ stack: OutlineStack) async -> TerminalEditor.Outcome {
        // A parent may have blocked these (test runners do); the save on hangup needs them.
        var terminating = sigset_t()
        sigemptyset(&terminating)
        for number in [SIGHUP, SIGTERM, SIGINT] {
            sigaddset(&terminating, number)
            signal(number) { receivedSignal.store($0, ordering: .relaxed) }
        }
        pthread_sigmask(SIG_UNBLOCK, &terminating, nil)
        let container = stack.container
        let stream = container.events
        let listener = Task { for await event in stream { self.receive(event) } }
        defer { listener.cancel() }

        let terminal = Terminal()
        terminal.start(allowColor: settings.allowsColor)
        defer { terminal.stop() }
        let name = settings.path.split(separator: "/").last.map(String.init) ?? settings.path
        let editor = OutlineEditor(
            document: stack.document,
            options: EditorOptions(
                fileName: name, formatName: container.format == .xml ? "XML" : "binary",
                isReadOnly: settings.isReadOnly, usesColor: terminal.usesColor))
        editor.olderUndoSteps = { container.olderUndoStepCount }
        // A line being typed is an unsaved edit: another program's change is a question then.
        container.hasPendingEdits = { [weak editor] in editor?.hasUncommittedText ?? false }
        editor.saveStatus = {
            switch container.saveState {
            case .saved: .saved
            case .unsaved: .unsaved
            case .saving: .saving
            case .failed(let error): .failed(error.message)
            }
        }
        var screen = ScreenBuffer(width: terminal.size.width, height: terminal.size.height)
        var quickFailures = 0
        let clock = ContinuousClock()
        while true {
            let signalNumber = receivedSignal.load(ordering: .relaxed)
            if signalNumber != 0 || quickFailures > 200 {
                return await finish(stack, editor, signal: signalNumber == 0 ? SIGHUP : signalNumber)
            }
            for event in events { apply(event, stack, editor) }
            events.removeAll()
            let start = clock.now
            guard let key = terminal.readKey(milliseconds: 40) else {
                // A terminal that went away answers at once, forever: count that as a hangup.
                quickFailures = clock.now - start < .milliseconds(2) ? quickFailures + 1 : 0
                await Task.yield()
                redraw(editor, terminal, &screen)
                continue
            }
            quickFailures = 0
            if key == .resize {
                screen = ScreenBuffer(width: terminal.size.width, height: terminal.size.height)
                terminal.invalidate()
            }
            switch editor.handle(key) {
            case .none:
                break
            case .save:
                guard container.hasChanges else {
                    editor.show("Nothing to save: the file holds every edit.")
                    break
                }
                editor.show("Saving…")
                Task {
                    _ = self
                    try? await stack.save()
                }
            case .quitWithoutSaving where offersQuitWithoutSaving && !container.isClosed:
                // Offered by the message of a failed save at `q`; only while it still fails.
                if case .failed(let error) = container.saveState { return .quitWithoutSaving(error.message) }
                fallthrough
            case .quit, .quitWithoutSaving:
                if settings.isReadOnly { return .finished }
                editor.finishEditing()
                editor.show("Saving…")
                redraw(editor, terminal, &screen)
                do {
                    try await stack.close()
                    return .finished
                } catch {
                    // Never quit without saving unasked: stay open, and offer `Q` for it.
                    offersQuitWithoutSaving = true
                    editor.show(saveFailure(Self.describe(error)), isError: true)
                }
            case .reloadExternalChange(let takeTheirs):
                if takeTheirs {
                    do {
                        try await container.reload()
                        editor.replaceDocument(stack.document)
                        editor.show("Read the other program's version of the file.")
                    } catch {
                        editor.show("Could not read the file again: \(Self.describe(error))", isError: true)
                    }
                } else {
                    await container.keepLocalChanges()
                }
            }
            await Task.yield()
            redraw(editor, terminal, &screen)
        }
    }

    private func redraw(_ editor: OutlineEditor, _ terminal: Terminal, _ screen: inout ScreenBuffer) {
        editor.render(into: &screen)
        terminal.draw(screen)
    }

    private func apply(_ event: DocumentEvent, _ stack: OutlineStack, _ editor: OutlineEditor) {
        switch event {
        case .saved:
            if editor.message == "Saving…" { editor.show("Saved.") }
        case .saveFailed(let error):
            editor.show(saveFailure(error.message), isError: true)
        case .externalChange:
            editor.askAboutExternalChange()
        case .reloaded:
            editor.replaceDocument(stack.document)
            editor.show("Another program changed the file; read it again.")
        case .reloadFailed(let error):
            editor.show("Another program changed the file, and reading it failed: \(error.message)", isError: true)
        }
    }

    /// The message for a save that failed for the reason `why`.
    private func saveFailure(_ why: String) -> String {
        offersQuitWithoutSaving
            ? "Not saved: \(why). Your edits are kept; q tries again, Q quits without saving them."
            : "Not saved: \(why). Your edits are kept; the next save tries again."
    }

    /// The terminal closed or the process was told to end: keep what was typed, save, stop.
    /// When the file cannot be saved over (another program changed it and the question is
    /// unanswered, or the save fails), the edits go to a recovery copy beside it instead.
    private func finish(_ stack: OutlineStack, _ editor: OutlineEditor, signal number: Int32) async -> TerminalEditor.Outcome {
        editor.finishEditing()
        guard !settings.isReadOnly else { return .savedOnSignal(number) }
        let container = stack.container
        let unanswered = editor.isAskingAboutExternalChange
        do {
            try await stack.close()
            return .savedOnSignal(number)
        } catch {
            let failure = error as? StorageError
            let why =
                unanswered && failure?.code == .conflict
                ? "another program changed it and the question whether to keep its version was not answered"
                : Self.describe(error)
            do {
                return .recovered(copy: try container.writeRecoveryCopy(), why: why)
            } catch {
                return .unsaved(why, hint: failure?.hint ?? "Nothing was written; edit the file again.", recovery: Self.describe(error))
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? StorageError { return error.message }
        if let error = error as? OutlineError { return error.message }
        return "\(error)"
    }
}
