/// One primitive change to the graph, recorded with what is needed to reverse it.
///
/// Every edit of an ``EditingContext`` is a sequence of these. Undo applies the reverse of
/// each change of a group, newest first; rollback does the same for all changes since the save.
enum Change {
    /// The object became alive (a new row, or an undeleted one).
    case revived(ManagedObject)
    /// The object became dead (its row keeps its values so it can be revived).
    case killed(ManagedObject)
    case attribute(ManagedObject, AttributeIndex, old: Value?)
    case toOne(ManagedObject, RelationshipIndex, old: ManagedObject?)
    case memberInserted(ManagedObject, RelationshipIndex, index: Int, member: ManagedObject)
    case memberRemoved(ManagedObject, RelationshipIndex, index: Int, member: ManagedObject)
    case membersReplaced(ManagedObject, RelationshipIndex, old: [ManagedObject])

    /// The object whose state this change touched.
    var object: ManagedObject {
        switch self {
        case .revived(let o), .killed(let o): o
        case .attribute(let o, _, _), .toOne(let o, _, _), .memberInserted(let o, _, _, _),
             .memberRemoved(let o, _, _, _), .membersReplaced(let o, _, _): o
        }
    }
}

/// A named group of changes that undo and redo treat as one step.
struct UndoGroup {
    var name: String?
    var changes: [Change] = []
}

/// The objects a group of changes inserted, updated and deleted, as observers receive them.
public struct ChangeSet: Sendable, Equatable {
    public var inserted: Set<ManagedObject> = []
    public var updated: Set<ManagedObject> = []
    public var deleted: Set<ManagedObject> = []

    public init(inserted: Set<ManagedObject> = [], updated: Set<ManagedObject> = [], deleted: Set<ManagedObject> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Summarises a list of primitive changes.
    init(_ changes: [Change]) {
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
