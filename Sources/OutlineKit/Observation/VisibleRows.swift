import OutlineEngine

/// The rows an outliner shows: the outline flattened in document order, without the root,
/// skipping the children of collapsed items, kept up to date as the document changes.
///
/// The rows are read in two ways. By item, through the walk (``firstRow``, ``row(after:skippingChildren:)``,
/// ``row(before:)``, ``row(of:)``, ``rows(from:count:)``): each step looks at one item's
/// neighbours in the document, so a screenful costs the same in an outline of ten items and of
/// a million, and nothing is flattened. By index (``count``, subscripts, ``index(of:)``,
/// ``rows``) and through batches (``onChange(_:)``, ``batches()``): the first such use
/// flattens the rows once (``isMaterialized``), and from then on every step updates them
/// incrementally. Until then a step costs nothing but noting a reload.
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
/// // A screen around the cursor item, without flattening anything:
/// let screen = rows.row(of: cursor).map { rows.rows(from: $0, count: height) } ?? []
/// // A list view by index, following every step:
/// rows.onChange { batch in batch.apply(to: &shown) }   // or animate batch.changes
/// let page = rows.rows(in: top ..< min(top + height, rows.count))
/// ```
///
/// ## Cost
/// Making the rows costs nothing; the walk costs O(1) per row (O(depth) after the last row of
/// a deep subtree, and to find an item's row). Flattening (at the first index-based read or
/// subscription) costs what the rows show. After that a step costs what it shows or hides (expanding an
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
    /// The item whose descendants are the rows (an outliner zoomed into it); nil when they
    /// are the root's. A zoomed view has no rows after a reload (every object was replaced).
    public let top: ManagedObject?
    /// False once a reload replaced the objects under a zoomed view's ``top``.
    var topExists = true

    /// The flattened rows (empty until ``isMaterialized``).
    var list = RowList<VisibleRow>()
    /// Whether the rows were flattened for reading by index or for batches (they are then
    /// kept up to date step by step).
    public private(set) var isMaterialized = false
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
    /// - Complexity: O(1): nothing is flattened until read by index.
    public init(document: OutlineDocument) {
        self.document = document
        top = nil
        root = document.root
        observer = document.context.addChangeObserver { [weak self] notification in self?.receive(notification) }
    }

    /// The visible rows of `top`'s subtree (an outliner zoomed into `top`), following the
    /// document's changes: `top`'s children are the rows of depth 1, shown even when `top` is
    /// collapsed; items outside the subtree have no rows, and neither has `top` itself.
    ///
    /// - Complexity: O(1): nothing is flattened until read by index.
    public init(document: OutlineDocument, under top: ManagedObject) {
        self.document = document
        self.top = top
        root = document.root
        observer = document.context.addChangeObserver { [weak self] notification in self?.receive(notification) }
    }

    deinit {
        if let observer { document.context.removeObserver(observer) }
    }

    // MARK: Reading

    /// The number of rows.
    ///
    /// - Complexity: O(1) once materialized (the first read flattens the rows).
    public var count: Int {
        materialize()
        return list.count
    }

    /// The row at `index`.
    ///
    /// - Complexity: O(log n) once materialized (the first read flattens the rows).
    public subscript(index: Int) -> VisibleRow {
        materialize()
        return list[index]
    }

    /// The rows in `range` (a screenful, say).
    ///
    /// - Complexity: O(log n + range.count) once materialized (the first read flattens the rows).
    public func rows(in range: Range<Int>) -> [VisibleRow] {
        materialize()
        return list.rows(in: range)
    }

    /// Every row.
    ///
    /// - Complexity: O(n).
    public var rows: [VisibleRow] {
        materialize()
        return list.rows
    }

    /// The index of `item`'s row, or nil when it is not shown (under a collapsed item, deleted,
    /// or the root).
    ///
    /// - Complexity: O(log n) once materialized (a chunk of at most 512 rows is searched; the
    ///   first read flattens the rows).
    public func index(of item: ManagedObject) -> Int? {
        materialize()
        return list.index(of: item)
    }

    /// Flattens the rows for reading by index, once; later steps keep them up to date.
    func materialize() {
        guard !isMaterialized else { return }
        isMaterialized = true
        root = document.root
        list = RowList(flattened())
        pending = PendingOutlineChanges()
        pendingSteps = 0
        pendingActionName = nil
    }

    /// The rows as the document is now, computed from scratch.
    func flattened() -> [VisibleRow] {
        guard let top else { return rootExists ? Self.flatten(document) : [] }
        var rows: [VisibleRow] = []
        if topExists, document.context.exists(top) { Self.appendDescendants(of: top, depth: 0, in: document, to: &rows) }
        return rows
    }

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
    ///
    /// The batches say where rows went by index, so the rows are flattened now (once).
    @discardableResult
    public func onChange(_ handler: @escaping (VisibleRowsBatch) -> Void) -> BatchSubscription {
        materialize()
        return subscribers.add(handler)
    }

    /// Stops calling the handler registered as `subscription`.
    public func cancel(_ subscription: BatchSubscription) {
        subscribers.cancel(subscription)
    }

    /// A stream of the batches delivered from now on; it ends when the rows go away.
    ///
    /// The batches say where rows went by index, so the rows are flattened now (once).
    public func batches() -> AsyncStream<VisibleRowsBatch> {
        materialize()
        return subscribers.stream()
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
