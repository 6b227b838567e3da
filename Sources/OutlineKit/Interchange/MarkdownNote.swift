/// A note as it is read: Markdown lines relative to their item (the indentation of the item's
/// content removed), blank lines between them kept, escapes removed outside code and HTML
/// blocks (see ``MarkdownEscaping``).
struct MarkdownNoteReader {
    private(set) var lines: [String] = []
    private(set) var scanner = MarkdownBlockScanner()
    private var pendingBlanks = 0

    var isEmpty: Bool { lines.isEmpty }

    /// The note, or nil when it has no lines.
    var text: String? { lines.isEmpty ? nil : lines.joined(separator: "\n") }

    /// A blank line: kept when another line of the note follows (leading and trailing blank
    /// lines are not part of a note).
    mutating func addBlank() {
        if !lines.isEmpty { pendingBlanks += 1 }
        _ = scanner.feed("")
    }

    /// Adds a line that is not blank, which starts at column `offset` of the file.
    mutating func add(_ line: Substring, offset: Int) {
        lines.append(contentsOf: repeatElement("", count: pendingBlanks))
        pendingBlanks = 0
        let afterParagraph = scanner.inParagraph
        switch scanner.feed(line, offset: offset) {
        case .verbatim, .blank: lines.append(String(line))
        case .text: lines.append(MarkdownEscaping.unescape(line, .noteLine(afterParagraph: afterParagraph, unclosed: false)))
        }
    }

    /// Continues the note after the item's children: a new block, at least one blank line
    /// after what came before.
    mutating func resume() {
        if !lines.isEmpty { pendingBlanks = max(pendingBlanks, 1) }
        scanner.reset()
    }

    /// Takes back the lines from `count` on (a paragraph that turned out to be a setext heading).
    mutating func truncate(to count: Int) {
        lines.removeLast(max(0, lines.count - count))
        pendingBlanks = 0
        scanner.reset()
    }
}

/// Writes notes so that ``MarkdownNoteReader`` reads them back exactly.
enum MarkdownNoteWriter {
    /// Appends the lines of `note`, each after `indent` (spaces; blank lines left empty), escaped where
    /// they would read as structure. Leading and trailing blank lines are dropped (a reader
    /// cannot tell them from the spacing between blocks), and so are spaces on blank lines.
    static func write(_ note: String, indent: String, into output: inout String) {
        var lines = InterchangeText.lines(of: note)
        while let first = lines.first, MarkdownSyntax.isBlank(first) { lines.removeFirst() }
        while let last = lines.last, MarkdownSyntax.isBlank(last) { lines.removeLast() }
        let closers = Closers(lines)
        var scanner = MarkdownBlockScanner()
        let offset = indent.count
        for (index, line) in lines.enumerated() {
            if MarkdownSyntax.isBlank(line) {
                output += "\n"
                _ = scanner.feed("")
                continue
            }
            var probe = scanner
            let kind = probe.feed(line, offset: offset)
            let opens = probe.hasUnclosedBlock && probe.state != scanner.state
            let unclosed = opens && !closers.closes(probe.state, after: index)
            if kind == .verbatim && !unclosed {
                output += indent + line + "\n"
                scanner = probe
            } else {
                let written = MarkdownEscaping.escape(line, .noteLine(afterParagraph: scanner.inParagraph, unclosed: unclosed))
                output += indent + written + "\n"
                _ = scanner.feed(written[...], offset: offset)
            }
        }
    }

    /// For each line, whether a later line closes a code fence or an HTML block that ends at a
    /// marker: one backward pass, so that deciding is O(1) per opening line.
    private struct Closers {
        /// The longest closing fence of backticks (0) and tildes (1) after each line.
        private var fences: [[Int]] = [[], []]
        /// For each marker-ended HTML kind, whether a line after each one holds its end.
        private var html: [MarkdownBlocks.HTMLBlock: [Bool]] = [:]
        private static let kinds: [MarkdownBlocks.HTMLBlock] = [.rawText, .comment, .processingInstruction, .declaration, .cdata]

        init(_ lines: [Substring]) {
            guard lines.contains(where: { line in line.contains { $0 == "`" || $0 == "~" || $0 == "<" } }) else { return }
            let count = lines.count
            fences = [Array(repeating: 0, count: count), Array(repeating: 0, count: count)]
            for kind in Self.kinds { html[kind] = Array(repeating: false, count: count) }
            var best = [0, 0]
            var seen = Dictionary(uniqueKeysWithValues: Self.kinds.map { ($0, false) })
            for index in stride(from: count - 1, through: 0, by: -1) {
                fences[0][index] = best[0]
                fences[1][index] = best[1]
                for kind in Self.kinds { html[kind]![index] = seen[kind]! }
                let line = lines[index]
                let indentation = MarkdownSyntax.indentation(line)
                let rest = line[indentation.end...]
                if indentation.columns <= 3, let first = rest.first, first == "`" || first == "~" {
                    let run = rest.prefix { $0 == first }.count
                    if run >= 3, rest.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\t" }) {
                        let slot = first == "`" ? 0 : 1
                        best[slot] = max(best[slot], run)
                    }
                }
                for kind in Self.kinds where !seen[kind]! && kind.isEnded(by: line) { seen[kind] = true }
            }
        }

        /// Whether the block open in `state` after line `index` closes on a later line.
        func closes(_ state: MarkdownBlockScanner.State, after index: Int) -> Bool {
            switch state {
            case .fence(let fence):
                guard fences[0].count > index else { return false }
                return fences[fence.character == "`" ? 0 : 1][index] >= fence.length
            case .html(let kind):
                return html[kind]?[index] ?? false
            case .none, .paragraph, .indentedCode:
                return true
            }
        }
    }
}
