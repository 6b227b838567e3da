import Foundation
import OutlineEngine
import OutlineStorage

/// Reads OPML into a new outline document, streaming: each `<outline>` becomes an item as the
/// parser reports it (see `OPMLReader` for what is accepted and rejected).
///
/// Mapping, per outline:
/// - `text` is the item's text; without one, `title` is used, else the empty string (each
///   with a warning).
/// - `_note` is the note.
/// - `_status` (`checked`/`unchecked`), `_complete` and `complete` (`true`/`false`, also
///   `yes`/`no`/`1`/`0`) are the done state; the first one that spells a state counts.
///   OmniOutliner's `_status="indeterminate"` is kept as an ordinary attribute.
/// - `collapsed` (same booleans) and the head's `expansionState` are the collapsed state. The
///   list holds 1-based visible row numbers of expanded items, counted in the outline as shown
///   with exactly those items expanded (OPML Editor's and Drummer's count); spaces and empty
///   entries are ignored, a list containing `0` is taken as 0-based. Items with children that
///   are not listed are collapsed; without the field, items are expanded; an item's own
///   `collapsed` attribute wins. Exports write the list 1-based without spaces.
/// - `created` (RFC 822, see `RFC822Date`) is the creation date.
/// - `category` is the item's tags: its comma-separated entries, trimmed (schemas with tags;
///   a value that names no tag a tag can be, such as one with control characters, is kept).
/// - Everything else (`type`, `xmlUrl`, `htmlUrl`, `title`, `url`, `isComment`, `id`, ...) is
///   kept, in order and in place, in ``ExtraAttributes``; an unreadable value of a mapped
///   attribute is kept there too, with a warning.
///
/// The head fields are not items: they come back in ``ImportedOutline/head``.
public enum OPMLImporter {
    /// Reads the OPML document in `data`.
    ///
    /// - Parameter file: how messages name the file.
    /// - Parameter data: the file's bytes.
    /// - Parameter options: strictness, the schema of the new document and the depth limit.
    /// - Throws: `StorageError` for files that are not OPML or not well-formed (see
    ///   `OPMLReader.read(_:file:options:_:)`); in strict mode the first warning, as
    ///   `StorageError` or ``OutlineError`` with code `nonconforming`.
    public static func read(_ data: Data, file: String, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        var mapper = try OPMLMapper(file: file, options: options)
        mapper.builder.reserve(max(16, data.count / 64))
        let warnings = try OPMLReader.read(data, file: file, options: readerOptions(options)) { try mapper.add($0) }
        return try mapper.finish(readerWarnings: warnings)
    }

    /// Reads the OPML file at `url`, streaming it from disk.
    ///
    /// - Parameter file: how messages name the file (default: the path).
    /// - Parameter url: the file to read.
    /// - Parameter options: strictness, the schema of the new document and the depth limit.
    /// - Throws: as ``read(_:file:options:)``, and `StorageError` `unreadable`.
    public static func read(contentsOf url: URL, file: String? = nil, options: ImportOptions = ImportOptions()) throws -> ImportedOutline {
        var mapper = try OPMLMapper(file: file ?? url.path, options: options)
        let warnings = try OPMLReader.read(contentsOf: url, file: file, options: readerOptions(options)) { try mapper.add($0) }
        return try mapper.finish(readerWarnings: warnings)
    }

    private static func readerOptions(_ options: ImportOptions) -> OPMLReader.Options {
        OPMLReader.Options(strict: options.strict, maxDepth: options.maxDepth)
    }
}

/// Turns reader events into items, one at a time.
struct OPMLMapper {
    var builder: OutlineBuilder
    private var log: WarningLog
    private var head = OPMLHead()
    /// Per item in document order: its depth, and whether its `collapsed` attribute decided.
    private var depths: [Int32] = []
    private var explicitlyCollapsed: [Bool] = []
    private var dropped = DroppedValues()

    init(file: String, options: ImportOptions) throws {
        builder = try OutlineBuilder(schema: try options.schema ?? OutlineSchemas.current)
        log = WarningLog(file: file, strict: options.strict)
    }

    mutating func add(_ event: OPMLEvent) throws {
        switch event {
        case .opml(let version, let attributes):
            head.version = version
            head.attributes = attributes
        case .headField(let field):
            head.fields.append(field)
        case .outline(let outline):
            try add(outline)
        }
    }

