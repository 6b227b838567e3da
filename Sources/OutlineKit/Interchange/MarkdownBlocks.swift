/// Recognisers for the CommonMark (and GitHub-flavoured) blocks the outline reader tells apart:
/// headings, thematic breaks, code fences and HTML blocks. Each looks at `rest`, a line after its
/// indentation; callers check that the indentation allows the block (at most 3 columns).
enum MarkdownBlocks {
    /// An ATX heading: 1-6 `#` followed by a space, a tab or the end. Returns the level and the
    /// content without leading and trailing white space and without a closing sequence of `#`
    /// (one preceded by white space, or the whole content).
    static func atxHeading(_ rest: Substring) -> (level: Int, content: Substring)? {
        let hashes = rest.prefix { $0 == "#" }.count
        guard (1 ... 6).contains(hashes) else { return nil }
        var content = rest.dropFirst(hashes)
        guard content.isEmpty || content.first == " " || content.first == "\t" else { return nil }
        content = trimmed(content)
        let closing = content.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let before = content.dropLast(closing)
            if before.isEmpty {
                content = before
            } else if before.last == " " || before.last == "\t" {
                content = trimmed(before)
            }
        }
        return (hashes, content)
    }

    /// A setext heading underline: `=` characters (level 1) or `-` characters (level 2), then
    /// only spaces or tabs.
    static func setextUnderline(_ rest: Substring) -> Int? {
        guard let first = rest.first, first == "=" || first == "-" else { return nil }
        let run = rest.prefix { $0 == first }
        guard rest.dropFirst(run.count).allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        return first == "=" ? 1 : 2
    }

    /// A thematic break: three or more `-`, `*` or `_` (the same one), with only spaces or tabs
    /// between and after them.
    static func isThematicBreak(_ rest: Substring) -> Bool {
        guard let first = rest.first, first == "-" || first == "*" || first == "_" else { return false }
        var count = 0
        for character in rest {
            if character == first {
                count += 1
            } else if character != " " && character != "\t" {
                return false
            }
        }
        return count >= 3
    }

    /// An opening code fence: three or more backticks or tildes (an info string after backticks
    /// may not hold a backtick).
    static func fenceOpening(_ rest: Substring) -> Fence? {
        guard let first = rest.first, first == "`" || first == "~" else { return nil }
        let length = rest.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        if first == "`" && rest.dropFirst(length).contains("`") { return nil }
        return Fence(character: first, length: length)
    }

    /// A code fence: its character and length.
    struct Fence: Equatable {
        var character: Character
        var length: Int

        /// Whether `rest` closes this fence: at least as many of the same character, then only
        /// spaces or tabs.
        func isClosed(by rest: Substring) -> Bool {
            let run = rest.prefix { $0 == character }.count
            return run >= length && rest.dropFirst(run).allSatisfy { $0 == " " || $0 == "\t" }
        }
    }

    /// The seven kinds of HTML block, by how they end.
    enum HTMLBlock: Equatable {
        /// `<script`, `<pre`, `<style`, `<textarea`: ends at the line holding the closing tag.
        case rawText
        /// `<!--`: ends at `-->`.
        case comment
        /// `<?`: ends at `?>`.
        case processingInstruction
        /// `<!` and a letter: ends at `>`.
        case declaration
        /// `<![CDATA[`: ends at `]]>`.
        case cdata
        /// A block-level tag (`<div`, `<p`, `</table`, ...): ends at a blank line.
        case blockTag
        /// Any other complete tag alone on its line: ends at a blank line; cannot interrupt a
        /// paragraph.
        case otherTag

        /// Whether the block ends at the first blank line (after the last line holding it).
        var endsAtBlankLine: Bool { self == .blockTag || self == .otherTag }

        /// Whether `line` (any part of it) ends a block of this kind that ends at a marker.
        func isEnded(by line: Substring) -> Bool {
            switch self {
            case .rawText:
                let lower = line.lowercased()
                return ["</script>", "</pre>", "</style>", "</textarea>"].contains { lower.contains($0) }
            case .comment: return line.contains("-->")
            case .processingInstruction: return line.contains("?>")
            case .declaration: return line.contains(">")
            case .cdata: return line.contains("]]>")
            case .blockTag, .otherTag: return false
            }
        }
    }

    /// The HTML block `rest` starts, if any; `.otherTag` only when `canBeOther` (it cannot
    /// interrupt a paragraph).
    static func htmlBlockStart(_ rest: Substring, canBeOther: Bool = true) -> HTMLBlock? {
        guard rest.first == "<" else { return nil }
        let after = rest.dropFirst()
        if after.hasPrefix("!--") { return .comment }
        if after.hasPrefix("?") { return .processingInstruction }
        if after.hasPrefix("![CDATA[") { return .cdata }
        if after.first == "!", let letter = after.dropFirst().first, letter.isASCII, letter.isLetter { return .declaration }
        let closing = after.first == "/"
        let nameStart = closing ? after.dropFirst() : after
        let name = nameStart.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }.lowercased()
        let next = nameStart.dropFirst(name.count)
        let ends = next.isEmpty || next.first == " " || next.first == "\t" || next.first == ">" || next.hasPrefix("/>")
        if !closing, ends, ["script", "pre", "style", "textarea"].contains(name) { return .rawText }
        if ends, blockTagNames.contains(name) { return .blockTag }
        if canBeOther, isCompleteTagLine(rest), !["script", "pre", "style", "textarea"].contains(name) { return .otherTag }
        return nil
    }

    /// The tag names of HTML blocks that end at a blank line (CommonMark 0.31, start condition 6).
    static let blockTagNames: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// Whether `rest` is one complete open tag (`<name attr="value" ...>` or `/>`) or closing tag
    /// (`</name>`), followed only by spaces or tabs.
    static func isCompleteTagLine(_ rest: Substring) -> Bool {
        var scanner = TagScanner(text: rest)
        guard scanner.take("<") else { return false }
        let closing = scanner.take("/")
        guard scanner.takeName(first: { $0.isLetter }, rest: { $0.isLetter || $0.isNumber || $0 == "-" }) else { return false }
        if closing {
            scanner.skipSpace()
            guard scanner.take(">") else { return false }
        } else {
            while true {
                let spaced = scanner.skipSpace()
                if scanner.take(">") || (scanner.take("/") && scanner.take(">")) { break }
                guard spaced,
                    scanner.takeName(
                        first: { $0.isLetter || $0 == "_" || $0 == ":" },
                        rest: { $0.isLetter || $0.isNumber || "_.:-".contains($0) })
                else { return false }
                let beforeValue = scanner.index
                scanner.skipSpace()
                if scanner.take("=") {
                    scanner.skipSpace()
                    guard scanner.takeAttributeValue() else { return false }
                } else {
                    scanner.index = beforeValue
                }
            }
        }
        return scanner.text[scanner.index...].allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// Whether `rest` ends a paragraph it follows (other than by being a list item): a heading,
    /// a setext underline, a thematic break, a code fence, a block quote or an HTML block that
    /// may interrupt a paragraph.
    static func interruptsParagraph(_ rest: Substring) -> Bool {
        isThematicBreak(rest) || atxHeading(rest) != nil || setextUnderline(rest) != nil || fenceOpening(rest) != nil
            || rest.first == ">" || htmlBlockStart(rest, canBeOther: false) != nil
    }

    /// `text` without leading spaces and tabs.
    static func trimmedLeading(_ text: Substring) -> Substring {
        text.drop { $0 == " " || $0 == "\t" }
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text[start...].lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start ..< end]
    }
}

