/// One primitive change in the order it was applied, with the positions list views need.
///
/// A batch (one undo step, an undo, a redo, a rollback, a merge) is a list of these; applying
/// them in order to the state before the batch gives the state after it. An object moved from
/// one list to another shows as `memberRemoved` (old parent, old index), `memberInserted` (new
/// parent, new index) and `toOne` on the object (old and new parent); the keys an update
/// changed are the attributes and relationships its `attribute`, `toOne` and member changes
/// name. ``ResultsController`` turns these into list changes.
public enum ObjectChange: Sendable, Hashable {
    /// The object became alive: inserted, or brought back by undo.
    case inserted(ManagedObject)
    /// The object was deleted (also by undoing its insertion).
    case deleted(ManagedObject)
    /// An attribute of the object changed.
    case attribute(ManagedObject, AttributeIndex)
    /// A to-one relationship of the object changed.
    case toOne(ManagedObject, RelationshipIndex, from: ManagedObject?, to: ManagedObject?)
    /// `member` was inserted at `index` into a to-many relationship of the object.
    case memberInserted(ManagedObject, RelationshipIndex, member: ManagedObject, at: Int)
    /// `member` was removed from `index` of a to-many relationship of the object.
    case memberRemoved(ManagedObject, RelationshipIndex, member: ManagedObject, at: Int)
    /// A to-many relationship of the object was replaced as a whole.
    case membersReplaced(ManagedObject, RelationshipIndex, from: [ManagedObject], to: [ManagedObject])

    /// The object whose state changed.
    public var object: ManagedObject {
        switch self {
        case .inserted(let o), .deleted(let o): o
        case .attribute(let o, _), .toOne(let o, _, _, _), .memberInserted(let o, _, _, _),
            .memberRemoved(let o, _, _, _), .membersReplaced(let o, _, _, _):
            o
        }
    }
}

/// What caused a batch of changes.
public enum ChangeReason: Sendable, Hashable {
    /// An edit or a group of edits (one undo step), including a merged scratch context.
    case edit
    /// ``EditingContext/undo()``.
    case undo
    /// ``EditingContext/redo()``.
    case redo
    /// ``EditingContext/rollback()``.
    case rollback
    /// The whole graph was replaced (a document read again after another program changed
    /// it): every handle from before is invalid and lists must fetch again.
    case reload
}

/// One batch of changes as observers registered with
/// ``EditingContext/addChangeObserver(_:)`` receive it.
public struct ChangeNotification: Sendable {
    /// What caused it.
    public let reason: ChangeReason
    /// The undo step's name, if it has one.
    public let actionName: String?
    /// The objects inserted, updated and deleted, summed up.
    public let summary: ChangeSet
    /// Every primitive change, in the order applied (empty for ``ChangeReason/reload``).
    public let changes: [ObjectChange]
}
