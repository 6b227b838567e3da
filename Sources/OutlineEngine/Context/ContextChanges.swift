import Foundation

/// What a scratch or background context changed since its fork, as a value that can be sent
/// to the actor of the context it came from and merged there
/// (``EditingContext/merge(_:named:finishing:)``).
///
/// Properties are given with their value at the fork and their new value, so that the merge
/// can tell what the parent changed meanwhile. Objects made in the scratch context are named
/// by their handles there; the merge gives them handles (and ids) of the parent.
public struct ContextChanges: Sendable {
    /// An object made after the fork, with its attribute values.
    struct Insertion: Sendable {
        var object: ManagedObject
        var values: [Value?]
    }

    /// An attribute of an object of the parent, before and after.
    struct AttributeChange: Sendable {
        var object: ManagedObject
        var attribute: AttributeIndex
        var base: Value?
        var value: Value?
    }

    /// A to-one relationship, before (nil for a new object) and after.
    struct ToOneChange: Sendable {
        var object: ManagedObject
        var relationship: RelationshipIndex
        var base: ManagedObject?
        var target: ManagedObject?
    }

    /// A to-many relationship, before (empty for a new object) and after.
    struct ToManyChange: Sendable {
        var object: ManagedObject
        var relationship: RelationshipIndex
        var base: [ManagedObject]
        var members: [ManagedObject]
    }

    /// The properties of an object of the parent as they were at the fork.
    struct ObjectState: Sendable {
        /// By attribute index.
        var attributes: [Value?]
        /// By relationship index; a to-one relationship as no member or one.
        var relationships: [[ManagedObject]]
    }

    /// Where the scratch context started. Not the fork's snapshot: holding it while the
    /// merge writes would make the parent copy every page it touches (see ``PagedArray``).
    let fork: ForkMark
    var insertions: [Insertion] = []
    var attributes: [AttributeChange] = []
    var toOne: [ToOneChange] = []
    var toMany: [ToManyChange] = []
    /// Objects of the parent that were deleted.
    var deletions: [ManagedObject] = []
    /// Per entry of ``deletions``, its properties at the fork (to tell whether the parent
    /// changed it since).
    var deletedStates: [ObjectState] = []

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertions.isEmpty && attributes.isEmpty && toOne.isEmpty && toMany.isEmpty && deletions.isEmpty
    }

    /// The number of objects inserted, of objects of the parent deleted, and of properties changed.
    public var counts: (inserted: Int, deleted: Int, properties: Int) {
        (insertions.count, deletions.count, attributes.count + toOne.count + toMany.count)
    }
}
