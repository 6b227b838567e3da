import Foundation

/// An item's task state and `key:: value` properties as Markdown spells them, and how they map
/// to ``ExtraAttributes`` (the same place OPML's unknown attributes are kept, so each format
/// writes back what the other read).
///
/// - A task box or marker: `[ ]` is an open task, `[x]`/`[X]` a done one; Logseq's `TODO` and
///   `DONE` markers likewise. An open task (and any marker) keeps a done slot, the mapped
///   attribute `_status` (OmniOutliner's, which OPML writes as `unchecked`/`checked`), spelled
///   `TODO` or `DONE` for markers; a Markdown export writes it back as it was read.
/// - `collapsed:: true|false` is the collapsed state; `created:: <RFC 822 date>` the creation
///   date (each with its place and spelling kept, as OPML's attributes of those names).
/// - Every other property is kept as it is, in order.
struct MarkdownItemAttributes {
    /// The done state read from a box or marker (nil: none).
    var done: Bool?
    /// The done slot's spelling: nil for a box, else the marker.
    private var taskSlot: String??
    private var properties: [(key: String, value: String)] = []

    /// The name of the mapped attribute that marks an item as a task.
    static let taskAttribute = "_status"

    /// Why the value of a property that maps to an item property spells none, if it does not.
    static func oddValue(key: String, value: String) -> String? {
        switch key {
        case "collapsed" where OPMLValues.boolean(value) == nil: "collapsed:: \(value) is neither true nor false; kept as it is"
        case "created" where RFC822Date.parse(value) == nil: "created:: \(value) is not an RFC 822 date; kept as it is"
        default: nil
        }
    }

    /// Records a task box.
    mutating func setBox(done: Bool) {
        self.done = done
        if !done { taskSlot = .some(nil) }
    }

    /// Records a task marker (`TODO`, `DONE`).
    mutating func setMarker(_ marker: String, done: Bool) {
        self.done = done
        taskSlot = .some(marker)
    }

    /// Adds a property; false when the item already has one with this key (or the key is one
    /// the item's other state uses), which the caller keeps elsewhere.
    mutating func addProperty(key: String, value: String) -> Bool {
        if properties.contains(where: { $0.key == key }) || key == "text" || (key == Self.taskAttribute && taskSlot != nil) {
            return false
        }
        properties.append((key, value))
        return true
    }

    /// What the item's properties set besides its extra attributes.
    struct Mapped {
        var collapsed: Bool?
        var created: Date?
        var extra: ExtraAttributes?
    }

    /// The collapsed state, creation date and extra attributes these attributes amount to
    /// (values of `collapsed` and `created` that spell none are kept as they are).
    func mapped() -> Mapped {
        var result = Mapped()
        var entries: [ExtraAttributes.Entry] = [.mapped(name: "text", spelling: nil)]
        if let slot = taskSlot { entries.append(.mapped(name: Self.taskAttribute, spelling: slot)) }
        for (key, value) in properties {
            switch key {
            case "collapsed":
                if let state = OPMLValues.boolean(value) {
                    result.collapsed = state.done
                    entries.append(.mapped(name: key, spelling: state.canonical ? nil : value))
                } else {
                    entries.append(.kept(name: key, value: value))
                }
            case "created":
                if let date = RFC822Date.parse(value) {
                    result.created = date
                    entries.append(.mapped(name: key, spelling: RFC822Date.format(date) == value ? nil : value))
                } else {
                    entries.append(.kept(name: key, value: value))
                }
            default:
                entries.append(.kept(name: key, value: value))
            }
        }
        result.extra = entries.count > 1 ? ExtraAttributes(entries) : nil
        return result
    }

    // MARK: Writing

    /// How an item's task state is written: `[x]`, `[ ]`, `DONE`, `TODO`, or nothing.
    static func taskPrefix(done: Bool, extra: ExtraAttributes?, always: Bool) -> String? {
        let slot = extra?.entries.lazy.compactMap { entry -> String?? in
            if case .mapped(let name, let spelling) = entry, OPMLValues.doneAttributes.contains(name) { spelling } else { nil }
        }.first
        if let spelling = slot ?? nil, MarkdownSyntax.taskMarkers[spelling] != nil {
            return done ? "DONE" : "TODO"
        }
        if done { return "[x]" }
        return slot != nil || always ? "[ ]" : nil
    }

    /// The property lines of an item, in the order its extra attributes recorded, and the names
    /// of kept attributes Markdown cannot write (not a property key, or a value with a line
    /// break).
    static func propertyLines(extra: ExtraAttributes?, collapsed: Bool, created: Date?) -> (lines: [String], unwritable: [String]) {
        var lines: [String] = []
        var unwritable: [String] = []
        // A folded item read without a collapsed attribute (made here, or folded since) says so
        // as Logseq does, after its other properties.
        let hasCollapsedSlot = extra?.entries.contains { if case .mapped("collapsed", _) = $0 { true } else { false } } ?? false
        for entry in extra?.entries ?? [] {
            switch entry {
            case .kept(let name, let value):
                if MarkdownSyntax.isPropertyKey(name), !value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                    lines.append(value.isEmpty ? "\(name)::" : "\(name):: \(value)")
                } else {
                    unwritable.append(name)
                }
            case .mapped("collapsed", let spelling):
                let kept = spelling.flatMap { OPMLValues.boolean($0)?.done == collapsed ? $0 : nil }
                lines.append("collapsed:: \(kept ?? (collapsed ? "true" : "false"))")
            case .mapped("created", let spelling):
                guard let created else { continue }
                // A date outside what RFC 822 can spell (years 0 to 9999) is left out.
                guard let text = spelling.flatMap({ RFC822Date.parse($0) == created ? $0 : nil }) ?? RFC822Date.format(created) else { continue }
                lines.append("created:: \(text)")
            case .mapped:
                continue
            }
        }
        if collapsed && !hasCollapsedSlot { lines.append("collapsed:: true") }
        return (lines, unwritable)
    }
}
