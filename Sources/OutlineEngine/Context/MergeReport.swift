/// What merging a scratch or background context's changes did (``EditingContext/merge(_:named:finishing:)``).
public struct MergeReport: Sendable {
    /// The objects the scratch context made, and the handles they have in the parent.
    public internal(set) var insertedObjects: [ManagedObject: ManagedObject] = [:]
    /// Every change of the parent since the fork that met a change of the scratch context,
    /// in the order found, with what the merge did about it.
    public internal(set) var conflicts: [MergeConflict] = []

    /// The parent's handle for an object named by its handle in the scratch context: the same
    /// for objects the parent had, the new one for objects the scratch context made.
    public func parentObject(for object: ManagedObject) -> ManagedObject {
        insertedObjects[object] ?? object
    }
}

/// A change of the parent since the fork that met a change of the scratch context.
///
/// The policy, for each kind:
/// - ``Kind-swift.enum/deletedInParent``: the parent deleted an object the scratch context
///   changed, related to, or made a member of a list: the object stays deleted and those
///   changes are dropped.
/// - ``Kind-swift.enum/changedInBoth``: both changed the property. For an attribute or a
///   to-one relationship the scratch context's value is kept. For a to-many relationship the
///   scratch context's list is kept, with the members the parent added since the fork put
///   back after their neighbours and those it removed taken out.
/// - ``Kind-swift.enum/deletedInScratch``: the scratch context deleted an object the parent
///   changed since the fork: it is deleted.
/// - ``Kind-swift.enum/deleteRefused``: the scratch context deleted an object that the
///   parent, since the fork, related to an object under a Deny rule: it is kept.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// What met what.
    public enum Kind: String, Sendable, Hashable {
        /// The parent deleted an object the scratch context changed: it stays deleted.
        case deletedInParent
        /// Both changed the property: the scratch context's value wins.
        case changedInBoth
        /// The scratch context deleted an object the parent changed: it is deleted.
        case deletedInScratch
        /// The scratch context's delete would break a Deny rule the parent set up: it is kept.
        case deleteRefused
    }

    /// What happened.
    public let kind: Kind
    /// The object, as a handle of the parent.
    public let object: ManagedObject
    /// Its persistent id.
    public let objectID: ObjectID
    /// The name of its entity.
    public let entity: String
    /// The property concerned, if one.
    public let property: String?

    /// The object (and property) and what went wrong, in one line.
    public var description: String {
        let place = "\(entity) \(objectID)" + (property.map { ".\($0)" } ?? "")
        return switch kind {
        case .deletedInParent: "\(place): deleted here since the scratch context began; its changes there were dropped"
        case .changedInBoth: "\(place): changed both here and in the scratch context; the scratch context's change was kept"
        case .deletedInScratch: "\(place): changed here but deleted in the scratch context; it was deleted"
        case .deleteRefused: "\(place): deleted in the scratch context, but a Deny rule keeps it here; it was kept"
        }
    }
}
