import Foundation
import OutlineKit
import OutlineStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tool writes: data on standard output, diagnostics on standard error.
///
/// Writes go straight to the descriptors, so a failure is seen where it happens: a full disk
/// (`outline show doc.outline > /dev/full`) is an error (exit 1 with a message), while a reader
/// that went away (`outline show big.outline | head`) quietly ends the output, as a closed
/// pipe should.
enum Console {
    /// Standard output could not take what was written.
    struct OutputError: Error, CustomStringConvertible {
        var reason: String
        /// Whether the command had saved a file before the output failed.
        var afterSaving = AtomicFile.hasReplacedAFile
        var description: String {
            let saved = afterSaving ? ", but the change to the file was saved" : ""
            return "cannot write to standard output (\(reason)); the output is incomplete\(saved). "
                + "Check where the output goes (a full disk, a closed file)."
        }
    }

    /// Whether the reader of standard output went away; what follows is dropped.
    nonisolated(unsafe) private(set) static var outputClosed = false

    /// Writes `text` to standard output as it is (it carries its own newlines).
    ///
    /// - Throws: ``OutputError`` when standard output fails for any reason but a closed pipe.
    static func output(_ text: String) throws {
        var text = text
        try text.withUTF8 { try output(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` to standard output.
    ///
    /// - Throws: ``OutputError`` when standard output fails for any reason but a closed pipe.
    static func output(bytes: UnsafeRawBufferPointer) throws {
        guard !outputClosed, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(1, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR, EAGAIN:
                continue
            case EPIPE:
                outputClosed = true
                return
            default:
                throw OutputError(reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Writes `lines` (each gets a newline) to standard output.
    static func output(lines: [String]) throws {
        guard !lines.isEmpty else { return }
        try output(lines.joined(separator: "\n") + "\n")
    }

    /// Writes one diagnostic line (or several, separated by newlines) to standard error, with
    /// any other control character but tab shown escaped: messages quote texts from documents
    /// (a tab is harmless, and keeps a query's caret line aligned under the query).
    static func diagnostic(_ line: String) {
        let shown = line.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { ControlCharacters.escaped(String($0)) }.joined(separator: "\t")
        }.joined(separator: "\n")
        writeError(shown + "\n")
    }

    /// Writes `text` to standard error as it is; failures are ignored (there is nowhere left to report them).
    static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(2, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
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

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }
}
