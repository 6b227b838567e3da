import Foundation

/// Runs the recursive phases of deep predicates (parsing, substitution, binding, evaluation)
/// on a thread with a stack of its own.
///
/// Recursion follows the predicate, never the data, and the predicate's nesting is limited
/// (``FetchPredicate/maximumNestingDepth``, ``FetchPredicate/maximumExpressionNestingDepth``),
/// but a deep predicate at those limits needs several megabytes of stack in a debug build,
/// more than a caller's thread may have (secondary threads often get 512 KiB). Shallow
/// predicates, nearly all of them, run on the caller's thread.
enum PredicateStack {
    /// The nesting up to which the caller's stack is used.
    static let inlineDepth = 48
    /// The stack of the helper thread: enough for the deepest predicate parsing accepts.
    static let size = 256 << 20

    /// `body()`, on a thread with a ``size`` stack when `depth` exceeds ``inlineDepth``.
    static func run<T>(depth: Int, _ body: () throws -> T) throws -> T {
        if depth <= inlineDepth { return try body() }
        return try onThread(body)
    }

    /// `body()`, which cannot fail, on a thread with a ``size`` stack when `depth` exceeds ``inlineDepth``.
    static func run<T>(depth: Int, _ body: () -> T) -> T {
        if depth <= inlineDepth { return body() }
        guard case .success(let value)? = try? onThread({ Result<T, Never>.success(body()) }) else {
            preconditionFailure("the predicate thread failed without an error")
        }
        return value
    }

    private static func onThread<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            // The caller waits for the thread, and the thread lets go of `body` before it
            // signals, so `body` never outlives this call.
            let box = Box(work: body)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                if let work = box.work { box.result = Result { try work() } }
                box.work = nil
                done.signal()
            }
            thread.stackSize = size
            thread.start()
            done.wait()
            // Taken out, so that the thread, which may outlive this call while it ends, holds
            // nothing; and waited for, so that its memory is given back before this returns.
            let result = box.result
            box.result = nil
            while !thread.isFinished { usleep(20) }
            guard let result else { preconditionFailure("the predicate thread ended without a result") }
            return try result.get()
        }
    }

    /// The work handed to the helper thread and its result; only one thread touches it at a time.
    // @unchecked Sendable: the caller fills `work` before starting the thread and reads
    // `result` only after the thread signals; the thread touches both only in between.
    private final class Box<T>: @unchecked Sendable {
        var work: (() throws -> T)?
        var result: Result<T, any Error>?

        init(work: @escaping () throws -> T) { self.work = work }
    }

    /// An upper bound of how deeply the parser will recurse on `tokens`: the tokens that
    /// open a level of nesting.
    static func parseDepth(of tokens: [PredicateToken]) -> Int {
        var count = 0
        for token in tokens {
            switch token.kind {
            case .symbol(let s) where ["(", "{", "[", "!", "-", "+", "*", "/", "**"].contains(s): count += 1
            case .word(let w) where w.uppercased() == "NOT": count += 1
            default: break
            }
        }
        return count
    }
}
