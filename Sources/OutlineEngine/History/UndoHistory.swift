/// The undo and redo steps of an ``EditingContext`` in stable terms (object ids, entity and
/// property names, values), so that a document can keep them and undo keeps working after
/// it is saved, closed and opened again, by another process or days later.
///
/// A context's own steps refer to rows of its graph, and a deleted object lives on only as a
/// dead row, which is never saved. A history therefore carries what it needs to bring objects
/// back: every step that deleted objects holds a ``ObjectSnapshot`` of each (undoing a delete
/// recreates them with the same ids), and a step undone after inserting objects holds theirs
/// (redoing it recreates them).
///
/// Take one from a context with ``EditingContext/exportUndoHistory(limit:)``; give it to a
/// context over the saved document, freshly loaded, with ``EditingContext/importUndoHistory(_:)``.
public struct UndoHistory: Sendable, Hashable {
    /// The steps undo takes back, oldest first: the last one is undone first.
    public var undoSteps: [Step]
    /// The steps redo makes again, farthest first: the last one is redone first.
    public var redoSteps: [Step]

    /// A history with these steps (empty by default).
    public init(undoSteps: [Step] = [], redoSteps: [Step] = []) {
        self.undoSteps = undoSteps
        self.redoSteps = redoSteps
    }

    /// Whether there is nothing to undo or redo.
    public var isEmpty: Bool { undoSteps.isEmpty && redoSteps.isEmpty }

    /// The number of steps, undo and redo together.
    public var count: Int { undoSteps.count + redoSteps.count }

    /// One step: what one edit (or one group of edits) changed, with what undoing it needs.
    public struct Step: Sendable, Hashable {
        /// The step's name, such as `Add item “Buy milk”` (nil for an unnamed step).
        public var name: String?
        /// The changes in the order they were made. Each records the state before it, so
        /// taking a step back applies the reverse of each change, the last change first.
        public var changes: [Change]

        /// A step called `name` (nil for an unnamed one) made of `changes`, in the order they were made.
        public init(name: String?, changes: [Change]) {
            self.name = name
            self.changes = changes
        }
    }

    /// One primitive change, with the state before it.
    public enum Change: Sendable, Hashable {
        /// The object came into being (an insert, or an undone delete); reversing it deletes it again.
        case inserted(ObjectID)
        /// The object was deleted; the snapshot holds its values at that moment, from which
        /// reversing the change recreates it.
        case deleted(ObjectSnapshot)
        /// The attribute called `name` of the object changed; it was `old` before.
        case attribute(ObjectID, String, old: Value?)
        /// The to-one relationship called `name` changed; it pointed at `old` before.
        case toOne(ObjectID, String, old: ObjectID?)
        /// `member` was inserted at 0-based `index` of the to-many relationship called `name`.
        case memberInserted(ObjectID, String, index: Int, member: ObjectID)
        /// `member` was removed from 0-based `index` of the to-many relationship called `name`.
        case memberRemoved(ObjectID, String, index: Int, member: ObjectID)
        /// The members of the to-many relationship called `name` were replaced; `old` were the members before.
        case membersReplaced(ObjectID, String, old: [ObjectID])

        /// The object whose state the change touched.
        public var object: ObjectID {
            switch self {
            case .inserted(let id): id
            case .deleted(let snapshot): snapshot.id
            case .attribute(let id, _, _), .toOne(let id, _, _), .memberInserted(let id, _, _, _),
                .memberRemoved(let id, _, _, _), .membersReplaced(let id, _, _):
                id
            }
        }
    }

    /// An object's stored values at one moment: what recreating it needs.
    public struct ObjectSnapshot: Sendable, Hashable {
        /// The object's id.
        public var id: ObjectID
        /// The name of the object's (concrete) entity.
        public var entity: String
        /// The attributes with a value, by name (nil attributes are left out).
        public var attributes: [String: Value]
        /// The to-one relationships that point at an object, by name.
        public var toOne: [String: ObjectID]
        /// The to-many relationships with members, by name, members in their stored order.
        public var toMany: [String: [ObjectID]]

        /// The values of object `id` of `entity`, as the properties of the same names describe them.
        public init(
            id: ObjectID, entity: String, attributes: [String: Value] = [:],
            toOne: [String: ObjectID] = [:], toMany: [String: [ObjectID]] = [:]
        ) {
            self.id = id
            self.entity = entity
            self.attributes = attributes
            self.toOne = toOne
            self.toMany = toMany
        }
    }
}
