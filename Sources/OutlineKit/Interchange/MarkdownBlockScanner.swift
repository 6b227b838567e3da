/// Follows the leaf blocks of a run of Markdown lines (a note, the text of a document before
/// its first heading), so that the reader and the writer agree on which lines are verbatim
/// (inside a code block or an HTML block, never escaped) and which are paragraph text.
///
/// Lines are given relative to their container (the indentation of the item's content
/// removed), with the column their container starts at. The reader feeds the lines as read;
/// the writer feeds the lines as written, so both see the same states.
struct MarkdownBlockScanner: Equatable {
    /// The block the last line left open.
    enum State: Equatable {
        /// Nothing (the start, or after a blank line or a one-line block).
        case none
        /// Paragraph text; `quote` when it is inside a block quote (`>` lines and their lazy
        /// continuations).
        case paragraph(quote: Bool)
        /// A fenced code block.
        case fence(MarkdownBlocks.Fence)
        /// An HTML block.
        case html(MarkdownBlocks.HTMLBlock)
        /// An indented code block (4 or more columns after a blank line).
        case indentedCode
    }

    /// What a line was.
    enum Line: Equatable {
        /// Empty or only white space.
        case blank
        /// Inside (or opening or closing) a code block or an HTML block: kept exactly.
        case verbatim
        /// Text: paragraph lines, headings, thematic breaks, block quotes.
        case text
    }

    private(set) var state: State = .none

    /// Whether the last line was paragraph text, which the next one may continue.
    var inParagraph: Bool {
        if case .paragraph = state { true } else { false }
    }

    /// Whether the scanner is inside a code block or an HTML block.
    var inVerbatimBlock: Bool {
        switch state {
        case .fence, .html, .indentedCode: true
        case .none, .paragraph: false
        }
    }

    /// Whether a code fence or an HTML block that ends at a marker is open (it would swallow
    /// whatever follows in its container).
    var hasUnclosedBlock: Bool {
        switch state {
        case .fence: true
        case .html(let kind): !kind.endsAtBlankLine
        case .none, .paragraph, .indentedCode: false
        }
    }

    /// What `line` is, given the lines before it; advances past it. `offset` is the column
    /// where the line starts in the file (the indentation of its container), which decides how
    /// wide a leading tab is.
    mutating func feed(_ line: Substring, offset: Int = 0) -> Line {
        let indentation = MarkdownSyntax.indentation(line, offset: offset)
        let rest = line[indentation.end...]
        let blank = rest.allSatisfy { $0 == " " || $0 == "\t" }
        switch state {
        case .fence(let fence):
            if !blank, indentation.columns <= 3, fence.isClosed(by: rest) { state = .none }
            return .verbatim
        case .html(let kind):
            if kind.endsAtBlankLine {
                if blank {
                    state = .none
                    return .blank
                }
            } else if kind.isEnded(by: line) {
                state = .none
            }
            return .verbatim
        case .indentedCode:
            if blank { return .blank }
            if indentation.columns >= 4 { return .verbatim }
            state = .none
        case .none, .paragraph:
            break
        }
        if blank {
            state = .none
            return .blank
        }
        if indentation.columns >= 4 {
            if inParagraph { return .text }
            state = .indentedCode
            return .verbatim
        }
        if let fence = MarkdownBlocks.fenceOpening(rest) {
            state = .fence(fence)
            return .verbatim
        }
        if let kind = MarkdownBlocks.htmlBlockStart(rest, canBeOther: !inParagraph) {
            state = !kind.endsAtBlankLine && kind.isEnded(by: line) ? .none : .html(kind)
            return .verbatim
        }
        if MarkdownBlocks.atxHeading(rest) != nil || MarkdownBlocks.isThematicBreak(rest)
            || (inParagraph && MarkdownBlocks.setextUnderline(rest) != nil)
        {
            state = .none
            return .text
        }
        if rest.first == ">" {
            state = .paragraph(quote: true)
        } else if case .paragraph(let quote) = state {
            state = .paragraph(quote: quote)
        } else {
            state = .paragraph(quote: false)
        }
        return .text
    }

    /// Starts afresh, as after a blank line (a note resumed after its item's children).
    mutating func reset() {
        state = .none
    }
}
