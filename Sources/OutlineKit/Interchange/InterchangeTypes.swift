import Foundation
import OutlineEngine
import OutlineStorage

/// How to import an OPML, Markdown or plain-text file.
public struct ImportOptions: Sendable {
    /// Throw the first warning as an error instead of returning it.
    public var strict: Bool
    /// The schema of the new document; nil means the current outline schema. Older versions
    /// lack notes, done state or kept OPML attributes; what they cannot hold is dropped with a
    /// warning.
    public var schema: Schema?
    /// The deepest nesting accepted (1 = top-level items), in
    /// 1...`OPMLReader.Options.depthCeiling`; deeper files are refused with an error.
    public var maxDepth: Int

    /// Options for importing; by default lenient, into the current schema, with OPML's default
    /// depth limit.
    public init(strict: Bool = false, schema: Schema? = nil, maxDepth: Int = OPMLReader.Options.defaultMaxDepth) {
        self.strict = strict
        self.schema = schema
        self.maxDepth = maxDepth
    }
}

/// A document read from an interchange file, with what the file said besides its items.
public struct ImportedOutline {
    /// The new document: items in file order, siblings' `order` 0…n-1, nothing to undo, no
    /// unsaved changes.
    public let document: OutlineDocument
    /// OPML: the version, the `<opml>` attributes and the head fields in file order, to keep in
    /// the document's metadata (see `OPMLHead.propertyListValue`) and pass back to
    /// ``OPMLExporter``. Markdown: YAML front matter, its title, and the text before the first
    /// heading or list item (see `MarkdownDocumentHead`). Text: empty.
    public var head: OPMLHead
    /// Oddities that were read anyway, in file order (empty when reading strictly).
    public var warnings: [InterchangeWarning]
}

/// An exported file and what it could not express.
public struct ExportedOutline: Sendable {
    /// The file's bytes (UTF-8).
    public var data: Data
    /// What was dropped or changed (notes in plain text, characters XML cannot hold, ...).
    public var warnings: [InterchangeWarning]
}

/// The formats outlines are exchanged in.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    /// OPML 2.0 (and the 1.0 files outliners still write).
    case opml
    /// Markdown: nested lists, headings, task boxes (CommonMark and GitHub-flavoured).
    case markdown
    /// Plain text, one item per line, nested by tab indentation.
    case text

    /// The format a file name's extension names: `.opml`, `.md`/`.markdown`, `.txt`/`.text`.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "opml": self = .opml
        case "md", "markdown", "mdown", "mkd": self = .markdown
        case "txt", "text": self = .text
        default: return nil
        }
    }
}

/// Collects the warnings of one import or export; in strict mode the first one is thrown as
/// ``OutlineError`` code `nonconforming`. Warnings sharing a key are reported once, with a count.
struct WarningLog {
    let file: String
    let strict: Bool
    private(set) var warnings: [InterchangeWarning] = []
    private var repeats: [String: (index: Int, count: Int)] = [:]

    init(file: String, strict: Bool) {
        self.file = file
        self.strict = strict
    }

    /// Records a warning about `line`.
    mutating func add(line: Int?, _ message: String, hint: String? = nil, key: String) throws {
        try add(InterchangeWarning(file: file, line: line, message, hint: hint), key: key)
    }

    /// Records a warning about a place that is not a line (`item 2.3`).
    mutating func add(at location: String?, _ message: String, hint: String? = nil, key: String) throws {
        try add(InterchangeWarning(file: file, at: location, message, hint: hint), key: key)
    }

    /// Records warnings that came from elsewhere (the OPML reader), in order.
    mutating func append(_ others: [InterchangeWarning]) {
        warnings.append(contentsOf: others)
    }

    private mutating func add(_ warning: InterchangeWarning, key: String) throws {
        if strict {
            throw OutlineError(
                .nonconforming, file: warning.file, at: warning.location, warning.strictMessage,
                hint: warning.hint ?? InterchangeWarning.strictHint)
        }
        if let seen = repeats[key] {
            repeats[key] = (seen.index, seen.count + 1)
            return
        }
        repeats[key] = (warnings.count, 0)
        warnings.append(warning)
    }

    /// The warnings in line order (those without a line last), repeated ones annotated with
    /// their count.
    func finished() -> [InterchangeWarning] {
        var result = warnings
        for (index, count) in repeats.values where count > 0 {
            result[index].message += " (and \(count) more \(count == 1 ? "place" : "places") like it)"
        }
        return result.enumerated().sorted {
            let (a, b) = ($0.element.line ?? .max, $1.element.line ?? .max)
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
    }
}
