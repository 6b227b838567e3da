/// The bits of Markdown syntax the outline reader and writer share: list markers, task boxes,
/// and the escapes that keep an item's text from reading as markup.
///
/// ## Escaping
/// Item text and note lines are Markdown source and are written as they are, except:
/// - A line whose first non-blank character is `\ - * + # > [` gets a backslash before it, and
///   a line that starts with digits followed by `.` or `)` (after any backslashes) gets one
///   more backslash before that punctuation (`1\. not a list`). Reading removes exactly one.
/// - The last line of an item's text that ends in backslashes has their number doubled; a
///   text line followed by another one (a newline in the text) ends in one more backslash, a
///   Markdown hard line break. Reading halves the run and treats an odd one as a line break.
/// Both are CommonMark escapes, so other Markdown readers show the same text.
enum MarkdownSyntax {
    /// Characters that would make the start of a line markup.
    static let blockStarts: Set<Character> = ["\\", "-", "*", "+", "#", ">", "["]

    /// A list marker at the start of `rest` (after indentation): `-`, `*`, `+`, `1.` or `1)`,
    /// followed by a space, a tab or the end of the line. Returns the marker's length and the
    /// number of spaces after it that belong to the marker (1–4, or 0 at the end of the line).
    static func listMarker(_ rest: Substring) -> (length: Int, spacing: Int)? {
        guard let first = rest.first else { return nil }
        var length: Int
        if first == "-" || first == "*" || first == "+" {
            length = 1
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1 ... 9).contains(digits.count) else { return nil }
            let after = rest.dropFirst(digits.count).first
            guard after == "." || after == ")" else { return nil }
            length = digits.count + 1
        }
        let tail = rest.dropFirst(length)
        guard let next = tail.first else { return (length, 0) }
        guard next == " " || next == "\t" else { return nil }
        let spaces = tail.prefix { $0 == " " }.count
        return (length, next == "\t" ? 1 : (spaces > 4 ? 1 : spaces))
    }

    /// A task box at the start of an item's content: `[ ]` or `[x]`/`[X]`, followed by a space
    /// or the end. Returns whether it is checked and the content after it.
    static func taskBox(_ content: Substring) -> (done: Bool, rest: Substring)? {
        guard content.count >= 3, content.first == "[",
              content[content.index(content.startIndex, offsetBy: 2)] == "]" else { return nil }
        let mark = content[content.index(after: content.startIndex)]
        guard mark == " " || mark == "x" || mark == "X" else { return nil }
        let rest = content.dropFirst(3)
        if rest.isEmpty { return (mark != " ", rest) }
        guard rest.first == " " else { return nil }
        return (mark != " ", rest.dropFirst())
    }

    /// `line` with its start escaped (see the type's documentation).
    static func escapeStart(_ line: Substring) -> String {
        guard let start = line.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return String(line) }
        if blockStarts.contains(line[start]) {
            return String(line[..<start]) + "\\" + line[start...]
        }
        let digitsEnd = line[start...].firstIndex { !($0.isASCII && $0.isNumber) } ?? line.endIndex
        guard digitsEnd > start else { return String(line) }
        let punctuation = line[digitsEnd...].firstIndex { $0 != "\\" } ?? line.endIndex
        guard punctuation < line.endIndex, line[punctuation] == "." || line[punctuation] == ")" else { return String(line) }
        return String(line[..<digitsEnd]) + "\\" + line[digitsEnd...]
    }

    /// The inverse of ``escapeStart(_:)``.
    static func unescapeStart(_ line: Substring) -> String {
        guard let start = line.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return String(line) }
        let next = line.index(after: start)
        if line[start] == "\\", next < line.endIndex, blockStarts.contains(line[next]) {
            return String(line[..<start]) + line[next...]
        }
        let digitsEnd = line[start...].firstIndex { !($0.isASCII && $0.isNumber) } ?? line.endIndex
        guard digitsEnd > start, digitsEnd < line.endIndex, line[digitsEnd] == "\\" else { return String(line) }
        let punctuation = line[digitsEnd...].firstIndex { $0 != "\\" } ?? line.endIndex
        guard punctuation < line.endIndex, line[punctuation] == "." || line[punctuation] == ")" else { return String(line) }
        return String(line[..<digitsEnd]) + line[line.index(after: digitsEnd)...]
    }

    /// `line` with its trailing backslashes doubled and, when `lineBreak`, one more.
    static func escapeEnd(_ line: String, lineBreak: Bool) -> String {
        let run = line.reversed().prefix { $0 == "\\" }.count
        return line + String(repeating: "\\", count: run + (lineBreak ? 1 : 0))
    }

    /// The inverse of ``escapeEnd(_:lineBreak:)``: the line and whether it ends in a line break.
    static func unescapeEnd(_ line: Substring) -> (text: Substring, lineBreak: Bool) {
        let run = line.reversed().prefix { $0 == "\\" }.count
        return (line.dropLast(run - run / 2), run % 2 == 1)
    }

    /// The columns and characters of the indentation of `line` (a tab advances to the next
    /// multiple of 4), and whether it holds tabs and spaces.
    static func indentation(_ line: Substring) -> (columns: Int, characters: Int, tabs: Bool, spaces: Bool) {
        var columns = 0, characters = 0
        var tabs = false, spaces = false
        for character in line {
            if character == " " {
                columns += 1
                spaces = true
            } else if character == "\t" {
                columns += 4 - columns % 4
                tabs = true
            } else {
                break
            }
            characters += 1
        }
        return (columns, characters, tabs, spaces)
    }

    /// `line` without indentation worth `columns` columns (fewer if it has less).
    static func dropIndentation(_ line: Substring, columns: Int) -> Substring {
        var column = 0
        var index = line.startIndex
        while index < line.endIndex, column < columns {
            if line[index] == " " {
                column += 1
            } else if line[index] == "\t" {
                column += 4 - column % 4
            } else {
                break
            }
            index = line.index(after: index)
        }
        return line[index...]
    }
}
