import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Fixtures and readable summaries for the interchange tests.
enum InterchangeFixtures {
    /// The package's `Fixtures/` folder.
    static let folder = PackagePaths.fixtures

    static func opml(_ name: String) throws -> Data { try Data(contentsOf: folder.appending(path: "OPML/\(name)")) }
    static func markdown(_ name: String) throws -> Data { try Data(contentsOf: folder.appending(path: "Markdown/\(name)")) }
    static func text(_ name: String) throws -> Data { try Data(contentsOf: folder.appending(path: "Text/\(name)")) }

    /// The OPML fixtures that read without error.
    static let readableOPML = [
        "OmniOutliner.opml", "Workflowy.opml", "Dynalist.opml", "OPMLEditor.opml", "FeedList.opml", "NoVersion.opml",
        "Latin1.opml", "LiteralNewlines.opml", "OneLine.opml", "ExpansionStateZeroBased.opml", "ExpansionStateInvalid.opml",
        "Namespaces.opml", "Oddities.opml", "NoBody.opml", "Values.opml", "ExternalDTD.opml", "Categories.opml",
    ]

    static let markdownFixtures = [
        "Tasks.md", "FourSpaces.md", "Tabs.md", "Notes.md", "JumpTwoLevels.md", "MixedIndentation.md", "NotAList.md",
        "UnevenIndentation.md", "ReadmeWithHTML.md", "Changelog.md", "LogseqPage.md", "FrontMatter.md", "SkippedLevels.md",
        "ItemParagraphs.md", "TextOnly.md",
    ]

    static let textFixtures = ["Tabs.txt", "Spaces.txt", "JumpTwoLevels.txt", "MixedIndentation.txt", "CRLF.txt"]
}

extension OutlineDocument {
    /// One line per item: indentation, text, then `[x]` when done, `[+]` when collapsed and the
    /// note, so that expectations read like the outline.
    var summary: [String] {
        var lines: [String] = []
        walk { item, depth in
            var line = String(repeating: "  ", count: depth - 1) + (text(of: item) ?? "∅")
            if isDone(item) { line += " [x]" }
            if isCollapsed(item) { line += " [+]" }
            if let note = note(of: item) { line += " note=\(note.debugDescription)" }
            lines.append(line)
            return true
        }
        return lines
    }

    /// Everything an item holds that OPML round trips must keep, one line per item.
    var fullSummary: [String] {
        var lines: [String] = []
        walk { item, depth in
            var line = "\(depth) \(text(of: item).debugDescription) note=\(note(of: item).debugDescription) done=\(isDone(item))"
            line += " collapsed=\(isCollapsed(item)) created=\(created(of: item).flatMap { RFC822Date.format($0) } ?? "-")"
            line += " extra=\((try? extraAttributes(of: item))??.entries.description ?? "-")"
            lines.append(line)
            return true
        }
        return lines
    }

    /// The items in document order.
    var items: [ManagedObject] {
        var result: [ManagedObject] = []
        walk { item, _ in
            result.append(item)
            return true
        }
        return result
    }
}

extension Data {
    var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

extension OPMLOutline {
    /// `depth` and `name=value` pairs, for compact expectations.
    var summary: String {
        String(repeating: "  ", count: depth - 1) + attributes.map(\.description).joined(separator: " ")
    }
}