    private mutating func add(_ outline: OPMLOutline) throws {
        var entries: [ExtraAttributes.Entry] = []
        var text: String?
        var note: String?
        var done: Bool?
        var collapsed: Bool?
        var created: Date?
        var tags: [String]?
        for attribute in outline.attributes {
            let (name, value) = (attribute.name, attribute.value)
            switch name {
            case "text":
                text = value
                entries.append(.mapped(name: name, spelling: nil))
            case "_note":
                note = value
                entries.append(.mapped(name: name, spelling: nil))
            case _ where OPMLValues.doneAttributes.contains(name):
                if let state = OPMLValues.done(name, value) {
                    if let done {
                        if done != state.done {
                            try log.add(
                                line: outline.line, "\(name)=\"\(value)\" disagrees with the done state read before it; the first one counts",
                                key: "done-conflict")
                        }
                        entries.append(.kept(name: name, value: value))
                    } else {
                        done = state.done
                        entries.append(.mapped(name: name, spelling: state.canonical ? nil : value))
                    }
                } else {
                    if !(name == "_status" && value == "indeterminate") {
                        try log.add(line: outline.line, "\(name)=\"\(value)\" is not a done state; kept as it is", key: "done-\(name)")
                    }
                    entries.append(.kept(name: name, value: value))
                }
            case "collapsed":
                if let state = OPMLValues.boolean(value) {
                    collapsed = state.done
                    entries.append(.mapped(name: name, spelling: state.canonical ? nil : value))
                } else {
                    try log.add(line: outline.line, "collapsed=\"\(value)\" is neither true nor false; kept as it is", key: "collapsed")
                    entries.append(.kept(name: name, value: value))
                }
            case "created":
                if let date = RFC822Date.parse(value) {
                    created = date
                    entries.append(.mapped(name: name, spelling: RFC822Date.format(date) == value ? nil : value))
                } else {
                    try log.add(
                        line: outline.line, "created=\"\(value)\" is not an RFC 822 date; kept as it is",
                        hint: "Dates look like \"Sat, 09 Apr 2007 14:57:36 GMT\".", key: "created")
                    entries.append(.kept(name: name, value: value))
                }
            case "category" where builder.shape.tags != nil:
                let names = OPMLValues.categories(value)
                if names.allSatisfy({ (try? OutlineDocument.checkTagName($0)) != nil }) {
                    tags = names
                    entries.append(.mapped(name: name, spelling: !names.isEmpty && names.joined(separator: ",") == value ? nil : value))
                } else {
                    try log.add(
                        line: outline.line, "category=\"\(ControlCharacters.escaped(value))\" holds a name that cannot be a tag; kept as it is",
                        key: "category")
                    entries.append(.kept(name: name, value: value))
                }
            default:
                entries.append(.kept(name: name, value: value))
            }
        }
        if text == nil {
            if let title = outline["title"] {
                try log.add(line: outline.line, "the outline has no text attribute; its title \"\(title)\" is used", key: "title")
                text = title
            } else {
                try log.add(line: outline.line, "the outline has neither text nor title; its text is empty", key: "notext")
            }
            entries.insert(.mapped(name: "text", spelling: nil), at: 0)
        }

        let object = builder.append(depth: outline.depth, text: text ?? "")
        if let note, !builder.setNote(note, of: object) { dropped.notes += 1 }
        if let done, !builder.setDone(done, of: object) { dropped.done += 1 }
        if let collapsed { builder.setCollapsed(collapsed, of: object) }
        builder.setCreated(created, of: object)
        if let tags, !tags.isEmpty { builder.setTags(tags, of: object) }
        if !Self.isCanonical(entries, note: note, done: done, created: created, tags: tags) {
            if !builder.setExtraAttributes(ExtraAttributes(entries), of: object) {
                dropped.attributes += entries.filter { if case .kept = $0 { true } else { false } }.count
            }
        }
        depths.append(Int32(clamping: outline.depth))
        explicitlyCollapsed.append(collapsed != nil)
    }

    /// Whether `entries` are exactly what the exporter writes without them: text, note (if
    /// any), done (if done), created (if any), category (if tagged), all canonically spelled.
    static func isCanonical(
        _ entries: [ExtraAttributes.Entry], note: String?, done: Bool?, created: Date?,
        tags: [String]? = nil
    ) -> Bool {
        var expected = ["text"]
        if note != nil { expected.append("_note") }
        if done == true { expected.append("done") }
        if created != nil { expected.append("created") }
        if let tags, !tags.isEmpty { expected.append("category") }
        guard entries.count == expected.count else { return false }
        for (entry, name) in zip(entries, expected) {
            guard case .mapped(let actual, nil) = entry else { return false }
            if actual != name && !(name == "done" && OPMLValues.doneAttributes.contains(actual)) { return false }
        }
        return true
    }

    consuming func finish(readerWarnings: [InterchangeWarning]) throws -> ImportedOutline {
        log.append(readerWarnings)
        try applyExpansionState()
        try dropped.report(to: &log, schema: builder.schema.name, attributesName: "OPML attributes")
        let warnings = log.finished()
        return ImportedOutline(document: try builder.finish(), head: head, warnings: warnings)
    }

    /// Collapses items by the head's `expansionState` unless their own attribute decided.
    private mutating func applyExpansionState() throws {
        guard let field = head.fields.first(where: { $0.name == "expansionState" }) else { return }
        let (rows, invalid, _) = ExpansionState.parse(field.value)
        if !invalid.isEmpty {
            try log.add(
                line: field.line, "expansionState has entries that are not row numbers (\(invalid.joined(separator: ", "))); they are ignored",
                key: "expansion-invalid")
        }
        let (collapsed, unused) = ExpansionState.collapsed(depths: depths, expanded: rows)
        if !unused.isEmpty {
            let list = unused.prefix(10).map(String.init).joined(separator: ", ") + (unused.count > 10 ? ", ..." : "")
            try log.add(
                line: field.line, "expansionState names rows that are not visible items with children (\(list)); they are ignored",
                key: "expansion-unused")
        }
        for index in collapsed.indices where collapsed[index] && !explicitlyCollapsed[index] {
            builder.setCollapsed(true, of: builder.object(at: index))
        }
    }
}
