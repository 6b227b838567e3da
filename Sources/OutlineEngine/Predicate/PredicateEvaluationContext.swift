import Foundation

/// What one evaluation (a fetch, a filter) shares across objects: its work budget, the
/// values of `SUBQUERY` variables, and the moment `now()` stands for.
final class PredicateEvaluationContext {
    /// Units of work left; see ``BoundPredicate/defaultWorkLimit(objectCount:)``.
    private(set) var remaining: Int
    let limit: Int
    /// The object each `SUBQUERY` variable stands for, by slot.
    var slots: [ManagedObject?]
    /// `now()`: one moment for the whole evaluation, so that every object sees the same time.
    let now = Date()

    init(workLimit: Int, slotCount: Int) {
        limit = max(0, workLimit)
        remaining = limit
        slots = Array(repeating: nil, count: slotCount)
    }

    /// Takes `units` of work from the budget.
    /// - Throws: ``PredicateEvaluationFailure/workLimit(_:)`` when the budget is spent.
    @inline(__always)
    func spend(_ units: Int) throws {
        remaining -= units
        if remaining < 0 { throw PredicateEvaluationFailure.workLimit(limit) }
    }
}

/// Why evaluating one object failed; ``BoundPredicate`` turns it into an ``EngineError``
/// naming the object.
enum PredicateEvaluationFailure: Error {
    /// The evaluation needed more than this many units of work.
    case workLimit(Int)
    /// A `MATCHES` test needed more than the backtracking step limit.
    case backtrackingLimit(pattern: String, column: Int?, limit: Int)
    /// A `MATCHES` pattern that came from a key path does not compile.
    case invalidPattern(pattern: String, column: Int?, PredicateRegexError)

    func error(naming object: String) -> EngineError {
        switch self {
        case .workLimit(let limit):
            return EngineError(
                .invalidPredicate, at: object,
                "evaluating the predicate needs more than \(PredicateErrors.grouped(limit)) units of work; it stopped at this object",
                hint:
                    "Narrow the predicate: key paths through several to-many relationships, SUBQUERY over large collections and long texts multiply the work for every object."
            )
        case .backtrackingLimit(let pattern, let column, let limit):
            return EngineError(
                .invalidPredicate, at: object,
                "MATCHES \(PredicateFormatter.quotedForMessage(pattern))\(column.map { " (column \($0) of the query)" } ?? "") cannot be decided for this object within \(PredicateErrors.grouped(limit)) backtracking steps",
                hint:
                    "Simplify the pattern: with a backreference, nested repetition such as (a*)*\\1 backtracks exponentially; a pattern without backreferences is matched in time proportional to the text."
            )
        case .invalidPattern(let pattern, let column, let error):
            return EngineError(
                .invalidPredicate, at: object,
                "the regular expression \(PredicateFormatter.quotedForMessage(pattern)) after MATCHES\(column.map { " (column \($0) of the query)" } ?? "") is invalid: \(error.message)",
                hint: error.hint)
        }
    }
}
