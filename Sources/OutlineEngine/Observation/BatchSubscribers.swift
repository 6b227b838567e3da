/// Identifies a handler registered with ``ResultsController/onChange(_:)`` (or with another
/// observer of the same kind), for cancelling it.
public struct BatchSubscription: Hashable, Sendable {
    package let id: Int
    /// A subscription with number `id` (for observers in other modules).
    package init(id: Int) { self.id = id }
}

/// Where an observer delivers its batches: handlers, called in the order they were
/// registered, and streams, each given every batch until it is no longer read. The delivery
/// half of ``ResultsController`` and of OutlineKit's visible rows.
///
/// A class, so that a handler may register or cancel subscriptions while a batch is being
/// delivered. The streams end when it goes away, that is with its observer.
package final class BatchSubscribers<Batch: Sendable> {
    private var handlers: [Int: (Batch) -> Void] = [:]
    private var streams: [Int: AsyncStream<Batch>.Continuation] = [:]
    private var lastID = 0

    /// No subscribers yet.
    package init() {}

    deinit {
        for continuation in streams.values { continuation.finish() }
    }

    /// Registers `handler`, called with each batch from now on.
    package func add(_ handler: @escaping (Batch) -> Void) -> BatchSubscription {
        lastID += 1
        handlers[lastID] = handler
        return BatchSubscription(id: lastID)
    }

    /// Stops calling the handler registered as `subscription`.
    package func cancel(_ subscription: BatchSubscription) {
        handlers[subscription.id] = nil
    }

    /// A stream of the batches delivered from now on. Batches wait in it until read (none
    /// is dropped).
    package func stream() -> AsyncStream<Batch> {
        let (stream, continuation) = AsyncStream<Batch>.makeStream(bufferingPolicy: .unbounded)
        lastID += 1
        streams[lastID] = continuation
        return stream
    }

    /// Calls every handler, then hands `batch` to every stream still being read.
    package func deliver(_ batch: Batch) {
        for key in handlers.keys.sorted() { handlers[key]?(batch) }
        for (key, continuation) in streams {
            if case .terminated = continuation.yield(batch) { streams[key] = nil }
        }
    }
}
