import Foundation
import OutlineStorage

/// OPML fixtures and generated documents for the OPML tests.
enum OPMLFixtures {
    /// `Fixtures/OPML/`.
    static let folder = Fixtures.folder.appending(path: "OPML")

    static func url(_ name: String) -> URL { folder.appending(path: name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// Every fixture that reads without error (leniently).
    static let readable = [
        "OmniOutliner.opml", "Workflowy.opml", "Dynalist.opml", "OPMLEditor.opml", "FeedList.opml", "NoVersion.opml",
        "Latin1.opml", "LiteralNewlines.opml", "OneLine.opml", "ExpansionStateZeroBased.opml", "ExpansionStateInvalid.opml",
        "Namespaces.opml", "Oddities.opml", "NoBody.opml", "Values.opml", "ExternalDTD.opml",
    ]

    /// A chain of `depth` nested outlines, as one line of OPML.
    static func chain(depth: Int) -> Data {
        var text = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head/><body>\n"
        text.reserveCapacity(depth * 32)
        for level in 1 ... depth { text += "<outline text=\"\(level)\">" }
        text += String(repeating: "</outline>", count: depth)
        text += "\n</body></opml>\n"
        return Data(text.utf8)
    }

    /// A flat list of `count` outlines with a note each.
    static func flat(count: Int) -> Data {
        var text = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>Flat</title></head><body>\n"
        for index in 1 ... count { text += "<outline text=\"Item \(index)\" _note=\"Note &amp; line&#10;two\" n=\"\(index)\"/>\n" }
        text += "</body></opml>\n"
        return Data(text.utf8)
    }
}

extension OPMLOutline {
    /// `depth` and `name=value` pairs, for compact expectations.
    var summary: String {
        String(repeating: "  ", count: depth - 1) + attributes.map(\.description).joined(separator: " ")
    }
}
