/// One primitive change to the graph, recorded with what is needed to reverse it (and, for
/// observers, what it became).
///
/// Every edit of an ``EditingContext`` is a sequence of these. Undo applies the reverse of
/// each change of a group, newest first; rollback does the same for all changes since the save.
enum Change {
    /// The object became alive (a new row, or an undeleted one).
    case revived(ManagedObject)
    /// The object became dead (its row keeps its values so it can be revived).
    case killed(ManagedObject)
    case attribute(ManagedObject, AttributeIndex, old: Value?)
    case toOne(ManagedObject, RelationshipIndex, old: ManagedObject?, new: ManagedObject?)
    case memberInserted(ManagedObject, RelationshipIndex, index: Int, member: ManagedObject)
    case memberRemoved(ManagedObject, RelationshipIndex, index: Int, member: ManagedObject)
    case membersReplaced(ManagedObject, RelationshipIndex, old: [ManagedObject], new: [ManagedObject])

    /// The object whose state this change touched.
    var object: ManagedObject {
        switch self {
        case .revived(let o), .killed(let o): o
        case .attribute(let o, _, _), .toOne(let o, _, _, _), .memberInserted(let o, _, _, _),
            .memberRemoved(let o, _, _, _), .membersReplaced(let o, _, _, _):
            o
        }
    }

    /// The change as observers see it.
    var observed: ObjectChange {
        switch self {
        case .revived(let o): .inserted(o)
        case .killed(let o): .deleted(o)
        case .attribute(let o, let a, _): .attribute(o, a)
        case .toOne(let o, let r, let old, let new): .toOne(o, r, from: old, to: new)
        case .memberInserted(let o, let r, let index, let member): .memberInserted(o, r, member: member, at: index)
        case .memberRemoved(let o, let r, let index, let member): .memberRemoved(o, r, member: member, at: index)
        case .membersReplaced(let o, let r, let old, let new): .membersReplaced(o, r, from: old, to: new)
        }
    }
}

/// A named group of changes that undo and redo treat as one step.
///
/// `start` and `end` identify the states before and after its changes (see
/// ``EditingContext/stateID``); they hold while no edit outside undo happened since the group
/// was made (`epoch`).
struct UndoGroup {
    var name: String?
    var changes: [Change] = []
    var start: UInt64 = 0
    var end: UInt64 = 0
    var epoch = 0
}

/// The objects a group of changes inserted, updated and deleted, as observers receive them.
public struct ChangeSet: Sendable, Equatable {
    /// Objects that became alive (inserted, or brought back by undo).
    public var inserted: Set<ManagedObject> = []
    /// Objects alive before and after whose attributes or relationships changed.
    public var updated: Set<ManagedObject> = []
    /// Objects that stopped being alive (deleted, or removed by undoing their insertion).
    public var deleted: Set<ManagedObject> = []

    /// A change set of the given objects.
    public init(inserted: Set<ManagedObject> = [], updated: Set<ManagedObject> = [], deleted: Set<ManagedObject> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing was inserted, updated or deleted.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Summarises a list of primitive changes.
    init<Changes: Sequence<Change>>(_ changes: Changes) {
        for change in changes { add(change) }
    }

    /// Folds one more primitive change into the summary: an object revived after a delete is
    /// no longer deleted, one killed after an insert was never there.
    mutating func add(_ change: Change) {
        switch change {
        case .revived(let o):
            if deleted.remove(o) == nil { inserted.insert(o) }
        case .killed(let o):
            updated.remove(o)
            if inserted.remove(o) == nil { deleted.insert(o) }
        default:
            let o = change.object
            if !inserted.contains(o) && !deleted.contains(o) { updated.insert(o) }
        }
    }
}
