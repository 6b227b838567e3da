import OutlineEngine
import OutlineKit

/// A full-screen outliner's logic without a terminal: keys in (``handle(_:)``), screen
/// contents out (``render(into:)``), effects such as "save" for the program to carry out.
///
/// Every edit goes through ``OutlineKit/OutlineDocument``, so each is one undo step with the
/// library's name, and collapse state is the document's `collapsed` attribute. The editor keeps
/// a cursor item and the screen row it should appear on; the rows come from
/// ``OutlineKit/VisibleRows``, read by item (its walk), so rendering visits only the rows on
/// the screen, nothing is flattened, and a keystroke costs the same in any size of document.
public final class OutlineEditor {
    /// The outline edited. Replace it with ``replaceDocument(_:)`` after a reload.
    public private(set) var document: OutlineDocument
    /// The file's name and format, read-only mode, colours.
    public var options: EditorOptions
    /// Tells the status line whether edits are saved; by default from the context's changes.
    public var saveStatus: () -> SaveStatus
    /// How many older undo steps the document keeps that undo here does not reach (see
    /// `DocumentContainer.olderUndoStepCount`); none by default.
    public var olderUndoSteps: () -> Int = { 0 }

    /// The item under the cursor; nil when the view is empty.
    public internal(set) var cursor: ManagedObject?
    /// The row of the screen the cursor should be drawn on; rendering moves it as little as
    /// needed to keep the cursor visible.
    var cursorRow = 0
    /// The items zoomed into, outermost first.
    public internal(set) var zoomPath: [ManagedObject] = []
    var mode: EditorMode = .browsing
    /// A first `d` waiting for the second.
    var pendingDelete = false
    /// The question about another program's change, held back until the line typed ends.
    var questionWaits = false
    /// The last message: what was undone, an error, search results.
    public internal(set) var message: String?
    var messageIsError = false
    /// Whether notes are shown beneath their items.
    public internal(set) var showsNotes = true
    var search: SearchState?
    /// The rows of the last zoom and document asked for (see ``rows``).
    private var shownRows: VisibleRows?
    /// The changes of the last batch (for placing the cursor after undo and redo).
    var lastChanges: [ObjectChange] = []
    private var observer: ObserverToken?
    /// The size of the last screen rendered (page keys move by its height).
    var screenHeight = 24
    var screenWidth = 80

    /// An editor over `document`, the cursor on its first item.
    public init(document: OutlineDocument, options: EditorOptions) {
        self.document = document
        self.options = options
        let context = document.context
        saveStatus = { context.hasChanges ? .unsaved : .saved }
        cursor = document.children(of: document.root).first
        observe()
    }

    deinit {
        if let observer { document.context.removeObserver(observer) }
    }

    /// Shows `document` (the same file read again after another program changed it), keeping
    /// the cursor on the item with the same id when there is one.
    public func replaceDocument(_ document: OutlineDocument) {
        let old = self.document
        let cursorID = cursor.map { old.context.objectID(of: $0) }
        let zoomIDs = zoomPath.map { old.context.objectID(of: $0) }
        if let observer { old.context.removeObserver(observer) }
        self.document = document
        if old.context !== document.context {
            let context = document.context
            saveStatus = { context.hasChanges ? .unsaved : .saved }
        }
        zoomPath = zoomIDs.compactMap { document.context.object(with: $0) }
        shownRows = nil
        if case .editing = mode { mode = .browsing }
        questionWaits = false
        search = nil
        cursor = cursorID.flatMap { document.context.object(with: $0) }
        observe()
        repairCursor()
    }

    private func observe() {
        observer = document.context.addChangeObserver { [weak self] notification in
            self?.lastChanges = notification.changes
        }
    }

    /// The rows shown: the subtree of the innermost zoom, or the whole outline. Made again
    /// (in O(1): nothing is flattened) when the zoom or the document changes.
    public var rows: VisibleRows {
        let top = zoomPath.last
        if let shownRows, shownRows.document === document, shownRows.top == top { return shownRows }
        let made = top.map { VisibleRows(document: document, under: $0) } ?? VisibleRows(document: document)
        shownRows = made
        return made
    }

    /// Whether the user is typing an item's text.
    public var isEditingText: Bool {
        if case .editing = mode { return true }
        return false
    }

    /// Whether a line being typed holds text the document does not have yet: an item's text
    /// changed, or a new item with text. Such text is an unsaved edit (the program keeps
    /// another program's version of the file from replacing it), and the status line does not
    /// say `Saved` while there is some.
    public var hasUncommittedText: Bool {
        guard case .editing(let session) = mode else { return false }
        switch session.target {
        case .existing: return session.line.text != session.original
        case .new: return !session.line.text.isEmpty
        }
    }

    /// The save status the status line shows: the program's (``saveStatus``), but never
    /// `Saved` while typed text is not in the document yet (``hasUncommittedText``).
    public var shownSaveStatus: SaveStatus {
        let status = saveStatus()
        return status == .saved && hasUncommittedText ? .unsaved : status
    }

    /// The text being typed (an item's, or a search's), for tests.
    public var typedText: String? {
        switch mode {
        case .editing(let session): session.line.text
        case .searching(let line): line.text
        default: nil
        }
    }

    /// Whether the help overlay is shown.
    public var isShowingHelp: Bool {
        if case .help = mode { return true }
        return false
    }

    /// Whether the question about another program's change to the file waits for an answer
    /// (asked, or to be asked when the line being typed ends).
    public var isAskingAboutExternalChange: Bool {
        if case .askingAboutExternalChange = mode { return true }
        return questionWaits
    }

    /// Asks the user whether to take another program's version of the file (there are edits
    /// here too); the answer comes back as ``EditorEffect/reloadExternalChange(_:)``.
    ///
    /// While a line with unsaved text is being typed, typing goes on (asked at once, the next
    /// letters typed would answer) and the question comes when the line ends: Esc, Enter,
    /// Tab or Ctrl-S put the text in the document, then ask.
    public func askAboutExternalChange() {
        if hasUncommittedText {
            questionWaits = true
            show("Another program changed the file: end the line (Esc or Enter) to choose which version to keep.", isError: true)
            return
        }
        finishEditing()
        mode = .askingAboutExternalChange
    }

    /// Shows `text` on the message line.
    public func show(_ text: String, isError: Bool = false) {
        message = text
        messageIsError = isError
    }

    /// Ends typing, keeping what was typed (before a save, so the save holds it).
    public func finishEditing() {
        if case .editing = mode { _ = commitEdit() }
    }

    /// Runs one edit, showing its error on the message line instead of throwing.
    @discardableResult
    func perform(_ edit: () throws -> Void) -> Bool {
        do {
            try edit()
            return true
        } catch {
            show(Self.describe(error), isError: true)
            return false
        }
    }

    /// A one-line description of a library error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? OutlineError { return error.message }
        if let error = error as? EngineError { return error.message }
        return "\(error)"
    }

    /// Refuses an edit in a read-only session; true when the edit may go ahead.
    func allowsEditing() -> Bool {
        guard options.isReadOnly else { return true }
        show("Read-only: this session does not change the document.", isError: true)
        return false
    }
}
