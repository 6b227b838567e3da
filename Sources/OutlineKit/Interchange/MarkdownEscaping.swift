/// The backslash escapes that keep an item's text and note from reading back as structure.
///
/// Texts and notes hold Markdown source, written as it is, except where a line would read as
/// something else: a note line that starts a list item, a heading or (after a paragraph line) a
/// setext underline; a text line after the first that starts any block or is a property line; a
/// first line that starts with a task box, a task marker, a code fence or an HTML block. Such a
/// line gets one backslash, a CommonMark escape, so other Markdown readers show the same text:
///
/// - before its first character (`\- not an item`, `\# not a heading`, `\TODO`), or
/// - for an ordered-list marker, before its punctuation (`1\. not a list`), or
/// - for a property line, before the colons (`key\:: not a property`).
///
/// A line that already has backslashes in that place gets one more, so reading removes exactly
/// one whenever the line without its backslashes there would be structure: the mapping is
/// one-to-one and every text reads back exactly. Lines inside code blocks and HTML blocks of a
/// note are never escaped.
enum MarkdownEscaping {
    /// Where a line is written.
    enum Place {
        /// The first line of a list item's text, after the marker (and task box).
        case itemFirstLine
        /// The text of an ATX heading (the closing `#` are handled by ``escapeClosingHashes(_:)``).
        case headingText
        /// A line of a text after its first: a continuation of the item's paragraph.
        case textLine
        /// The first line of a setext heading's text, which starts a paragraph of its own.
        case setextFirstLine
        /// A note line outside code and HTML blocks; `afterParagraph` when the line before it is
        /// paragraph text, `unclosed` when a code fence or HTML comment it opens never closes.
        case noteLine(afterParagraph: Bool, unclosed: Bool)
    }

    /// `line` as written at `place`.
    static func escape(_ line: Substring, _ place: Place) -> String {
        let form = Form(line)
        if let position = form.position(place, escaping: true) {
            return String(line[..<position]) + "\\" + line[position...]
        }
        return String(line)
    }

    /// The inverse of ``escape(_:_:)``: `line` as read at `place`.
    static func unescape(_ line: Substring, _ place: Place) -> String {
        let form = Form(line)
        if let position = form.position(place, escaping: false) {
            return String(line[..<position]) + line[line.index(after: position)...]
        }
        return String(line)
    }

    /// `text` with one more backslash before a trailing run of `#` that an ATX heading would
    /// take for its closing sequence (one after white space, or the whole text), counting
    /// backslashes already there.
    static func escapeClosingHashes(_ text: String) -> String {
        guard let (position, _) = closingHashes(text[...]) else { return text }
        return String(text[..<position]) + "\\" + text[position...]
    }

    /// The inverse of ``escapeClosingHashes(_:)``, for the content of an ATX heading.
    static func unescapeClosingHashes(_ text: Substring) -> Substring {
        guard let (position, backslashes) = closingHashes(text), backslashes > 0 else { return text }
        return text[..<position] + text[text.index(after: position)...]
    }

    /// Where the backslashes before a trailing `#` run start, and how many there are, when the
    /// text before them is empty or ends in white space.
    private static func closingHashes(_ text: Substring) -> (Substring.Index, Int)? {
        let hashes = text.reversed().prefix { $0 == "#" }.count
        guard hashes > 0 else { return nil }
        let beforeHashes = text.dropLast(hashes)
        let backslashes = beforeHashes.reversed().prefix { $0 == "\\" }.count
        let before = beforeHashes.dropLast(backslashes)
        guard before.isEmpty || before.last == " " || before.last == "\t" else { return nil }
        return (before.endIndex, backslashes)
    }

    /// A line taken apart at the places an escape can go.
    private struct Form {
        let line: Substring
        /// After the leading spaces and tabs.
        let body: Substring
        /// The backslashes at the start of `body`.
        let leading: Int
        /// `body` without them.
        let unescaped: Substring

