/// The text a pattern is matched against: its scalars, and where its grapheme clusters
/// begin (computed on first use).
final class RegexSubject {
    let string: String
    let scalars: [Unicode.Scalar]
    private var boundaries: [Bool]?

    init(_ string: String) {
        self.string = string
        scalars = Array(string.unicodeScalars)
    }

    func isGraphemeBoundary(_ position: Int) -> Bool {
        if position <= 0 || position >= scalars.count { return true }
        if boundaries == nil {
            var marks = [Bool](repeating: false, count: scalars.count + 1)
            var offset = 0
            for character in string {
                marks[offset] = true
                offset += character.unicodeScalars.count
            }
            marks[scalars.count] = true
            boundaries = marks
        }
        return boundaries?[position] ?? true
    }

    private func isTerminator(_ c: Unicode.Scalar, unixLines: Bool) -> Bool {
        unixLines ? c == "\n" : RegexCharacterSet.isLineTerminator(c)
    }

    /// Whether `assertion` holds at `position`.
    func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        let n = scalars.count
        switch assertion {
        case .inputStart: return position == 0
        case .inputEnd: return position == n
        case .inputEndOrFinalTerminator(let unix):
            if position == n { return true }
            if position == n - 1 { return isTerminator(scalars[position], unixLines: unix) }
            return !unix && position == n - 2 && scalars[position] == "\r" && scalars[position + 1] == "\n"
        case .lineStart(let unix):
            if position == 0 { return true }
            guard position < n, isTerminator(scalars[position - 1], unixLines: unix) else { return false }
            return !(scalars[position - 1] == "\r" && scalars[position] == "\n")
        case .lineEnd(let unix):
            if position == n { return true }
            guard isTerminator(scalars[position], unixLines: unix) else { return false }
            return !(position > 0 && scalars[position - 1] == "\r" && scalars[position] == "\n")
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexCharacterSet.isWord(scalars[position - 1])
            let after = position < n && RegexCharacterSet.isWord(scalars[position])
            return (before != after) == (assertion == .wordBoundary)
        case .graphemeBoundary: return isGraphemeBoundary(position)
        case .notGraphemeBoundary: return !isGraphemeBoundary(position)
        }
    }

    /// Where matching goes on after instruction `pc` consumes the scalar at `position`; `nil`
    /// when it does not match.
    func step(_ program: RegexProgram, _ pc: Int, at position: Int) -> Int? {
        guard case .folded(let id, let offset) = program.instructions[pc] else {
            return consumes(program.instructions[pc], at: position, sets: program.sets) ? pc + 1 : nil
        }
        guard position < scalars.count else { return nil }
        let folding = RegexCase.fold(scalars[position])
        let target = program.foldedStrings[id]
        guard offset + folding.count <= target.count, target[offset ..< (offset + folding.count)].elementsEqual(folding) else { return nil }
        return pc + folding.count
    }

    /// Whether consuming instruction `instruction` matches the scalar at `position`.
    func consumes(_ instruction: RegexProgram.Instruction, at position: Int, sets: [RegexCharacterSet]) -> Bool {
        guard position < scalars.count else { return false }
        let c = scalars[position]
        switch instruction {
        case .scalar(let s): return c == s
        case .scalarCaseless(let variants): return variants.contains(c)
        case .any: return true
        case .anyButTerminator(let unix): return !isTerminator(c, unixLines: unix)
        case .set(let index, let caseless): return sets[index].contains(c, caseless: caseless)
        default: return false
        }
    }
}
