import Foundation
import OutlineStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `outline edit FILE` says before the screen is taken: the question about creating a
/// missing file, and a progress line while a large document opens.
enum FullScreenPrompt {
    /// Asks `question` on standard error and reads the answer from standard input; true for
    /// `y` or `yes`. False without asking when standard input is not a terminal.
    static func confirm(_ question: String) -> Bool {
        guard isatty(0) == 1 else { return false }
        FileHandle.standardError.write(Data(question.utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A progress handler drawing `Opening FILE: decoding 42%` on standard error when it is a
    /// terminal, once opening has taken a quarter of a second (small documents show nothing).
    static func openingProgress(_ file: String) -> @Sendable (LoadProgress) -> Void {
        guard Console.standardErrorIsTerminal else { return { _ in } }
        let line = ProgressLine()
        return { progress in line.show("Opening \(file): \(progress)") }
    }

    /// Clears the progress line, if one was drawn.
    static func clearProgress() {
        guard Console.standardErrorIsTerminal, ProgressLine.anyDrawn.withLock({ $0 }) else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 70) + "\r").utf8))
    }
}

/// One line of progress redrawn in place, shown only after a delay.
private final class ProgressLine: Sendable {
    static let anyDrawn = Mutex(false)
    private let state = Mutex<(start: ContinuousClock.Instant, last: String)>((ContinuousClock.now, ""))

    func show(_ text: String) {
        let draw = state.withLock { state -> Bool in
            guard ContinuousClock.now - state.start > .milliseconds(250), text != state.last else { return false }
            state.last = text
            return true
        }
        guard draw else { return }
        Self.anyDrawn.withLock { $0 = true }
        FileHandle.standardError.write(Data(("\r" + text).utf8))
    }
}
