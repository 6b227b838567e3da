/// The results of a fetch request, kept up to date as the document changes, with every change
/// delivered as one ``ResultsBatch`` a list view can animate: a fetched-results controller.
///
/// A controller fetches once when it is made. After each undo step of its context (an edit, a
/// group of edits, an undo, a redo, a rollback, a merged scratch or background context, a
/// reload) it updates its results and delivers one batch to every handler registered with
/// ``onChange(_:)`` and every stream made by ``batches()``; a step that changes nothing in the
/// results delivers nothing.
///
/// ## Cost
/// An update re-evaluates only the objects the step touched: for k touched objects it costs
/// O(k log n) sort-key comparisons plus O(k) moves inside chunks of at most 512 rows, never a
/// fetch. A reload (every object replaced) fetches again.
///
/// ## What counts as a change
/// An object is re-evaluated (predicate, sort keys, section) when the step changed one of its
/// own attributes or relationships. Like Core Data's controller, a predicate or sort key that
/// reads *another* object through a relationship (`parent.text`) is not re-evaluated when only
/// that other object changes.
///
/// ## Pausing
/// ``pause()`` stops deliveries (while a user drags a row, say: the list already shows the
/// move). The controller notes which objects changed; ``resume()`` brings the results up to
/// date and delivers one catch-up batch (``ResultsBatch/isCatchUp``) with everything since the
/// pause, or nothing when nothing changed.
///
/// ## Isolation
/// A controller belongs to the isolation domain of its context (the main actor for a document
/// shown in an interface): like the context, it is not `Sendable`, and its handlers run there,
/// synchronously, right after the step. Its batches are `Sendable` values, so ``batches()``
/// streams can be read from any task.
public final class ResultsController {
    /// The context whose changes the controller follows.
    public let context: EditingContext
    /// The request the results answer. Its fetch limit and offset must be unset.
    public let request: FetchRequest
    /// The key path whose value groups the rows into sections, if any.
    public let sectionKeyPath: String?

    let predicate: BoundPredicate?
    let sort: BoundSortDescriptors
    let sectionKey: BoundSortDescriptors?
    /// Whether sections are in descending order of their value (when the first sort descriptor
    /// sorts by the section key path, descending).
    let sectionsDescending: Bool
    /// For each entity index, its rank among the request's entities (-1 when not fetched).
    let entityRank: [Int]

    var list = RowList<ResultsEntry>()
    var sections: [ResultsSectionState] = []
    /// `sectionStarts[i]`: the rows before section `i`.
    var sectionStarts: [Int] = [0]

    // Changes not delivered yet (see ResultsController+Update.swift).
    var pendingKeys: [ManagedObject: Set<String>] = [:]
    var pendingReload = false
    var pendingReason: ChangeReason = .edit
    var pendingActionName: String?
    var pendingSteps = 0

    /// Whether deliveries are paused (see ``pause()``).
    public private(set) var isPaused = false
    /// The last error met while re-evaluating a changed object (a predicate or sort key over
    /// its work limit); the object is left out of the results. `nil` when there was none.
    public internal(set) var evaluationError: EngineError?

    private let subscribers = BatchSubscribers<ResultsBatch>()
    private var observer: ObserverToken?

