/// The line-level syntax of Markdown lists the outline reader and writer share: list markers,
/// task boxes and task markers, property lines, and indentation (a tab advances to the next
/// multiple of 4 columns, as CommonMark counts).
enum MarkdownSyntax {
    /// A list marker at the start of a line (after its indentation).
    struct ListMarker: Equatable {
        /// The marker's width: 1 for `-`, `*`, `+`; digits and `.` or `)` for ordered items.
        var length: Int
        /// The spaces after the marker that belong to it (1-4; 1 when the content starts with
        /// more than 4, as it is then indented code; 0 when the line ends after the marker).
        var spacing: Int
        /// The start number of an ordered item; nil for a bullet.
        var number: Int?
        /// Whether nothing follows the marker on its line.
        var isEmpty: Bool

        /// Whether the marker may start a list in the middle of a paragraph (CommonMark: a bullet
        /// or the number 1, with content).
        var canInterruptParagraph: Bool { !isEmpty && (number == nil || number == 1) }
    }

    /// A list marker at the start of `rest`: `-`, `*`, `+`, or 1-9 digits and `.` or `)`,
    /// followed by a space, a tab or the end of the line. A thematic break (`- - -`, `* * *`)
    /// is not a list item; callers check ``MarkdownBlocks/isThematicBreak(_:)`` first.
    static func listMarker(_ rest: Substring) -> ListMarker? {
        guard let first = rest.first else { return nil }
        var length: Int
        var number: Int?
        if first == "-" || first == "*" || first == "+" {
            length = 1
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1 ... 9).contains(digits.count) else { return nil }
            let after = rest.dropFirst(digits.count).first
            guard after == "." || after == ")" else { return nil }
            length = digits.count + 1
            number = Int(digits)
        }
        let tail = rest.dropFirst(length)
        guard let next = tail.first else { return ListMarker(length: length, spacing: 0, number: number, isEmpty: true) }
        guard next == " " || next == "\t" else { return nil }
        let blank = tail.allSatisfy { $0 == " " || $0 == "\t" }
        let spaces = tail.prefix { $0 == " " }.count
        return ListMarker(length: length, spacing: next == "\t" || blank ? 1 : (spaces > 4 ? 1 : spaces), number: number, isEmpty: blank)
    }

    /// A task box at the start of an item's content: `[ ]` or `[x]`/`[X]`, followed by a space,
    /// a tab or the end. Returns whether it is checked and the content after it.
    static func taskBox(_ content: Substring) -> (done: Bool, rest: Substring)? {
        guard content.prefix(3).count == 3, content.first == "[",
            content[content.index(content.startIndex, offsetBy: 2)] == "]"
        else { return nil }
        let mark = content[content.index(after: content.startIndex)]
        guard mark == " " || mark == "x" || mark == "X" else { return nil }
        let rest = content.dropFirst(3)
        if rest.isEmpty { return (mark != " ", rest) }
        guard rest.first == " " || rest.first == "\t" else { return nil }
        return (mark != " ", rest.dropFirst())
    }

    /// The task markers of Logseq and of org-style Markdown: the first word of an item.
    static let taskMarkers = ["TODO": false, "DONE": true]

    /// A task marker (`TODO` or `DONE`) at the start of an item's content, followed by a space,
    /// a tab or the end. Returns the marker, whether it means done, and the content after it.
    static func taskMarker(_ content: Substring) -> (marker: String, done: Bool, rest: Substring)? {
        for (marker, done) in taskMarkers where content.hasPrefix(marker) {
            let rest = content.dropFirst(marker.count)
            if rest.isEmpty { return (marker, done, rest) }
            if rest.first == " " || rest.first == "\t" { return (marker, done, rest.dropFirst()) }
        }
        return nil
    }

    /// A property line `key:: value` (Logseq's block properties, Dataview's inline fields): a
    /// key of letters, digits, `_`, `-` and `.` starting with a letter or `_`, two colons, and
    /// the value after one optional space. Returns the key and the value.
    static func propertyLine(_ rest: Substring) -> (key: String, value: String)? {
        guard let separator = propertyKeyEnd(rest), rest[separator...].hasPrefix("::") else { return nil }
        var value = rest[rest.index(separator, offsetBy: 2)...]
        if value.first == " " || value.first == "\t" { value = value.dropFirst() }
        return (String(rest[..<separator]), String(value))
    }

    /// Where the property key at the start of `rest` ends (at the first character that cannot be
    /// in a key); nil when `rest` does not start with a key.
    static func propertyKeyEnd(_ rest: Substring) -> Substring.Index? {
        guard let first = rest.first, first.isASCII, first.isLetter || first == "_" else { return nil }
        return rest.firstIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".")) } ?? rest.endIndex
    }

    /// Whether `key` can be written as a property line: a key ``propertyLine(_:)`` reads.
    static func isPropertyKey(_ key: String) -> Bool {
        let text = key[...]
        return !text.isEmpty && propertyKeyEnd(text) == text.endIndex
    }

    /// The columns of the indentation of `line` (a tab advances to the next multiple of 4,
    /// counting from column `offset`, where the line starts), where it ends, and whether it holds
    /// tabs and spaces.
    ///
    /// - Complexity: O(indentation), over the line's UTF-8 bytes.
    static func indentation(_ line: Substring, offset: Int = 0) -> (columns: Int, end: Substring.Index, tabs: Bool, spaces: Bool) {
        let bytes = line.utf8
        var columns = offset
        var tabs = false
        var spaces = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x20 {
                columns += 1
                spaces = true
            } else if byte == 0x09 {
                columns += 4 - columns % 4
                tabs = true
            } else {
                break
            }
            bytes.formIndex(after: &index)
        }
        return (columns - offset, index, tabs, spaces)
    }

    /// `line` without indentation worth `columns` columns (fewer if it has less). A tab that
    /// reaches past `columns` leaves the columns it has left as spaces, as CommonMark counts them.
    static func dropIndentation(_ line: Substring, columns: Int) -> Substring {
        let bytes = line.utf8
        var column = 0
        var index = bytes.startIndex
        while index < bytes.endIndex, column < columns {
            let byte = bytes[index]
            if byte == 0x20 {
                column += 1
            } else if byte == 0x09 {
                column += 4 - column % 4
            } else {
                break
            }
            bytes.formIndex(after: &index)
        }
        guard column > columns else { return line[index...] }
        return Substring(String(repeating: " ", count: column - columns) + line[index...])
    }

    /// Whether `line` holds only spaces and tabs.
    static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" }
    }
}
