import Foundation

extension FetchPredicate: CustomStringConvertible {
    /// A canonical format string that parses back to an equal predicate.
    ///
    /// Operators use one spelling (`==`, `!=`, `<=`, `>=`, `ANY`), keywords are upper case,
    /// strings are double-quoted with escapes, nested `AND`/`OR` are parenthesized, keys that
    /// are reserved words get a `#`, and values without a literal form are written with `CAST`
    /// (dates, decimals, UUIDs, binary data, infinities). An `AND` or `OR` of fewer than two
    /// operands prints as its equivalent (`TRUEPREDICATE`, `FALSEPREDICATE` or the operand).
    /// Objects (from `%@` arguments) print as `%@`. A tree built in code that nests deeper than
    /// parsing allows prints as a note saying so.
    public var description: String {
        guard let depth = try? PredicateTree.checkNestingDepth(self) else { return PredicateFormatter.tooDeep }
        return PredicateStack.run(depth: depth) { PredicateFormatter.format(self) }
    }
}

extension FetchPredicate.Expression: CustomStringConvertible {
    /// The expression in format-string syntax.
    public var description: String {
        guard let depth = try? PredicateTree.checkNestingDepth(.comparison(.init(self, .equalTo, .constant(nil)))) else {
            return PredicateFormatter.tooDeep
        }
        return PredicateStack.run(depth: depth) { PredicateFormatter.format(self) }
    }
}

extension FetchPredicate.Comparison: CustomStringConvertible {
    /// The comparison in format-string syntax, such as `ANY tags.name ==[c] "work"`.
    public var description: String { PredicateFormatter.format(self) }
}

/// Writes predicates in canonical format-string syntax.
enum PredicateFormatter {
    static let tooDeep = "<a predicate nested more deeply than parsing allows>"