    /// Fetches `request` in `context` and follows its changes.
    ///
    /// - Parameters:
    ///   - context: the context whose objects are fetched and followed.
    ///   - request: the entity, predicate, sort descriptors and window of the rows.
    ///   - sectionKeyPath: groups rows by the value of this key path (sections are
    ///     ordered by that value, ascending, or descending when the first sort descriptor sorts
    ///     by the same key path descending; rows within a section by the sort descriptors).
    /// - Throws: ``EngineError`` for an unknown entity, a predicate, sort key or section key
    ///   that does not fit the entity, an evaluation over its work limit, or a request with a
    ///   fetch limit or offset (`unsupportedRequest`).
    /// - Complexity: one fetch, O(n log n).
    public init(context: EditingContext, request: FetchRequest, sectionKeyPath: String? = nil) throws {
        guard request.fetchLimit == nil && request.fetchOffset == 0 else {
            throw EngineError(
                .unsupportedRequest, at: request.entityName, "a results controller cannot follow a request with a fetch limit or offset",
                hint: "Fetch every matching object and show the window you need.")
        }
        self.context = context
        self.request = request
        self.sectionKeyPath = sectionKeyPath
        let schema = context.schema
        let entity = try context.entityIndex(request.entityName)
        predicate = try request.predicate?.bound(to: schema, entity: entity, indexOrdering: request.indexOrdering)
        sort = try request.sortDescriptors.bound(to: schema, entity: entity)
        if let sectionKeyPath {
            let descriptor = FetchSortDescriptor(sectionKeyPath)
            sectionKey = try [descriptor].bound(to: schema, entity: entity)
            let first = request.sortDescriptors.first
            sectionsDescending = first.map { $0.keyPath == descriptor.keyPath && !$0.ascending } ?? false
        } else {
            sectionKey = nil
            sectionsDescending = false
        }
        var rank = [Int](repeating: -1, count: schema.infos.count)
        let fetched = request.includesSubentities ? [entity] + schema.infos[entity].subentities : [entity]
        for (index, e) in fetched.enumerated() { rank[e.rawValue] = index }
        entityRank = rank
        try load()
        observer = context.addChangeObserver { [weak self] notification in self?.receive(notification) }
    }

    deinit {
        if let observer { context.removeObserver(observer) }
    }

    // MARK: Reading

    /// The number of sections (always 1 without a section key path).
    public var numberOfSections: Int { sections.count }

    /// The name and row count of section `index`.
    public func section(at index: Int) -> ResultsSection {
        ResultsSection(name: sections[index].name, count: sections[index].count)
    }

    /// Every section's name and row count.
    public var sectionInfos: [ResultsSection] { sections.map { ResultsSection(name: $0.name, count: $0.count) } }

    /// The number of rows of section `section`.
    public func numberOfRows(inSection section: Int) -> Int { sections[section].count }

    /// The number of rows in all sections.
    public var count: Int { list.count }

    /// The object at `path`.
    ///
    /// - Complexity: O(log n).
    public func object(at path: ResultsIndexPath) -> ManagedObject {
        precondition(path.section >= 0 && path.section < sections.count, "section \(path.section) outside 0..<\(sections.count)")
        precondition(
            path.row >= 0 && path.row < sections[path.section].count,
            "row \(path.row) outside the \(sections[path.section].count) rows of section \(path.section)")
        return list[sectionStarts[path.section] + path.row].object
    }

    /// Where `object` is in the results, if it is there.
    ///
    /// - Complexity: O(log n) (a chunk of at most 512 rows is searched).
    public func indexPath(of object: ManagedObject) -> ResultsIndexPath? {
        list.index(of: object).map { path(ofGlobal: $0, starts: sectionStarts) }
    }

    /// Every object, section after section.
    ///
    /// - Complexity: O(n).
    public var fetchedObjects: [ManagedObject] { list.map(\.object) }

    /// The objects of each section, in order.
    ///
    /// - Complexity: O(n).
    public var sectionedObjects: [[ManagedObject]] {
        let all = fetchedObjects
        return sections.indices.map { Array(all[sectionStarts[$0] ..< sectionStarts[$0 + 1]]) }
    }

    // MARK: Delivery

    /// Calls `handler` with each batch, right after the step that caused it.
    @discardableResult
    public func onChange(_ handler: @escaping (ResultsBatch) -> Void) -> BatchSubscription {
        subscribers.add(handler)
    }

    /// Stops calling the handler registered as `subscription`.
    public func cancel(_ subscription: BatchSubscription) {
        subscribers.cancel(subscription)
    }

    /// A stream of the batches delivered from now on; it ends when the controller goes away.
    /// Batches wait in the stream until read (none is dropped).
    public func batches() -> AsyncStream<ResultsBatch> {
        subscribers.stream()
    }

    /// Stops deliveries until ``resume()``; changes are noted, not delivered.
    public func pause() { isPaused = true }

    /// Brings the results up to date and delivers one catch-up batch summing up every change
    /// since ``pause()`` (nothing when the results did not change).
    ///
    /// - Complexity: that of one update touching every object changed during the pause.
    public func resume() {
        guard isPaused else { return }
        isPaused = false
        flush(isCatchUp: true)
    }

    func deliver(_ batch: ResultsBatch) {
        subscribers.deliver(batch)
    }
}
