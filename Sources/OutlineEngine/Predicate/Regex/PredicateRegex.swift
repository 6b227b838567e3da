/// A `MATCHES` pattern, compiled once: the whole string must match, with ICU's syntax and
/// semantics (see ``RegexParser`` for what is supported).
///
/// Patterns without backreferences, lookaround, atomic groups and possessive quantifiers
/// run on ``RegexPikeVM`` in O(n·m) time; the others run on ``RegexBacktracker``, which tries
/// each instruction at each position once unless the pattern has backreferences, and then
/// takes at most ``BoundPredicate/backtrackingStepLimit`` steps per test. `[c]` matches
/// ignoring case; `[d]` removes diacritics from the pattern and the text first.
struct PredicateRegex: Sendable {
    /// The pattern as written.
    let source: String
    let program: RegexProgram
    let needsBacktracking: Bool
    let foldsDiacritics: Bool

    init(_ pattern: String, options: FetchPredicate.Options) throws {
        source = pattern
        foldsDiacritics = options.contains(.diacriticInsensitive)
        let text = foldsDiacritics ? PredicateStrings.fold(pattern, [.diacriticInsensitive]) : pattern
        var flags = RegexFlags()
        flags.caseless = options.contains(.caseInsensitive)
        let (node, captures) = try RegexParser.parse(text, flags: flags)
        program = try RegexProgram(node, captures: captures)
        needsBacktracking = node.needsBacktracking
    }

    /// Whether the whole of `string` matches.
    /// - Throws: ``PredicateRegexLimit/backtracking(_:)`` when a backtracking pattern needs
    ///   more steps than allowed, or the context's work-limit failure.
    func matches(_ string: String, context: PredicateEvaluationContext) throws -> Bool {
        let subject = RegexSubject(foldsDiacritics ? PredicateStrings.fold(string, [.diacriticInsensitive]) : string)
        try context.spend(1 + subject.scalars.count)
        if needsBacktracking {
            return try RegexBacktracker.matches(program, subject, limit: BoundPredicate.backtrackingStepLimit, context: context)
        }
        return try RegexPikeVM.matches(program, subject, context: context)
    }
}
