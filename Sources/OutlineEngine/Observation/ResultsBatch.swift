/// A row's place in the results of a ``ResultsController``: section, then row in the section.
public struct ResultsIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's position among the sections.
    public var section: Int
    /// The row's position in its section.
    public var row: Int

    /// The path of row `row` of section `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Sections first, then rows: the order of the rows on screen.
    public static func < (a: ResultsIndexPath, b: ResultsIndexPath) -> Bool {
        (a.section, a.row) < (b.section, b.row)
    }

    /// `[section, row]`.
    public var description: String { "[\(section), \(row)]" }
}

/// One change of a ``ResultsBatch``.
///
/// Positions follow the convention of list views and of `CollectionDifference`: deletions
/// (of sections and rows) and the sources of moves are positions in the results *before* the
/// batch; insertions and the destinations of moves are positions *after* it. Updates carry both.
public enum ResultsChange: Hashable, Sendable {
    /// The section at `at` (before the batch) is gone; its rows are listed as deleted or moved too.
    case sectionDeleted(at: Int)
    /// A section was inserted at `at` (after the batch), named `name`; its rows are listed as
    /// inserted or moved too.
    case sectionInserted(at: Int, name: String)
    /// `object` left the results (deleted, or no longer matching the predicate).
    case rowDeleted(ManagedObject, at: ResultsIndexPath)
    /// `object` joined the results.
    case rowInserted(ManagedObject, at: ResultsIndexPath)
    /// `object` moved because a sort key or its section changed; `changedKeys` names the
    /// attributes and relationships of the object that changed.
    case rowMoved(ManagedObject, from: ResultsIndexPath, to: ResultsIndexPath, changedKeys: Set<String>)
    /// `object` stayed in place relative to its neighbours but changed: reconfigure its row.
    /// `at` is its path before the batch, `now` after it.
    case rowUpdated(ManagedObject, at: ResultsIndexPath, now: ResultsIndexPath, changedKeys: Set<String>)
}

/// What one undo step (or an undo, redo, rollback, merge or reload) did to the results of a
/// ``ResultsController``: everything a list view needs to animate it.
///
/// ## The order of the changes
///
/// ``changes`` lists, in this order:
/// 1. section deletions, by old section index, descending;
/// 2. section insertions, by new section index, ascending;
/// 3. row deletions, by old index path, descending;
/// 4. row insertions, by new index path, ascending;
/// 5. moves, by new index path, ascending;
/// 6. updates, by new index path, ascending.
///
/// That is the order Core Data's fetched-results controller reports a batch in, and a table
/// view given all of them between the start and end of one batch update (deletions at old
/// positions, insertions at new ones) animates exactly the change. A consumer that keeps the
/// rows in arrays applies the batch with ``apply(to:)``, which does, in order: remove every row
/// that is deleted or moved away (old paths, descending); remove the deleted sections (old
/// indices, descending); insert the new sections empty (new indices, ascending); insert every
/// inserted or moved row (new paths, ascending). Updates change no position.
public struct ResultsBatch: Sendable {
    /// What caused the batch. A catch-up batch delivered by ``ResultsController/resume()``
    /// carries the reason of the last change it sums up.
    public var reason: ChangeReason
    /// The name of the undo step, when the batch is one step with a name.
    public var actionName: String?
    /// Whether the batch sums up everything that happened while the controller was paused.
    public var isCatchUp: Bool
    /// The changes, in the order described above.
    public var changes: [ResultsChange]

    /// A batch of `changes` (in the documented order).
    public init(reason: ChangeReason, actionName: String? = nil, isCatchUp: Bool = false, changes: [ResultsChange]) {
        self.reason = reason
        self.actionName = actionName
        self.isCatchUp = isCatchUp
        self.changes = changes
    }

    /// Whether the batch changes nothing.
    public var isEmpty: Bool { changes.isEmpty }

    /// Applies the batch to `sections`, the results before it (one array of objects per
    /// section), leaving the results after it.
    ///
    /// - Precondition: `sections` are the results the batch was computed from.
    public func apply(to sections: inout [[ManagedObject]]) {
        var removals: [ResultsIndexPath] = []
        var insertions: [(ResultsIndexPath, ManagedObject)] = []
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        for change in changes {
            switch change {
            case .sectionDeleted(let index): deletedSections.append(index)
            case .sectionInserted(let index, _): insertedSections.append(index)
            case .rowDeleted(_, let path): removals.append(path)
            case .rowInserted(let object, let path): insertions.append((path, object))
            case .rowMoved(let object, let from, let to, _):
                removals.append(from)
                insertions.append((to, object))
            case .rowUpdated: break
            }
        }
        for path in removals.sorted(by: >) { sections[path.section].remove(at: path.row) }
        for index in deletedSections.sorted(by: >) { sections.remove(at: index) }
        for index in insertedSections.sorted() { sections.insert([], at: index) }
        for (path, object) in insertions.sorted(by: { $0.0 < $1.0 }) { sections[path.section].insert(object, at: path.row) }
    }
}
