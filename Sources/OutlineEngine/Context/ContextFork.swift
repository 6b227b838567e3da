import Foundation

/// Where a scratch or background context starts: the objects of a context at one moment.
///
/// Made with ``EditingContext/fork()`` in O(entities × properties); `Sendable`, so a task on
/// another actor can build a context on it (``EditingContext/init(fork:)``) and hand the
/// changes back (``EditingContext/changesSinceFork()``) to be merged as one undo step.
public struct ContextFork: Sendable {
    /// The objects when the fork was made.
    public let snapshot: GraphSnapshot
    /// The context forked.
    let parent: UUID
    /// Per entity, the rows of the parent's table then: a row at or above is a new object.
    let rowCounts: [Int]

    /// Whether `object` was made after the fork (it is not an object of the parent).
    func isNew(_ object: ManagedObject) -> Bool { object.row >= rowCounts[object.entity.rawValue] }
}
