import OutlineEngine

/// The rows an outliner shows: the outline flattened in document order, without the root,
/// skipping the children of collapsed items, kept up to date as the document changes.
///
/// Made over an ``OutlineDocument``, the rows follow every undo step of its context (edits,
/// undo, redo, rollback, merged scratch or background contexts, reloads) and deliver each
/// step's effect as one ``VisibleRowsBatch``, through ``onChange(_:)`` handlers and
/// ``batches()`` streams. Collapsing and expanding are document edits
/// (``OutlineDocument/setCollapsed(_:of:)-(Bool,ManagedObject)``), so they are undoable and arrive as batches too.
///
/// A reload replaces every object, the root item possibly too: the rows then find the root
/// again (updating ``OutlineDocument/root``) and deliver one batch that deletes every old row
/// and inserts every row of the document as read, then follow edits as before.
///
/// ```swift
/// let rows = VisibleRows(document: document)
/// rows.onChange { batch in batch.apply(to: &shown) }   // or animate batch.changes
/// let screen = rows.rows(in: top ..< min(top + height, rows.count))
/// ```
///
/// ## Cost
/// Making the rows costs what they show. A step costs what it shows or hides (expanding an
/// item with 100,000 descendants costs those rows, not the document), plus, per item inserted,
/// moved or removed, O(depth) to find its place and O(chunk) per row looked up. Nothing
/// recurses on depth: a chain a million levels deep works.
///
/// ## Pausing and isolation
/// As for `ResultsController`: ``pause()`` stops deliveries, ``resume()`` delivers one
/// catch-up batch; the rows belong to the isolation domain of the document's context, and
/// batches are `Sendable`.
public final class VisibleRows {
    /// The outline shown.
    public let document: OutlineDocument

    var list = RowList<VisibleRow>()
    /// The root the rows were flattened from (a reload may replace it).
    var root: ManagedObject
    /// False while a reload left the document without a root (no rows then).
    var rootExists = true

    // Changes not delivered yet (see VisibleRows+Update.swift).
    var pending = PendingOutlineChanges()
    var pendingReason: ChangeReason = .edit
    var pendingActionName: String?
    var pendingSteps = 0

    /// Whether deliveries are paused.
    public private(set) var isPaused = false

    private let subscribers = BatchSubscribers<VisibleRowsBatch>()
    private var observer: ObserverToken?

    /// The visible rows of `document`, following its changes.
    ///
    /// - Complexity: O(rows shown).
    public init(document: OutlineDocument) {
        self.document = document
        root = document.root
        list = RowList(Self.flatten(document))
        observer = document.context.addChangeObserver { [weak self] notification in self?.receive(notification) }
    }

    deinit {
        if let observer { document.context.removeObserver(observer) }
    }

    // MARK: Reading

    /// The number of rows.
    public var count: Int { list.count }

    /// The row at `index`.
    ///
    /// - Complexity: O(log n).
    public subscript(index: Int) -> VisibleRow { list[index] }

    /// The rows in `range` (a screenful, say).
    ///
    /// - Complexity: O(log n + range.count).
    public func rows(in range: Range<Int>) -> [VisibleRow] { list.rows(in: range) }

    /// Every row.
    ///
    /// - Complexity: O(n).
    public var rows: [VisibleRow] { list.rows }

    /// The index of `item`'s row, or nil when it is not shown (under a collapsed item, deleted,
    /// or the root).
    ///
    /// - Complexity: O(log n) (a chunk of at most 512 rows is searched).
    public func index(of item: ManagedObject) -> Int? { list.index(of: item) }

    /// The visible rows of `document` computed from scratch, in document order, without
    /// recursion: what ``VisibleRows`` keeps up to date.
    ///
    /// - Complexity: O(rows shown).
    public static func flatten(_ document: OutlineDocument) -> [VisibleRow] {
        var rows: [VisibleRow] = []
        appendDescendants(of: document.root, depth: 0, in: document, to: &rows)
        return rows
    }

    /// Appends the rows of the visible descendants of `item` (at `depth`) in document order.
    static func appendDescendants(of item: ManagedObject, depth: Int, in document: OutlineDocument, to rows: inout [VisibleRow]) {
        document.walk(from: item) { current, level in
            let row = makeRow(current, depth: depth + level, in: document)
            rows.append(row)
            return row.hasChildren && !row.isCollapsed
        }
    }

    static func makeRow(_ item: ManagedObject, depth: Int, in document: OutlineDocument) -> VisibleRow {
        VisibleRow(item: item, depth: depth, hasChildren: !document.children(of: item).isEmpty, isCollapsed: document.isCollapsed(item))
    }

    // MARK: Delivery

    /// Calls `handler` with each batch, right after the step that caused it.
    @discardableResult
    public func onChange(_ handler: @escaping (VisibleRowsBatch) -> Void) -> BatchSubscription {
        subscribers.add(handler)
    }

    /// Stops calling the handler registered as `subscription`.
    public func cancel(_ subscription: BatchSubscription) {
        subscribers.cancel(subscription)
    }

    /// A stream of the batches delivered from now on; it ends when the rows go away.
    public func batches() -> AsyncStream<VisibleRowsBatch> {
        subscribers.stream()
    }

    /// Stops deliveries until ``resume()``; changes are noted, not delivered.
    public func pause() { isPaused = true }

    /// Brings the rows up to date and delivers one catch-up batch with every change since
    /// ``pause()`` (nothing when the rows did not change).
    public func resume() {
        guard isPaused else { return }
        isPaused = false
        flush(isCatchUp: true)
    }

    func deliver(_ batch: VisibleRowsBatch) {
        subscribers.deliver(batch)
    }
}
