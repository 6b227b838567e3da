import Foundation
import OutlineStorage

extension MarkdownImporter {
    /// Whether one of the first lines is a Markdown heading, list item, HTML block, block quote
    /// or code fence, or the file starts with YAML front matter: how a
    /// text file without a telling extension is told apart from plain indented text.
    public static func looksLikeMarkdown(_ prefix: [UInt8], encoding: FileContent.TextEncoding) -> Bool {
        let text = InterchangeText.decodeLeniently(prefix, encoding: encoding)
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).prefix(40)
        if lines.first?.trimmingCharacters(in: .whitespaces) == "---" { return true }
        for line in lines {
            let indentation = MarkdownSyntax.indentation(line)
            let rest = line[indentation.end...]
            if MarkdownSyntax.listMarker(rest) != nil || MarkdownBlocks.atxHeading(rest) != nil
                || rest.first == "<" || rest.first == ">" || MarkdownBlocks.fenceOpening(rest) != nil
            {
                return true
            }
        }
        return false
    }
}
