import OutlineEngine

/// One change of a ``VisibleRowsBatch``. Deletions and the sources of moves are row indices
/// before the batch; insertions and the destinations of moves are indices after it.
public enum VisibleRowChange: Hashable, Sendable {
    /// The row of `item` at `at` (before the batch) is gone: the item was deleted, or is now
    /// under a collapsed item.
    case deleted(ManagedObject, at: Int)
    /// `row` is new at `at` (after the batch): an inserted item, or one shown by expanding.
    case inserted(VisibleRow, at: Int)
    /// The item's row moved (with the item, or with an ancestor: indent and outdent move the
    /// rows below too when their depth changes); `row` is the row as it is now.
    case moved(VisibleRow, from: Int, to: Int, changedKeys: Set<String>)
    /// The row stayed in place but changed: its depth, children or collapsed flag (`row` is
    /// the row now), or the item's attributes (`changedKeys`, such as `text`).
    case updated(VisibleRow, at: Int, now: Int, changedKeys: Set<String>)
}

/// What one undo step (or undo, redo, rollback, merge, reload) did to the visible rows of an
/// outline.
///
/// ## The order of the changes
/// ``changes`` lists deletions (old indices, descending), then insertions (new indices,
/// ascending), then moves and then updates (both by new index, ascending): the order a list
/// view takes them in one batch update. ``apply(to:)`` applies them to an array: it removes
/// the deleted rows and the moves' sources (old indices, descending), inserts the inserted
/// rows and the moves' destinations (new indices, ascending), and replaces updated rows.
public struct VisibleRowsBatch: Sendable {
    /// What caused it (for a catch-up batch, the last change it sums up).
    public var reason: ChangeReason
    /// The undo step's name, when the batch is one named step.
    public var actionName: String?
    /// Whether the batch sums up everything since ``VisibleRows/pause()``.
    public var isCatchUp: Bool
    /// The changes, in the order described above.
    public var changes: [VisibleRowChange]

    /// A batch of `changes`, in the documented order.
    public init(reason: ChangeReason, actionName: String? = nil, isCatchUp: Bool = false, changes: [VisibleRowChange]) {
        self.reason = reason
        self.actionName = actionName
        self.isCatchUp = isCatchUp
        self.changes = changes
    }

    /// Whether the batch changes nothing.
    public var isEmpty: Bool { changes.isEmpty }

    /// Applies the batch to `rows`, the rows before it, leaving the rows after it.
    ///
    /// - Precondition: `rows` are the rows the batch was computed from.
    public func apply(to rows: inout [VisibleRow]) {
        var removals: [Int] = []
        var insertions: [(Int, VisibleRow)] = []
        var updates: [(Int, VisibleRow)] = []
        for change in changes {
            switch change {
            case .deleted(_, let index): removals.append(index)
            case .inserted(let row, let index): insertions.append((index, row))
            case .moved(let row, let from, let to, _):
                removals.append(from)
                insertions.append((to, row))
            case .updated(let row, _, let now, _): updates.append((now, row))
            }
        }
        for index in removals.sorted(by: >) { rows.remove(at: index) }
        for (index, row) in insertions.sorted(by: { $0.0 < $1.0 }) { rows.insert(row, at: index) }
        for (index, row) in updates { rows[index] = row }
    }
}