/// A cursor over one line, for ``MarkdownBlocks/isCompleteTagLine(_:)``.
private struct TagScanner {
    let text: Substring
    var index: Substring.Index

    init(text: Substring) {
        self.text = text
        index = text.startIndex
    }

    mutating func take(_ character: Character) -> Bool {
        guard index < text.endIndex, text[index] == character else { return false }
        index = text.index(after: index)
        return true
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = index
        while index < text.endIndex, text[index] == " " || text[index] == "\t" { index = text.index(after: index) }
        return index > start
    }

    mutating func takeName(first: (Character) -> Bool, rest: (Character) -> Bool) -> Bool {
        guard index < text.endIndex, text[index].isASCII, first(text[index]) else { return false }
        index = text.index(after: index)
        while index < text.endIndex, text[index].isASCII, rest(text[index]) { index = text.index(after: index) }
        return true
    }

    mutating func takeAttributeValue() -> Bool {
        guard index < text.endIndex else { return false }
        let quote = text[index]
        if quote == "\"" || quote == "'" {
            guard let end = text[text.index(after: index)...].firstIndex(of: quote) else { return false }
            index = text.index(after: end)
            return true
        }
        let start = index
        while index < text.endIndex, !" \t\"'=<>`".contains(text[index]) { index = text.index(after: index) }
        return index > start
    }
}