    static func format(_ predicate: FetchPredicate) -> String {
        switch predicate {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c):
            return format(c)
        case .not(let inner):
            return "NOT " + operand(inner)
        case .and(let operands):
            return compound(operands, separator: " AND ", empty: "TRUEPREDICATE")
        case .or(let operands):
            return compound(operands, separator: " OR ", empty: "FALSEPREDICATE")
        }
    }

    private static func compound(_ operands: [FetchPredicate], separator: String, empty: String) -> String {
        switch operands.count {
        case 0: empty
        case 1: format(operands[0])
        default: operands.map(operand).joined(separator: separator)
        }
    }

    /// A predicate as the operand of `NOT`, `AND` or `OR`: parenthesized when it is compound.
    private static func operand(_ predicate: FetchPredicate) -> String {
        switch predicate {
        case .and(let ops) where ops.count > 1: "(" + format(predicate) + ")"
        case .or(let ops) where ops.count > 1: "(" + format(predicate) + ")"
        default: format(predicate)
        }
    }

    static func format(_ c: FetchPredicate.Comparison) -> String {
        let modifier = c.modifier == .direct ? "" : c.modifier.rawValue + " "
        return modifier + format(c.left) + " " + c.operator.rawValue + c.options.formatString + " " + format(c.right)
    }

    static func format(_ expression: FetchPredicate.Expression) -> String {
        switch expression {
        case .constant(let value): literal(value)
        case .list(let values): "{" + values.map(literal).joined(separator: ", ") + "}"
        case .aggregate(let elements): "{" + elements.map(format).joined(separator: ", ") + "}"
        case .keyPath(let keyPath): keyPath.description
        case .evaluatedObject: "SELF"
        // Objects have no literal form: they print as the placeholder they are passed for.
        case .object: "%@"
        case .variable(let name): "$" + name
        case .path(let base, let keyPath):
            pathBase(base) + (FetchPredicate.IndexOperator(component: keyPath.components.first ?? "") == nil ? "." : "") + keyPath.description
        case .subquery(let s):
            "SUBQUERY(" + format(s.collection) + ", $" + s.variable + ", " + format(s.predicate) + ")"
        case .function(let function, let arguments):
            function.rawValue + "(" + arguments.map(format).joined(separator: ", ") + ")"
        case .arithmetic(let left, let op, let right):
            arithmeticOperand(left, of: op, isRight: false) + " " + op.rawValue + " " + arithmeticOperand(right, of: op, isRight: true)
        case .negated(let operand):
            "-" + (isAtom(operand) || isNegated(operand) ? format(operand) : "(" + format(operand) + ")")
        case .cast(let operand, let type):
            "CAST(" + format(operand) + ", " + quoted(type) + ")"
        case .conditional(let condition, let whenTrue, let whenFalse):
            "TERNARY(" + format(condition) + ", " + format(whenTrue) + ", " + format(whenFalse) + ")"
        }
    }

    /// The expression a key path follows: parenthesized unless it is a variable or a call,
    /// so that `(children)[FIRST]` stays apart from `children[FIRST]`.
    private static func pathBase(_ base: FetchPredicate.Expression) -> String {
        switch base {
        case .variable, .subquery, .function, .cast, .conditional: format(base)
        default: "(" + format(base) + ")"
        }
    }

    /// Binding strength of an arithmetic operator: higher binds tighter.
    private static func precedence(_ op: FetchPredicate.ArithmeticOperator) -> Int {
        switch op {
        case .add, .subtract: 1
        case .multiply, .divide: 2
        case .power: 3
        }
    }

    private static func isNegated(_ expression: FetchPredicate.Expression) -> Bool {
        if case .negated = expression { return true }
        return false
    }

    private static func isAtom(_ expression: FetchPredicate.Expression) -> Bool {
        switch expression {
        case .arithmetic, .negated: false
        case .constant(let v?): v.doubleValue.map { $0 >= 0 || $0.isNaN } ?? true
        default: true
        }
    }

    /// An operand of `op`, parenthesized where the grammar would otherwise group it differently.
    private static func arithmeticOperand(_ operand: FetchPredicate.Expression, of op: FetchPredicate.ArithmeticOperator, isRight: Bool) -> String {
        let text = format(operand)
        guard case .arithmetic(_, let inner, _) = operand else { return text }
        let (outer, own) = (precedence(op), precedence(inner))
        // Left-associative + - * /; right-associative **.
        let needs = own < outer || (own == outer && (op == .power ? !isRight : isRight))
        return needs ? "(" + text + ")" : text
    }

    /// A key, with `#` in front when it is a reserved word or not a plain word.
    static func keyComponent(_ key: String) -> String {
        if key.hasPrefix("@") || key.hasPrefix("[") { return key }
        return PredicateKeywords.isReserved(key) ? "#" + key : key
    }

    /// A value as a literal that parses back to the same value.
    static func literal(_ value: Value?) -> String {
        guard let value else { return "nil" }
        switch value {
        case .integer(let i):
            return String(i)
        case .double(let d):
            guard d.isFinite else { return "CAST(\(quoted(d.isNaN ? "nan" : d < 0 ? "-inf" : "inf")), \"NSNumber\")" }
            let text = String(d)
            // Integral doubles print as "1.0", which parses back as a double; keep it so.
            return text
        case .decimal(let d):
            return "CAST(\(quoted(d.description)), \"NSDecimalNumber\")"
        case .string(let s):
            return quoted(s)
        case .boolean(let b):
            return b ? "YES" : "NO"
        case .date(let d):
            return "CAST(\(String(d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .binary(let data):
            return "CAST(\(quoted(data.base64EncodedString())), \"NSData\")"
        case .uuid(let u):
            return "CAST(\(quoted(u.uuidString)), \"NSUUID\")"
        }
    }

    /// ``quoted(_:)`` for a message: a string of more than 80 characters shows its first 60
    /// and how long it is, so that a long pattern does not fill the screen.
    static func quotedForMessage(_ s: String) -> String {
        guard s.count > 80 else { return quoted(s) }
        return quoted(String(s.prefix(60))).dropLast() + "…\" (\(PredicateErrors.grouped(s.count)) characters)"
    }

    /// A double-quoted string with `\"`, `\\`, `\n`, `\t`, `\r` and `\u{...}` for other controls.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
