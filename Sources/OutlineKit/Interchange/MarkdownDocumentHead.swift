import OutlineStorage

/// What a Markdown file holds besides its items, kept in the document's head (``OPMLHead``,
/// stored in the document's metadata) so that exports write it back:
///
/// - YAML front matter (a first line `---`, up to the next `---` or `...` line), verbatim in
///   the field ``frontMatterField``; a `title:` in it is also the head's `title`.
/// - The text before the first heading or list item (HTML blocks, badges, paragraphs), as
///   Markdown in the field ``preambleField``.
///
/// A head with a title and no front matter (a document read from OPML) is written as front
/// matter holding just the title, which reads back as the same title.
enum MarkdownDocumentHead {
    /// The head field holding YAML front matter, delimiter lines included.
    static let frontMatterField = "markdownFrontMatter"
    /// The head field holding the Markdown before the first heading or list item.
    static let preambleField = "markdownPreamble"

    /// The number of lines of front matter at the start of `lines` (delimiters included), or 0.
    static func frontMatterLength(_ lines: [Substring]) -> Int {
        guard let first = lines.first, MarkdownBlocks.trimmed(first) == "---" else { return 0 }
        for index in lines.indices.dropFirst() where ["---", "..."].contains(MarkdownBlocks.trimmed(lines[index])) {
            return index + 1
        }
        return 0
    }

    /// The `title` at the top level of YAML front matter, when it is a plain, single-quoted or
    /// double-quoted scalar on one line.
    static func title(inFrontMatter lines: ArraySlice<Substring>) -> String? {
        for line in lines where line.hasPrefix("title:") {
            let value = MarkdownBlocks.trimmed(line.dropFirst("title:".count))
            if value.isEmpty { return nil }
            if value.first == "\"" { return doubleQuoted(value) }
            if value.first == "'" {
                guard value.count >= 2, value.last == "'" else { return nil }
                return value.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
            }
            if "|>&*!%@`[{".contains(value.first!) { return nil }
            let comment = value.range(of: " #")?.lowerBound ?? value.endIndex
            return String(MarkdownBlocks.trimmed(value[..<comment]))
        }
        return nil
    }

    /// Front matter holding only `title`, as a double-quoted YAML scalar.
    static func frontMatter(title: String) -> String {
        var quoted = "\""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return "---\ntitle: \(quoted)\"\n---"
    }

    /// A YAML double-quoted scalar's value; nil when it does not end on its line or holds an
    /// escape this reader does not know.
    private static func doubleQuoted(_ value: Substring) -> String? {
        var result = ""
        var scalars = value.unicodeScalars.dropFirst()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                return MarkdownBlocks.trimmed(String(String.UnicodeScalarView(scalars))[...]).isEmpty ? result : nil
            case "\\":
                guard let escape = scalars.popFirst() else { return nil }
                switch escape {
                case "\"", "\\", "/": result.unicodeScalars.append(escape)
                case "n": result += "\n"
                case "r": result += "\r"
                case "t": result += "\t"
                case "0": result += "\0"
                case "x", "u", "U":
                    let count = escape == "x" ? 2 : escape == "u" ? 4 : 8
                    let digits = String(String.UnicodeScalarView(scalars.prefix(count)))
                    guard digits.count == count, let code = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(code) else { return nil }
                    scalars = scalars.dropFirst(count)
                    result.unicodeScalars.append(decoded)
                default: return nil
                }
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return nil
    }
}
