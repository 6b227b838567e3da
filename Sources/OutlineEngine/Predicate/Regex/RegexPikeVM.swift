/// Whole-string matching by simulating the automaton of a program (Thompson's construction,
/// run as a Pike VM without captures): every position is visited once with the set of live
/// instructions, so matching takes O(n·m) steps for n scalars and m instructions, whatever
/// the pattern. Programs with backreferences, lookaround or atomic groups need
/// ``RegexBacktracker`` instead.
enum RegexPikeVM {
    static func matches(_ program: RegexProgram, _ subject: RegexSubject, context: PredicateEvaluationContext) throws -> Bool {
        let instructions = program.instructions
        let n = subject.scalars.count
        var current = SparseSet(capacity: instructions.count)
        var next = SparseSet(capacity: instructions.count)
        var stack: [Int] = []

        /// Adds `start` and every instruction reachable from it without consuming at `position`.
        func close(_ start: Int, at position: Int, into set: inout SparseSet) {
            stack.append(start)
            while let pc = stack.popLast() {
                guard set.insert(pc) else { continue }
                switch instructions[pc] {
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .jump(let target):
                    stack.append(target)
                case .assert(let assertion):
                    if subject.holds(assertion, at: position) { stack.append(pc + 1) }
                case .save, .mark, .progress:
                    stack.append(pc + 1)
                default:
                    break
                }
            }
        }

        close(0, at: 0, into: &current)
        var position = 0
        while true {
            try context.spend(1 + current.count)
            if position == n {
                return current.elements.contains { if case .match = instructions[$0] { true } else { false } }
            }
            next.removeAll()
            for pc in current.elements {
                if let target = subject.step(program, pc, at: position) { close(target, at: position + 1, into: &next) }
            }
            if next.isEmpty { return false }
            swap(&current, &next)
            position += 1
        }
    }
}
