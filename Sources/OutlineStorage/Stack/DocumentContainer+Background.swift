import OutlineEngine

extension DocumentContainer {
    /// Runs `body` on a background context over the document's objects as they are now, then
    /// merges what it changed into ``context`` as one undo step named `actionName` (see
    /// `EditingContext.performInBackground(named:isolation:_:)`).
    public func performBackgroundTask<R: Sendable>(
        named actionName: String, isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (EditingContext) throws -> R,
        finishing: ((MergeReport) throws -> Void)? = nil
    )
        async throws -> (result: R, report: MergeReport)
    {
        try await context.performInBackground(named: actionName, body, finishing: finishing)
    }

    /// A scratch context over ``context``, for an edit sheet: commit it as one undo step or
    /// discard it (see `EditingContext.makeScratchContext()`).
    public func makeScratchContext() -> EditingContext {
        context.makeScratchContext()
    }
}
