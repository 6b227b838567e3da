/// The syntax tree of a regular expression (the ICU syntax `MATCHES` takes).
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar, caseless: Bool)
    /// `.`: any scalar, or any but a line terminator.
    case any(dotAll: Bool, unixLines: Bool)
    case set(RegexCharacterSet, caseless: Bool)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// A group; `capture` is its number when it captures.
    case group(RegexNode, capture: Int?)
    case repetition(RegexNode, min: Int, max: Int?, RegexQuantifier)
    case assertion(RegexAssertion)
    case backreference(Int, caseless: Bool)
    case lookaround(RegexNode, ahead: Bool, negative: Bool)
    case atomic(RegexNode)
    /// `\X`: one extended grapheme cluster.
    case grapheme

    /// Whether matching needs the backtracking engine (features a finite automaton cannot do).
    var needsBacktracking: Bool {
        switch self {
        case .backreference, .lookaround, .atomic: return true
        case .repetition(let node, _, _, let q): return q == .possessive || node.needsBacktracking
        case .group(let node, _): return node.needsBacktracking
        case .concatenation(let nodes), .alternation(let nodes): return nodes.contains { $0.needsBacktracking }
        default: return false
        }
    }

    /// The shortest and longest number of scalars the node can match (`nil`: unbounded).
    var lengthRange: (min: Int, max: Int?) {
        switch self {
        case .empty, .assertion, .lookaround: return (0, 0)
        case .scalar(_, let caseless): return caseless && RegexCase.fold(Self.scalarOf(self)).count > 1 ? (1, 3) : (1, 1)
        case .any, .set: return (1, 1)
        case .grapheme, .backreference: return (1, nil)
        case .group(let node, _), .atomic(let node): return node.lengthRange
        case .concatenation(let nodes):
            var low = 0
            var high: Int? = 0
            for node in nodes {
                let r = node.lengthRange
                low = Self.add(low, r.min)
                high = high.flatMap { h in r.max.map { Self.add(h, $0) } }
            }
            return (low, high)
        case .alternation(let nodes):
            let ranges = nodes.map(\.lengthRange)
            let low = ranges.map(\.min).min() ?? 0
            let high: Int? = ranges.contains { $0.max == nil } ? nil : ranges.compactMap(\.max).max() ?? 0
            return (low, high)
        case .repetition(let node, let min, let max, _):
            let r = node.lengthRange
            let high: Int? = max.flatMap { m in r.max.map { Self.multiply($0, m) } }
            return (Self.multiply(r.min, min), r.max == 0 ? 0 : high)
        }
    }

    private static func scalarOf(_ node: RegexNode) -> Unicode.Scalar {
        if case .scalar(let c, _) = node { return c }
        return " "
    }

    private static func add(_ a: Int, _ b: Int) -> Int { a.addingReportingOverflow(b).overflow ? Int.max : a + b }
    private static func multiply(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? Int.max : a * b }
}

/// How a quantifier repeats: as often as possible, as rarely as possible, or as often as
/// possible without giving back (possessive: `a*+`).
enum RegexQuantifier: Sendable {
    case greedy, lazy, possessive
}

/// A zero-width test of a position.
enum RegexAssertion: Sendable, Equatable {
    /// `\A`, `\G`, and `^` without `(?m)`.
    case inputStart
    /// `\z`.
    case inputEnd
    /// `\Z`, and `$` without `(?m)`: the end, or before a line terminator that ends the input.
    case inputEndOrFinalTerminator(unixLines: Bool)
    /// `^` with `(?m)`.
    case lineStart(unixLines: Bool)
    /// `$` with `(?m)`.
    case lineEnd(unixLines: Bool)
    /// `\b` and `\B`.
    case wordBoundary, notWordBoundary
    /// Between two grapheme clusters, or inside one (how `\X` is compiled).
    case graphemeBoundary, notGraphemeBoundary
}

/// The flags of `(?imsxd)` and of the `[c]` option.
struct RegexFlags: Sendable {
    var caseless = false
    var multiline = false
    var dotAll = false
    var extended = false
    var unixLines = false
}

/// A pattern `MATCHES` cannot use, with what is wrong and what to do.
struct PredicateRegexError: Error, Sendable {
    let message: String
    let hint: String

    init(_ message: String, hint: String = "MATCHES takes an ICU regular expression that must match the whole string.") {
        self.message = message
        self.hint = hint
    }
}

/// A `MATCHES` test that needed more backtracking steps than allowed.
enum PredicateRegexLimit: Error {
    case backtracking(Int)
}
