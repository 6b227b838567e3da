import ArgumentParser
import OutlineKit
import OutlineTool

/// What `collapse` and `expand` share: the items they fold or unfold.
struct FoldingTargets: ParsableArguments {
    @Argument(help: ArgumentHelp("The item: a path such as 2.1.3, or #ID (with --all it may be left out: every item).", valueName: "path"))
    var path: String?

    @Flag(help: "The item and every item below it that has children (without PATH: every such item of the document).")
    var all = false

    func validate() throws {
        if path == nil && !all { throw ValidationError("Give the item's PATH, or --all.") }
    }

    /// Sets the collapsed state of the named items in one step.
    func apply(_ collapsed: Bool, to file: OutlineFile) throws -> EditOutcome {
        let outline = file.document
        let start = try path.map(file.item(at:))
        if let start, start == outline.root, !all {
            throw OutlineError(
                .invalidEdit, file: file.path, at: "/", "the root item is always expanded",
                hint: "Name a top-level item (1, 2, ...), or fold every item with --all.")
        }
        if collapsed, !all, let start, outline.children(of: start).isEmpty {
            throw OutlineError(
                .invalidEdit, file: file.path, at: path, "the item has no children to fold",
                hint: "Collapse an item that has children; a folded item without any would hide the first ones added.")
        }
        var targets = start.map { [$0] } ?? []
        if all {
            // Expanding reaches every folded item, also one whose children were all removed.
            targets = outline.subtree(of: start ?? outline.root).filter {
                $0 != outline.root && (!collapsed || !outline.children(of: $0).isEmpty)
            }
        }
        let changed = try file.edit(at: path) { try outline.setCollapsed(collapsed, of: targets) }
        guard changed > 0 else {
            let state = collapsed ? "collapsed" : "expanded"
            let what = all ? "every item with children is \(state) already" : "\(path ?? "/") is \(state) already"
            return EditOutcome(notes: ["\(file.path): \(what); nothing changed."], changed: false)
        }
        return EditOutcome()
    }
}

struct Collapse: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fold an item: show hides its children until it is expanded.",
        discussion: """
            show prints a collapsed item with the number of its hidden children, [+3]; \
            show --expand-all shows them all the same. OPML keeps the state.

            Examples:
              outline collapse groceries.outline 1
              outline collapse groceries.outline 2 --all
              outline collapse groceries.outline --all
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var targets: FoldingTargets
    @OptionGroup var history: HistoryOption

    func apply(to file: OutlineFile) throws -> EditOutcome {
        try targets.apply(true, to: file)
    }
}

struct Expand: EditingCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unfold an item: show shows its children again.",
        discussion: """
            Examples:
              outline expand groceries.outline 1
              outline expand groceries.outline --all
            """)

    @OptionGroup var document: DocumentArgument
    @OptionGroup var targets: FoldingTargets
    @OptionGroup var history: HistoryOption

    func apply(to file: OutlineFile) throws -> EditOutcome {
        try targets.apply(false, to: file)
    }
}
