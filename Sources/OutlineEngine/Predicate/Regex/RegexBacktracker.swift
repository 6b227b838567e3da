/// Whole-string matching by backtracking, for programs with backreferences, lookaround,
/// atomic groups or possessive quantifiers. Choice points live on an explicit stack (no
/// recursion on the text; lookaround and atomic bodies recurse only as deep as the pattern
/// nests).
///
/// Without backreferences, what can still match from an instruction at a position does not
/// depend on how it was reached, so each (instruction, position) is tried once per run
/// (as RE2's bit-state backtracker does): matching takes polynomial time and only counts
/// towards the work budget. With backreferences it does depend on the captures, and every
/// instruction executed counts towards a step limit: a pattern that backtracks
/// exponentially fails with ``PredicateRegexLimit/backtracking(_:)`` instead of running for
/// ever or being taken for "no match".
struct RegexBacktracker {
    private let program: RegexProgram
    private let subject: RegexSubject
    private let limit: Int
    private let context: PredicateEvaluationContext
    private let memoizes: Bool
    private(set) var steps = 0
    /// For group k: the start and end of its last complete match (slots 2k, 2k+1), and
    /// where its match in progress started (slot 2(n+1)+k), so that a backreference inside
    /// a group being repeated sees the previous complete match, as in ICU.
    private var captures: [Int]
    private let openStarts: Int
    private var marks: [Int]
    /// Changes to captures (slot ≥ 0) and marks (slot < 0: mark -slot-1) to undo on backtracking.
    private var undo: [(slot: Int, old: Int)] = []

    init(_ program: RegexProgram, _ subject: RegexSubject, limit: Int, context: PredicateEvaluationContext) {
        self.program = program
        self.subject = subject
        self.context = context
        memoizes = !program.instructions.contains { if case .backreference = $0 { true } else { false } }
        self.limit = memoizes ? Int.max : limit
        openStarts = 2 * (program.captureCount + 1)
        captures = [Int](repeating: -1, count: 3 * (program.captureCount + 1))
        marks = [Int](repeating: -1, count: program.markCount)
    }

    static func matches(_ program: RegexProgram, _ subject: RegexSubject, limit: Int, context: PredicateEvaluationContext) throws -> Bool {
        var machine = RegexBacktracker(program, subject, limit: limit, context: context)
        let end = try machine.run(from: 0, at: 0, requiredEnd: nil, body: false)
        try context.spend(machine.steps % 4096)
        return end != nil
    }

    private mutating func set(capture slot: Int, _ value: Int) {
        undo.append((slot, captures[slot]))
        captures[slot] = value
    }

    private mutating func set(mark m: Int, _ value: Int) {
        undo.append((-m - 1, marks[m]))
        marks[m] = value
    }

    private mutating func rollback(to count: Int) {
        while undo.count > count, let (slot, old) = undo.popLast() {
            if slot >= 0 { captures[slot] = old } else { marks[-slot - 1] = old }
        }
    }

    /// Runs from `pc` at `position`. The main program succeeds at `.match` at the end of the
    /// text; a body (lookaround, atomic) at its `.succeed`, where `requiredEnd` must be met
    /// when given (lookbehind). Returns where the match ended, or `nil`.
    private mutating func run(from start: Int, at startPosition: Int, requiredEnd: Int?, body: Bool) throws -> Int? {
        let instructions = program.instructions
        let n = subject.scalars.count
        var stack: [(pc: Int, position: Int, undo: Int)] = []
        var pc = start
        var position = startPosition
        var visited = RegexVisited(instructions: memoizes ? instructions.count : 0, positions: n + 1)
        while true {
            steps += 1
            if steps > limit { throw PredicateRegexLimit.backtracking(limit) }
            if steps % 4096 == 0 { try context.spend(4096) }
            var failed = false
            if memoizes && !visited.insert(pc, position) {
                failed = true
            } else {
                switch instructions[pc] {
                case .scalar, .scalarCaseless, .any, .anyButTerminator, .set, .folded:
                    if let next = subject.step(program, pc, at: position) {
                        pc = next
                        position += 1
                    } else {
                        failed = true
                    }
                case .split(let a, let b):
                    stack.append((b, position, undo.count))
                    pc = a
                case .jump(let target):
                    pc = target
                case .assert(let assertion):
                    if subject.holds(assertion, at: position) { pc += 1 } else { failed = true }
                case .save(let slot):
                    if slot % 2 == 0 {
                        set(capture: openStarts + slot / 2, position)
                    } else {
                        set(capture: slot - 1, captures[openStarts + slot / 2])
                        set(capture: slot, position)
                    }
                    pc += 1
                case .mark(let m):
                    set(mark: m, position)
                    pc += 1
                case .progress(let m, let exit):
                    pc = marks[m] == position ? exit : pc + 1
                case .backreference(let group, let caseless):
                    let (s, e) = (captures[2 * group], captures[2 * group + 1])
                    guard s >= 0, e >= s, position + (e - s) <= n else {
                        failed = true
                        break
                    }
                    let scalars = subject.scalars
                    var ok = true
                    for k in 0 ..< (e - s)
                    where !(caseless ? RegexCase.equal(scalars[s + k], scalars[position + k]) : scalars[s + k] == scalars[position + k]) {
                        ok = false
                        break
                    }
                    steps += e - s
                    if ok {
                        position += e - s
                        pc += 1
                    } else {
                        failed = true
                    }
                case .lookaround(let end, let ahead, let negative, let minLength, let maxLength):
                    let before = undo.count
                    var found = false
                    if ahead {
                        found = try run(from: pc + 1, at: position, requiredEnd: nil, body: true) != nil
                    } else {
                        var from = position - minLength
                        while from >= 0 && from >= position - maxLength && !found {
                            found = try run(from: pc + 1, at: from, requiredEnd: position, body: true) != nil
                            from -= 1
                        }
                    }
                    if negative { rollback(to: before) }
                    if found != negative { pc = end } else { failed = true }
                case .atomic(let end):
                    if let reached = try run(from: pc + 1, at: position, requiredEnd: nil, body: true) {
                        position = reached
                        pc = end
                    } else {
                        failed = true
                    }
                case .succeed:
                    if body && (requiredEnd == nil || requiredEnd == position) { return position }
                    failed = true
                case .match:
                    if !body && position == n { return position }
                    failed = true
                }
            }
            if failed {
                guard let (nextPC, nextPosition, undoCount) = stack.popLast() else { return nil }
                rollback(to: undoCount)
                pc = nextPC
                position = nextPosition
            }
        }
    }
}
