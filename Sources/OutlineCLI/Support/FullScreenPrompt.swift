import Foundation
import OutlineStorage
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
    /// terminal (each whole percent once).
    static func openingProgress(_ file: String) -> @Sendable (LoadProgress) -> Void {
        guard Console.standardErrorIsTerminal else { return { _ in } }
        return { progress in
            let line = "\rOpening \(file): \(progress)"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Clears the progress line.
    static func clearProgress() {
        guard Console.standardErrorIsTerminal else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 60) + "\r").utf8))
    }
}
