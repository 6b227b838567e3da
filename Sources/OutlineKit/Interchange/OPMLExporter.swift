import Foundation
import OutlineEngine
import OutlineStorage

/// How to write OPML.
public struct OPMLExportOptions: Sendable, Hashable {
    /// How done state is written. Nil (the default) keeps the done attribute each item was
    /// read with, so that an imported file comes back as it was, and writes OmniOutliner's
    /// `_status` for items that had none.
    public var flavor: OPMLFlavor?

    /// Options that write done state as `flavor` (nil keeps each item's own).
    public init(flavor: OPMLFlavor? = nil) {
        self.flavor = flavor
    }
}

/// Writes an outline document as OPML 2.0, strictly (see `OPMLWriter` for the escaping).
///
/// Each item becomes an `<outline>` whose attributes are, in the order and place the item's
/// ``ExtraAttributes`` recorded: `text` (always), `_note` (when the item has a note), the done
/// attribute (the flavour's, or the one read; when done, or when the file had one), `created` (RFC 822, GMT),
/// `category` (the tags, separated by commas; when the item has tags, or the file had one),
/// `collapsed` (where the file had one), and every kept attribute. Properties without a
/// recorded place follow in that order; a mapped attribute keeps its original spelling while
/// the property still has the value it spells.
///
/// The head is written as given, in order, with `expansionState` derived from the items'
/// collapsed state (see `ExpansionState`): replaced in place when the head has one, appended
/// when a collapsed item would otherwise not say so. Items hidden under a collapsed one that
/// are themselves expanded then get `collapsed="false"`, which the list cannot express.
public enum OPMLExporter {
    /// The OPML file for `document`.
    ///
    /// - Parameters:
    ///   - head: what the file says besides its items, usually ``ImportedOutline/head`` as kept
    ///     in the document's metadata; version is always written as 2.0.
    ///   - file: how warnings name the output.
    ///   - document: the outline to write.
    ///   - options: how done state is written.
    /// - Returns: the bytes, and warnings about items whose stored attributes could not be
    ///   decoded (written without them), dates no RFC 822 date spells (left out) and
    ///   characters XML cannot hold (written as U+FFFD).
    /// - Throws: ``OutlineError`` `limitExceeded` for an item whose text, note and attributes
    ///   would take more than ``OutlineStorage/OPMLWriter/maximumStartTagBytes`` (no OPML reader
    ///   would read the file back); `invalidDocument` when some items are not under the root
    ///   (``OutlineDocument/requireEveryItemUnderRoot()``): they would be left out.
    public static func write(
        _ document: OutlineDocument, head: OPMLHead = OPMLHead(), file: String? = nil,
        options: OPMLExportOptions = OPMLExportOptions()
    ) throws -> ExportedOutline {
        try document.requireEveryItemUnderRoot()
        var export = OPMLExport(document: document, flavor: options.flavor, file: file)
        return try export.run(head: head)
    }
}

/// One export run: two passes over the items, both iterative.
struct OPMLExport {
    let document: OutlineDocument
    let flavor: OPMLFlavor?
    let file: String?
    private var warnings: [InterchangeWarning] = []
    private var corrupt: (count: Int, first: OutlineError?) = (0, nil)
    /// Items whose `created` date no RFC 822 date spells (not a finite time in the years 0 to 9999).
    private var unwritableDates: (count: Int, first: String?) = (0, nil)
    /// Kept attributes left out because OPML gives their names another meaning, and the first names.
    private var shadowed: (count: Int, names: [String]) = (0, [])

    /// Whether a kept attribute `name="value"` (a Markdown property, say) would read back from
    /// OPML as something it was not: a note (`_note`), a done state (a done attribute whose
    /// value spells one, unless the item writes its own done attribute before it, which the
    /// reader takes first) or an XML namespace declaration. Kept values OPML itself read
    /// (`created="yesterday"`, a second done attribute) read back as they are.
    static func readsAsSomethingElse(_ name: String, _ value: String, besideDone: Bool) -> Bool {
        if name == "_note" || name == "xmlns" || name.hasPrefix("xmlns:") || name.hasPrefix("xml:") { return true }
        return OPMLValues.doneAttributes.contains(name) && !besideDone && OPMLValues.done(name, value) != nil
    }

    init(document: OutlineDocument, flavor: OPMLFlavor?, file: String?) {
        self.document = document
        self.flavor = flavor
        self.file = file
    }

