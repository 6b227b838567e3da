/// A regular expression compiled to instructions, run by ``RegexPikeVM`` (linear time, no
/// backreferences or lookaround) or ``RegexBacktracker`` (everything, with a step limit).
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        /// A scalar or one of its case variants.
        case scalarCaseless([Unicode.Scalar])
        case any
        case anyButTerminator(unixLines: Bool)
        case set(Int, caseless: Bool)
        /// Part of a literal string matched ignoring case with full case folding (`ß` matches
        /// `SS`, `ss` matches `ß`): the text scalar's folding must continue folded string `id`
        /// at `offset`, and matching goes on that many instructions further.
        case folded(Int, offset: Int)
        /// Continue at both; the first is preferred (greedy).
        case split(Int, Int)
        case jump(Int)
        case assert(RegexAssertion)
        /// Record the position in capture slot n (group k has slots 2k and 2k+1).
        case save(Int)
        /// Record the position where a loop iteration starts (mark n) ...
        case mark(Int)
        /// ... and leave the loop for `exit` if the iteration consumed nothing: an empty
        /// iteration counts (with what it captured) but ends the loop, as in ICU and Perl.
        case progress(Int, exit: Int)
        case backreference(Int, caseless: Bool)
        /// Run the body (the next instructions up to `end`) at this position without consuming.
        case lookaround(end: Int, ahead: Bool, negative: Bool, minLength: Int, maxLength: Int)
        /// Run the body once, keep its first match and never backtrack into it.
        case atomic(end: Int)
        /// The end of a lookaround or atomic body.
        case succeed
        case match
    }

    var instructions: [Instruction] = []
    var sets: [RegexCharacterSet] = []
    var foldedStrings: [[Unicode.Scalar]] = []
    var captureCount = 0
    var markCount = 0
    /// Whether the program contains `\X` (matching needs the subject's grapheme boundaries).
    var usesGraphemes = false

    /// The most instructions a pattern may compile to (counted repetitions are expanded).
    static let maximumSize = 100_000

    init(_ node: RegexNode, captures: Int) throws {
        captureCount = captures
        guard Self.size(node) <= Self.maximumSize else {
            throw PredicateRegexError(
                "the pattern is too large: it compiles to more than \(PredicateErrors.grouped(Self.maximumSize)) steps "
                    + "(a counted repetition such as {1000} counts its part that many times)",
                hint: "Shorten the pattern, or use * and + instead of large counts in {n,m}.")
        }
        emit(node)
        instructions.append(.match)
    }

    /// An upper bound of the instructions `node` compiles to, saturating.
    static func size(_ node: RegexNode) -> Int {
        func add(_ a: Int, _ b: Int) -> Int { a.addingReportingOverflow(b).overflow ? Int.max : a + b }
        func times(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? Int.max : a * b }
        switch node {
        case .empty: return 0
        case .scalar, .any, .set, .assertion, .backreference: return 3
        case .grapheme: return 8
        case .concatenation(let nodes): return nodes.reduce(0) { add($0, size($1)) }
        case .alternation(let nodes): return nodes.reduce(0) { add(add($0, size($1)), 2) }
        case .group(let body, _), .lookaround(let body, _, _), .atomic(let body): return add(size(body), 3)
        case .repetition(let body, let min, let max, _):
            let copies = max.map { Swift.max($0, min) } ?? add(min, 1)
            return times(add(size(body), 5), Swift.max(1, copies))
        }
    }

    private mutating func emit(_ node: RegexNode) {
        switch node {
        case .empty:
            break
        case .scalar(let c, let caseless):
            if caseless && RegexCase.fold(c).count > 1 {
                emitFolded([c])
                return
            }
            let variants = caseless ? RegexCase.variants(of: c) : []
            instructions.append(variants.isEmpty ? .scalar(c) : .scalarCaseless([c] + variants))
        case .any(let dotAll, let unixLines):
            instructions.append(dotAll ? .any : .anyButTerminator(unixLines: unixLines))
        case .set(let set, let caseless):
            sets.append(set)
            instructions.append(.set(sets.count - 1, caseless: caseless))
        case .concatenation(let nodes):
            // Runs of literals ignoring case match as strings, with full case folding, as ICU does.
            var run: [Unicode.Scalar] = []
            for n in nodes {
                if case .scalar(let c, true) = n {
                    run.append(c)
                    continue
                }
                emitRun(run)
                run = []
                emit(n)
            }
            emitRun(run)
        case .alternation(let nodes):
            // split(A, next); A: first; jump end; next: split(B, ...) ...; last
            var jumps: [Int] = []
            for (i, n) in nodes.enumerated() {
                if i < nodes.count - 1 {
                    let split = instructions.count
                    instructions.append(.split(split + 1, 0))
                    emit(n)
                    jumps.append(instructions.count)
                    instructions.append(.jump(0))
                    instructions[split] = .split(split + 1, instructions.count)
                } else {
                    emit(n)
                }
            }
            for j in jumps { instructions[j] = .jump(instructions.count) }
        case .group(let body, let capture):
            if let capture { instructions.append(.save(2 * capture)) }
            emit(body)
            if let capture { instructions.append(.save(2 * capture + 1)) }
        case .assertion(let a):
            instructions.append(.assert(a))
        case .backreference(let n, let caseless):
            instructions.append(.backreference(n, caseless: caseless))
        case .lookaround(let body, let ahead, let negative):
            let start = instructions.count
            instructions.append(.succeed)
            emit(body)
            instructions.append(.succeed)
            let range = body.lengthRange
            instructions[start] = .lookaround(
                end: instructions.count, ahead: ahead, negative: negative,
                minLength: range.min, maxLength: range.max ?? range.min)
        case .atomic(let body):
            emitAtomic(body)
        case .grapheme:
            usesGraphemes = true
            // any; L: split(E, N); E: assert boundary; jump done; N: assert not boundary; any; jump L
            instructions.append(.any)
            let loop = instructions.count
            instructions.append(.split(loop + 1, loop + 3))
            instructions.append(.assert(.graphemeBoundary))
            instructions.append(.jump(loop + 6))
            instructions.append(.assert(.notGraphemeBoundary))
            instructions.append(.any)
            instructions.append(.jump(loop))
        case .repetition(let body, let min, let max, let quantifier):
            if quantifier == .possessive {
                emitAtomic(.repetition(body, min: min, max: max, .greedy))
                return
            }
            let greedy = quantifier == .greedy
            for _ in 0 ..< min { emit(body) }
            if let max {
                // Nested optionals: (x(x(x)?)?)?
                var exits: [Int] = []
                for _ in min ..< Swift.max(min, max) {
                    let split = instructions.count
                    instructions.append(.split(0, 0))
                    exits.append(split)
                    emit(body)
                }
                let end = instructions.count
                for split in exits { instructions[split] = greedy ? .split(split + 1, end) : .split(end, split + 1) }
            } else {
                let mark = markCount
                markCount += 1
                let loop = instructions.count
                instructions.append(.split(0, 0))
                instructions.append(.mark(mark))
                emit(body)
                let check = instructions.count
                instructions.append(.progress(mark, exit: 0))
                instructions.append(.jump(loop))
                let end = instructions.count
                instructions[check] = .progress(mark, exit: end)
                instructions[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
            }
        }
    }

    private mutating func emitRun(_ run: [Unicode.Scalar]) {
        if run.count > 1 { emitFolded(run) } else if let c = run.first { emit(.scalar(c, caseless: true)) }
    }

    /// A literal string matched ignoring case: one instruction per scalar of its folding.
    private mutating func emitFolded(_ scalars: [Unicode.Scalar]) {
        let folding = scalars.flatMap(RegexCase.fold)
        foldedStrings.append(folding)
        for offset in folding.indices { instructions.append(.folded(foldedStrings.count - 1, offset: offset)) }
    }

    private mutating func emitAtomic(_ body: RegexNode) {
        let start = instructions.count
        instructions.append(.succeed)
        emit(body)
        instructions.append(.succeed)
        instructions[start] = .atomic(end: instructions.count)
    }
}
