import Dispatch
import OutlineEditor
import OutlineKit
import OutlineStorage
import Synchronization

/// `outline edit FILE`: the document stack, the editor and the terminal together.
///
/// The document is opened (or created) with ``OutlineKit/OutlineStack``: saves run in the
/// background, autosave follows a quiet period, and another program's change to the file is
/// noticed. Everything runs on one actor of its own; ``run(progress:)`` blocks the calling
/// thread until the user quits or the terminal goes away.
public struct TerminalEditor: Sendable {
    /// The document's file.
    public var path: String
    /// Browse without saving.
    public var isReadOnly: Bool
    /// The file does not exist and the user agreed to create it (binary, or XML for `.xml`).
    public var createsFile: Bool
    /// False when `NO_COLOR` is set.
    public var allowsColor: Bool
    /// How long typing must pause before an autosave.
    public var autosaveQuietPeriod: Duration
    /// How often the file is checked for another program's changes.
    public var externalChangeInterval: Duration

    /// A session on the file at `path`; see the properties.
    public init(
        path: String, isReadOnly: Bool = false, createsFile: Bool = false, allowsColor: Bool = true,
        autosaveQuietPeriod: Duration = .seconds(2), externalChangeInterval: Duration = .seconds(1)
    ) {
        self.path = path
        self.isReadOnly = isReadOnly
        self.createsFile = createsFile
        self.allowsColor = allowsColor
        self.autosaveQuietPeriod = autosaveQuietPeriod
        self.externalChangeInterval = externalChangeInterval
    }

    /// How a session ended.
    public enum Outcome: Sendable, Equatable {
        /// The user quit; everything was saved (or the session was read-only).
        case finished
        /// A signal (`SIGHUP` when the terminal closed, `SIGTERM`) ended the session after a save.
        case savedOnSignal(Int32)
        /// The session ended (on a signal) without being able to save over the file, for the
        /// reason `why`; the edits were written to the new file `copy` beside it instead.
        case recovered(copy: String, why: String)
        /// The session ended with edits that could not be saved, for the reason `why`, nor
        /// written to a recovery copy, for the reason `recovery`; `hint` says what to do.
        case unsaved(String, hint: String, recovery: String)
        /// The user quit without saving (`Q`, offered after a save failed for this reason).
        case quitWithoutSaving(String)
    }

    /// Tells a running session that the process got `signal` (SIGHUP, SIGTERM, SIGINT): it
    /// saves and ends with ``Outcome/savedOnSignal(_:)``. For a program that takes signals on a
    /// thread of its own (with `sigwait`) instead of letting the session's handlers see them.
    public static func deliver(signal: Int32) {
        EditorSession.deliver(signal: signal)
    }

    /// Opens the document, runs the editor full screen until the user quits, saves, and gives
    /// the terminal back. Blocks the calling thread.
    ///
    /// - Parameters:
    ///   - progress: called while a large document opens (before the screen is taken).
    ///   - opened: called once the document is open, just before the screen is taken.
    /// - Throws: the errors of opening or creating the document.
    public func run(
        progress: @escaping @Sendable (LoadProgress) -> Void,
        opened: @escaping @Sendable () -> Void = {}
    ) throws -> Outcome {
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let session = EditorSession(self)
        Task {
            let outcome = await session.run(progress: progress, opened: opened)
            result.value.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        guard let outcome = result.value.withLock({ $0 }) else { return .finished }
        return try outcome.get()
    }
}

/// The outcome of a session, handed from its task to the waiting thread.
private final class ResultBox: Sendable {
    let value = Mutex<Result<TerminalEditor.Outcome, any Error>?>(nil)
}
