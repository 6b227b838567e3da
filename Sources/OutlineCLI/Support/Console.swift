import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool writes: data on standard output, diagnostics on standard error.
enum Console {
    /// Writes `text` to standard output as it is (it carries its own newlines).
    static func output(_ text: String) {
        print(text, terminator: "")
        // Keep data and any diagnostic that follows in order when both go to one place.
        fflush(nil)
    }

    /// Writes one diagnostic line to standard error.
    static func diagnostic(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `Note: ...` on standard error.
    static func note(_ text: String) {
        diagnostic("Note: \(text)")
    }

    /// `Warning: ...` on standard error.
    static func warning(_ text: String) {
        diagnostic("Warning: \(text)")
    }

    /// Whether standard error is a terminal (progress bars are drawn only then).
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }
}
