import Foundation
import OutlineKit

/// The commands of an `outline batch` script: one command per line, split into words as a
/// POSIX shell splits them, so that a line reads as it would after `outline` and FILE.
///
/// - Words are separated by spaces and tabs.
/// - `'...'` keeps everything literally; `"..."` too, except that `\"`, `\\`, `\$` and `` \` ``
///   stand for the character after the backslash and a backslash before a line break joins the
///   lines; outside quotes a backslash keeps the next character literally. Quotes join the
///   word around them (`--note="a b"`), and `""` is an empty word. A quoted word may go on over
///   several lines (a note with line breaks); a backslash at the end of a line continues the
///   command on the next one.
/// - `#` at the start of a word begins a comment that runs to the end of the line; lines that
///   hold nothing else are skipped, as are blank ones.
///
/// No variables, globs or other shell expansions: `$HOME` and `*` are plain text.
public struct BatchScript: Sendable {
    /// One command: its words and where it is.
    public struct Command: Sendable, Hashable {
        /// The 1-based line the command starts on.
        public var line: Int
        /// Its words, the command's name first.
        public var words: [String]
        /// The command as written (its first line, for messages).
        public var text: String
        /// Whether a comment ends the command's line right after a word with a digit after its
        /// `#` (`move 2 --under #103`): most likely an `#ID` left unquoted, which messages say.
        public var commentLooksLikeID = false
    }

    /// The commands, in order.
    public var commands: [Command]

    /// Splits `text` into commands.
    ///
    /// - Parameter name: how messages name the script (`standard input`, a file name).
    /// - Throws: ``OutlineKit/OutlineError`` `nonconforming` for a quote that is never closed,
    ///   naming the line where it opens.
    /// - Complexity: O(length of `text`).
    public init(parsing text: String, name: String) throws {
        // A byte order mark some editors put first is not part of the first command.
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var commands: [Command] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var line = 1
        var commandLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        var commentLooksLikeID = false

        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty {
                let source = commandLine <= lines.count ? String(lines[commandLine - 1]) : ""
                commands.append(
                    Command(
                        line: commandLine, words: words, text: source.trimmingCharacters(in: .whitespaces),
                        commentLooksLikeID: commentLooksLikeID))
            }
            words = []
            commentLooksLikeID = false
        }
        /// Marks the start of a word, and of the command when it is its first.
        func startWord() {
            if words.isEmpty && !inWord { commandLine = line }
            inWord = true
        }

        while let scalar = next() {
            switch scalar {
            case "\n":
                endCommand()
                line += 1
            case " ", "\t", "\r":
                endWord()
            case "#" where !inWord:
                // A comment: skip to the end of the line, whose newline ends the command.
                var first = true
                while let skipped = next() {
                    if first && !words.isEmpty && ("0" ... "9").contains(skipped) { commentLooksLikeID = true }
                    first = false
                    if skipped == "\n" {
                        pending = skipped
                        break
                    }
                }
            case "\\":
                guard let escaped = next() else {
                    startWord()
                    word.unicodeScalars.append(scalar)
                    break
                }
                if escaped == "\n" {
                    line += 1  // the command goes on on the next line
                } else {
                    startWord()
                    word.unicodeScalars.append(escaped)
                }
            case "'", "\"":
                startWord()
                let opened = line
                var closed = false
                while let inner = next() {
                    if inner == scalar {
                        closed = true
                        break
                    }
                    if inner == "\n" { line += 1 }
                    if scalar == "\"", inner == "\\", let escaped = next() {
                        switch escaped {
                        case "\"", "\\", "$", "`":
                            word.unicodeScalars.append(escaped)
                            continue
                        case "\n":
                            line += 1  // a line continuation, as in a shell
                            continue
                        default:
                            pending = escaped
                        }
                    }
                    word.unicodeScalars.append(inner)
                }
                guard closed else {
                    throw OutlineError(
                        .nonconforming, file: name, at: "line \(opened)",
                        "the \(scalar == "'" ? "single" : "double") quote opened on this line is never closed",
                        hint: "Close the quote; a quoted text may span lines, but must end.")
                }
            default:
                startWord()
                word.unicodeScalars.append(scalar)
            }
        }
        endCommand()
        self.commands = commands
    }
}
