import Foundation
import OutlineStorage

extension MarkdownImporter {
    /// Whether the first line that is not blank is a Markdown heading, list item, HTML block,
    /// block quote or code fence, or starts YAML front matter: how a text file without a
    /// telling extension is told apart from plain indented text.
    ///
    /// Only the first line counts: an outline in Markdown starts with its first heading or list
    /// item, and a plain text outline whose later items begin with `- ` or `# ` (texts the tool
    /// writes as they are) must not be read as Markdown, which would make them list items or
    /// headings and merge the plain lines around them into notes.
    public static func looksLikeMarkdown(_ prefix: [UInt8], encoding: FileContent.TextEncoding) -> Bool {
        let text = InterchangeText.decodeLeniently(prefix, encoding: encoding)
        guard
            let line = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
                .first(where: { !$0.allSatisfy(\.isWhitespace) })
        else { return false }
        if line.trimmingCharacters(in: .whitespaces) == "---" { return true }
        let rest = line[MarkdownSyntax.indentation(line).end...]
        return MarkdownSyntax.listMarker(rest) != nil || MarkdownBlocks.atxHeading(rest) != nil
            || rest.first == "<" || rest.first == ">" || MarkdownBlocks.fenceOpening(rest) != nil
    }
}