    mutating func run(head: OPMLHead) throws -> ExportedOutline {
        var head = head
        let (rows, needsList) = expandedRows()
        let writesList = needsList || head.fields.contains { $0.name == "expansionState" }
        if writesList { head[field: "expansionState"] = ExpansionState.format(rows) }

        var writer = OPMLWriter(head: head, reserve: 64 + document.itemCount * 48)
        var stack: [(children: [ManagedObject], next: Int, visible: Bool)] = [(document.children(of: document.root), 0, true)]
        while let top = stack.last {
            guard top.next < top.children.count else {
                stack.removeLast()
                if !stack.isEmpty { writer.endOutline() }
                continue
            }
            let item = top.children[top.next]
            stack[stack.count - 1].next += 1
            let kids = document.children(of: item)
            let collapsed = document.isCollapsed(item)
            let hiddenExpanded = writesList && !top.visible && !kids.isEmpty && !collapsed
            let tagBytes = writer.startOutline(attributes(of: item, hiddenExpanded: hiddenExpanded))
            if tagBytes > OPMLWriter.maximumStartTagBytes {
                throw OutlineError(
                    .limitExceeded, file: file, at: "\(ItemReference.path(document.path(of: item)))",
                    "the item's text, note and attributes take \(String(format: "%.1f", Double(tagBytes) / 1e6)) MB in OPML, "
                        + "more than an OPML reader accepts in one element (\(OPMLWriter.maximumStartTagBytes) bytes)",
                    hint: "Export Markdown or a document (.outline) to keep it, or shorten the item's text or note.")
            }
            if kids.isEmpty {
                writer.endOutline()
            } else {
                stack.append((kids, 0, top.visible && !collapsed))
            }
        }
        if corrupt.count > 0, let first = corrupt.first {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(corrupt.count) \(corrupt.count == 1 ? "item's" : "items'") stored OPML attributes could not be decoded and were left out (first: \(first.description))"
                ))
        }
        if unwritableDates.count > 0, let first = unwritableDates.first {
            let count = unwritableDates.count
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(count) \(count == 1 ? "item's" : "items'") created \(count == 1 ? "date is" : "dates are") not in the years 0 to 9999 "
                        + "and cannot be written as RFC 822; left out (first: item \(first))"))
        }
        if shadowed.count > 0 {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(shadowed.count) kept \(shadowed.count == 1 ? "attribute was" : "attributes were") not written "
                        + "(\(shadowed.names.joined(separator: ", "))): OPML gives \(shadowed.count == 1 ? "its name" : "their names") another meaning",
                    hint: "Rename the property in the Markdown file to keep it."))
        }
        if writer.replacedCharacters > 0 {
            warnings.append(
                InterchangeWarning(
                    file: file, at: nil,
                    "\(writer.replacedCharacters) \(writer.replacedCharacters == 1 ? "character" : "characters") that XML cannot hold "
                        + "(control characters) written as U+FFFD"))
        }
        return ExportedOutline(data: writer.finish(), warnings: warnings)
    }

    /// The 1-based visible rows of expanded items with children, and whether a collapsed item
    /// with children has no `collapsed` attribute of its own (so only the list can say it).
    private func expandedRows() -> (rows: [Int], needed: Bool) {
        var rows: [Int] = []
        var needed = false
        var row = 0
        document.walk { item, _ in
            row += 1
            guard !document.children(of: item).isEmpty else { return false }
            if document.isCollapsed(item) {
                if !needed && !hasCollapsedAttribute(item) { needed = true }
                return false
            }
            rows.append(row)
            return true
        }
        if !needed {
            // Collapsed items below collapsed ones are not visited above; look for them too.
            document.walk { item, _ in
                if !needed, document.isCollapsed(item), !document.children(of: item).isEmpty, !hasCollapsedAttribute(item) {
                    needed = true
                }
                return !needed
            }
        }
        return (rows, needed)
    }

    private func hasCollapsedAttribute(_ item: ManagedObject) -> Bool {
        guard let data = storedAttributes(item), let extra = try? ExtraAttributes(decoding: data) else { return false }
        return extra.entries.contains { if case .mapped("collapsed", _) = $0 { true } else { false } }
    }

    private func storedAttributes(_ item: ManagedObject) -> Data? {
        guard let attribute = document.shape.extraAttributes else { return nil }
        return document.context.attributeValue(of: item, attribute)?.binaryValue
    }

    /// The attributes of `item`'s `<outline>`, in order.
    private mutating func attributes(of item: ManagedObject, hiddenExpanded: Bool) -> [OPMLAttribute] {
        var entries: [ExtraAttributes.Entry] = []
        if let data = storedAttributes(item) {
            do {
                entries = try ExtraAttributes(decoding: data, item: "item \(ItemReference.path(document.path(of: item)))").entries
            } catch {
                corrupt.count += 1
                if corrupt.first == nil { corrupt.first = error as? OutlineError }
            }
        }
        let done = document.isDone(item)
        let collapsed = document.isCollapsed(item)
        let created = document.created(of: item)
        let doneSlot = entries.lazy.compactMap { entry -> String? in
            if case .mapped(let name, _) = entry, OPMLValues.doneAttributes.contains(name) { name } else { nil }
        }.first
        let doneFlavor = flavor ?? doneSlot.flatMap(OPMLFlavor.init(doneAttribute:)) ?? .omni
        let hasCollapsedSlot = entries.contains { if case .mapped("collapsed", _) = $0 { true } else { false } }
        let tags = document.tags(of: item)
        // A file's `category=""` (or one naming no tag) comes back; removing every tag drops the attribute.
        let hasEmptyCategory = entries.contains {
            if case .mapped("category", let spelling?) = $0 { OPMLValues.categories(spelling).isEmpty } else { false }
        }

        // The properties to write, in canonical order.
        var fields: [(key: String, attribute: OPMLAttribute)] = [("text", OPMLAttribute("text", document.text(of: item) ?? ""))]
        if let note = document.note(of: item) { fields.append(("_note", OPMLAttribute("_note", note))) }
        if done || doneSlot != nil { fields.append(("done", OPMLAttribute(doneFlavor.doneAttribute, doneFlavor.spell(done)))) }
        if let created {
            if let text = RFC822Date.format(created) {
                fields.append(("created", OPMLAttribute("created", text)))
            } else {
                unwritableDates.count += 1
                if unwritableDates.first == nil { unwritableDates.first = ItemReference.path(document.path(of: item)).description }
            }
        }
        if !tags.isEmpty || hasEmptyCategory {
            fields.append(("category", OPMLAttribute("category", tags.joined(separator: ","))))
        }
        if hasCollapsedSlot || hiddenExpanded {
            fields.append(("collapsed", OPMLAttribute("collapsed", collapsed ? "true" : "false")))
        }
        let written = Set(fields.map(\.attribute.name))

        var result: [OPMLAttribute] = []
        result.reserveCapacity(fields.count + entries.count)
        var emitted: Set<String> = []
        for entry in entries {
            switch entry {
            case .kept(let name, let value):
                let hasDone = fields.contains { $0.key == "done" }
                guard !written.contains(name) && !Self.readsAsSomethingElse(name, value, besideDone: hasDone) else {
                    // A Markdown property named `_note::`, `_status:: checked` or `xmlns::` would
                    // read back as a note, a done state or a namespace: left out, with a warning.
                    shadowed.count += 1
                    if shadowed.names.count < 5 && !shadowed.names.contains(name) { shadowed.names.append(name) }
                    continue
                }
                result.append(OPMLAttribute(name, value))
            case .mapped(let name, let spelling):
                let key = OPMLValues.doneAttributes.contains(name) ? "done" : name
                guard !emitted.contains(key), let field = fields.first(where: { $0.key == key }) else { continue }
                var attribute = field.attribute
                if let spelling, name == attribute.name,
                    keepsSpelling(spelling, key: key, name: name, done: done, collapsed: collapsed, created: created, tags: tags)
                {
                    attribute.value = spelling
                }
                result.append(attribute)
                emitted.insert(key)
            }
        }
        for field in fields where !emitted.contains(field.key) { result.append(field.attribute) }
        return result
    }

    /// Whether a recorded original spelling still spells the property's value.
    private func keepsSpelling(
        _ spelling: String, key: String, name: String, done: Bool, collapsed: Bool, created: Date?,
        tags: [String]
    ) -> Bool {
        switch key {
        case "category": OPMLValues.categories(spelling) == tags
        case "done": OPMLValues.done(name, spelling)?.done == done
        case "collapsed": OPMLValues.boolean(spelling)?.done == collapsed
        case "created": created != nil && RFC822Date.parse(spelling) == created
        default: false
        }
    }
}
