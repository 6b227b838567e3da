/// Builders for the ``EngineError``s of predicates, so messages read the same everywhere.
enum PredicateErrors {
    /// An `invalidPredicate` error at `column` (1-based), or without a location.
    static func error(column: Int?, _ message: String, hint: String) -> EngineError {
        EngineError(.invalidPredicate, at: column.map { "column \($0) of the query" }, message, hint: hint)
    }

    /// `expected WHAT after "PREVIOUS" but found "X"` / `... but the predicate ends` (or another subject).
    static func expected(
        _ what: String, after previous: String?, found token: PredicateToken,
        hint: String, subject: String = "predicate"
    ) -> EngineError {
        var message = "expected \(what)"
        if let previous { message += " after " + quote(previous) }
        message += token.isEnd ? " but the \(subject) ends" : " but found \(token.quoted)"
        return error(column: token.column, message, hint: hint)
    }

    /// Runs `body`, locating its errors in the sort keys rather than the query.
    static func inSortKeys<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as EngineError {
            if let location = error.location, location.hasSuffix(" of the query") {
                error.location = String(location.dropLast(" of the query".count)) + " of the sort keys"
            }
            throw error
        }
    }

    /// `n` with thousands separators: `1,000,000`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// `text` in double quotes, unless it is a string literal that already has quotes.
    static func quote(_ text: String) -> String {
        text.count >= 2 && (text.hasPrefix("\"") || text.hasPrefix("'")) ? text : "\"\(text)\""
    }

    static let operatorHint =
        "Compare with ==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES, IN or BETWEEN."
    static let collectionOperatorHint = "The collection operators are @count, @sum, @avg, @min and @max."
    static let optionsHint = "Use [c] for case-insensitive, [d] for diacritic-insensitive or [cd] for both."

    /// `Did you mean "x"?` for the candidate closest to `word`, if one is close enough.
    static func suggestion(for word: String, among candidates: some Sequence<String>, quoted: Bool = true) -> String? {
        guard let best = closest(to: word, among: candidates) else { return nil }
        return quoted ? "Did you mean \"\(best)\"?" : "Did you mean \(best)?"
    }

    /// The candidate with the smallest edit distance to `word` (ignoring case), if it is at
    /// most a third of the word's length (at least 1, at most 3).
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let d = editDistance(word.lowercased(), candidate.lowercased())
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Edit distance counting insertions, deletions, substitutions and transpositions of
    /// adjacent characters (optimal string alignment), in O(n·m) time and O(m) space.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0 ... b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            current[0] = i
            for j in 1 ... b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var best = Swift.min(previous[j] + 1, current[j - 1] + 1)
                best = Swift.min(best, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = Swift.min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
