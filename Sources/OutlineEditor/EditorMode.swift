import OutlineEngine

/// What the keys do at the moment.
enum EditorMode {
    /// Moving through the outline; letters are commands.
    case browsing
    /// Typing an item's text.
    case editing(EditSession)
    /// Typing a search after `/`.
    case searching(LineEditor)
    /// The help overlay; any key closes it.
    case help
    /// A yes/no question about another program's change to the file.
    case askingAboutExternalChange
}

/// An item being typed: an existing one, or a new one not inserted until typing ends (so the
/// insertion is one undo step named after its text).
struct EditSession {
    enum Target: Equatable {
        case existing(ManagedObject)
        /// A new item under `parent` at 0-based `position`, drawn next to `anchor`.
        case new(parent: ManagedObject, position: Int, anchor: ManagedObject?, above: Bool)
    }

    var target: Target
    var line: LineEditor
    var original: String
}

/// A finished search: its matches in document order and the one shown.
struct SearchState {
    var query: String
    var matches: [ManagedObject] {
        didSet { matchSet = Set(matches) }
    }
    /// The matches, for drawing a row in O(1).
    private(set) var matchSet: Set<ManagedObject>
    var index: Int

    init(query: String, matches: [ManagedObject], index: Int) {
        self.query = query
        self.matches = matches
        matchSet = Set(matches)
        self.index = index
    }
}