        init(_ line: Substring) {
            self.line = line
            body = line.drop { $0 == " " || $0 == "\t" }
            leading = body.prefix { $0 == "\\" }.count
            unescaped = body.dropFirst(leading)
        }

        /// Where a backslash goes in (`escaping`) or comes out, or nil.
        func position(_ place: Place, escaping: Bool) -> Substring.Index? {
            // 1. Before the first character (never before a digit: `\1` is no CommonMark escape).
            let startsWithDigit = unescaped.first.map { $0.isASCII && $0.isNumber } ?? false
            if !startsWithDigit {
                if (escaping || leading > 0) && Form.isStructure(unescaped, backslashes: leading, place) { return body.startIndex }
                return leading == 0 ? propertyPosition(place, escaping: escaping) : nil
            }
            // 2. Before the punctuation of an ordered-list marker.
            guard leading == 0 else { return nil }
            let digits = body.prefix { $0.isASCII && $0.isNumber }
            let afterDigits = body[digits.endIndex...]
            let slashes = afterDigits.prefix { $0 == "\\" }.count
            let rest = afterDigits.dropFirst(slashes)
            guard rest.first == "." || rest.first == ")", escaping || slashes > 0 else { return nil }
            let marker = digits + rest
            guard let list = MarkdownSyntax.listMarker(marker[...]), list.number != nil else { return nil }
            switch place {
            case .itemFirstLine, .headingText: return nil
            case .textLine, .setextFirstLine, .noteLine: return digits.endIndex
            }
        }

        /// Before the colons of a property line, in a text's lines after the first.
        private func propertyPosition(_ place: Place, escaping: Bool) -> Substring.Index? {
            switch place {
            case .textLine, .setextFirstLine: break
            case .itemFirstLine, .headingText, .noteLine: return nil
            }
            guard let keyEnd = MarkdownSyntax.propertyKeyEnd(body) else { return nil }
            let slashes = body[keyEnd...].prefix { $0 == "\\" }.count
            guard escaping || slashes > 0, body[keyEnd...].dropFirst(slashes).hasPrefix("::") else { return nil }
            return keyEnd
        }

        /// Whether `u` (a line after its indentation and `backslashes` escaping backslashes)
        /// would be read as something other than text at `place`.
        static func isStructure(_ u: Substring, backslashes: Int, _ place: Place) -> Bool {
            switch place {
            case .itemFirstLine, .headingText:
                return startsItemContent(u)
            case .textLine:
                return startsBlock(u)
            case .setextFirstLine:
                return startsItemContent(u) || startsBlock(u)
            case .noteLine(let afterParagraph, let unclosed):
                if afterParagraph && MarkdownBlocks.setextUnderline(u) != nil { return true }
                if MarkdownBlocks.isThematicBreak(u) { return false }
                if MarkdownSyntax.listMarker(u) != nil || MarkdownBlocks.atxHeading(u) != nil { return true }
                let opens =
                    MarkdownBlocks.fenceOpening(u) != nil
                    || MarkdownBlocks.htmlBlockStart(u, canBeOther: false).map { !$0.endsAtBlankLine } == true
                return opens && (backslashes > 0 || unclosed)
            }
        }

        /// A task box, a task marker, a code fence or an HTML block: what the first line of an
        /// item's content would be taken for; or dashes that would make `- ` and it a thematic
        /// break.
        static func startsItemContent(_ u: Substring) -> Bool {
            MarkdownSyntax.taskBox(u) != nil || MarkdownSyntax.taskMarker(u) != nil
                || MarkdownBlocks.fenceOpening(u) != nil || MarkdownBlocks.htmlBlockStart(u) != nil
                || (u.first == "-" && MarkdownBlocks.isThematicBreak(("- " + u)[...]))
        }

        /// Anything that ends a paragraph or is not paragraph text: an empty line, a list item, a
        /// heading, a thematic break, a setext underline, a fence, a block quote, an HTML block.
        static func startsBlock(_ u: Substring) -> Bool {
            u.isEmpty || MarkdownSyntax.listMarker(u) != nil || MarkdownBlocks.interruptsParagraph(u)
        }
    }
}
