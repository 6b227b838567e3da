import Foundation

/// What a merge needs to know about a fork once the changes are worked out: the context
/// forked and which handles are new. Unlike ``ContextFork`` it holds no snapshot, so that
/// ``ContextChanges`` keep no pages of the parent's graph alive.
struct ForkMark: Sendable {
    /// The context forked.
    let parent: UUID
    /// Per entity, the rows of the parent's table at the fork: a row at or above is a new object.
    let rowCounts: [Int]

    init(_ fork: ContextFork) {
        parent = fork.parent
        rowCounts = fork.rowCounts
    }

    /// Whether `object` was made after the fork (it is not an object of the parent).
    func isNew(_ object: ManagedObject) -> Bool { object.row >= rowCounts[object.entity.rawValue] }
}
