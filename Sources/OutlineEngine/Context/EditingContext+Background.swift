/// Work on a background context whose changes come back as one undo step.
extension EditingContext {
    /// Runs `body` on a context over the objects as they are now, off the caller's actor, then
    /// merges what it changed into this context as one undo step named `actionName`.
    ///
    /// `body` may take as long as it needs (an import of 100,000 items): this context stays
    /// free for editing meanwhile, and changes made here in between are dealt with as
    /// ``MergeConflict`` describes. Handles in `body`'s result are those of the background
    /// context: ``MergeReport/parentObject(for:)`` turns them into handles of this one.
    /// - Parameters:
    ///   - actionName: the name of the undo step.
    ///   - isolation: the actor this context belongs to; the caller's by default.
    ///   - body: the work, given the background context.
    ///   - finishing: run after the merge in the same undo step (see
    ///     ``merge(_:named:finishing:)``).
    /// - Throws: what `body` throws (nothing is merged then), or what the merge throws.
    public func performInBackground<R: Sendable>(
        named actionName: String, isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (EditingContext) throws -> R,
        finishing: ((MergeReport) throws -> Void)? = nil
    )
        async throws -> (result: R, report: MergeReport)
    {
        let (result, changes) = try await Self.runInBackground(fork(), body)
        return (result, try merge(changes, named: actionName, finishing: finishing))
    }

    /// Makes a context over `fork` and runs `body` on it, off any actor.
    @concurrent
    static func runInBackground<R: Sendable>(_ fork: ContextFork, _ body: @Sendable (EditingContext) throws -> R)
        async throws -> (R, ContextChanges)
    {
        let context = EditingContext(fork: fork)
        // The changes come back as one step; the background context needs no undo of its own.
        context.isUndoRegistrationEnabled = false
        let result = try body(context)
        return (result, context.changesSinceFork())
    }

    /// Replaces the members of the to-many relationship `relationship` of `object` with
    /// `members`, in that order, keeping inverses in step (one undo step unless in a group).
    ///
    /// - Throws: ``EngineError`` `invalidObject` for a deleted object, `typeMismatch` for a
    ///   member of the wrong entity.
    /// - Complexity: O(k + m) for the old and new members.
    public func setMembers(_ members: [ManagedObject], _ relationship: RelationshipIndex, of object: ManagedObject) throws {
        try checkAlive(object)
        let info = entity(of: object)
        precondition(info.relationships[relationship].isToMany, "setMembers on a to-one relationship")
        for member in members {
            try checkAlive(member)
            guard schema.infos[member.entity].isKind(of: info.destinations[relationship]) else {
                throw EngineError(
                    .typeMismatch, at: "\(info.name).\(info.relationships[relationship].name)",
                    "\(describe(member)) is not a \(schema.entities[info.destinations[relationship]].name)")
            }
        }
        precondition(Set(members).count == members.count, "setMembers with an object listed twice")
        try edit { setMembers(object, relationship, members) }
    }
}
