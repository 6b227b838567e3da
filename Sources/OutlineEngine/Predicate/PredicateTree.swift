/// Walks predicate trees without recursion, for checks that must not overflow the stack.
enum PredicateTree {
    /// A predicate or an expression of a predicate tree.
    enum Node {
        case predicate(FetchPredicate)
        case expression(FetchPredicate.Expression)

        var children: [Node] {
            switch self {
            case .predicate(let p):
                switch p {
                case .constant: return []
                case .not(let inner): return [.predicate(inner)]
                case .and(let ops), .or(let ops): return ops.map(Node.predicate)
                case .comparison(let c): return [.expression(c.left), .expression(c.right)]
                }
            case .expression(let e):
                switch e {
                case .constant, .list, .keyPath, .evaluatedObject, .object, .variable: return []
                case .aggregate(let elements): return elements.map(Node.expression)
                case .path(let base, _): return [.expression(base)]
                case .subquery(let s): return [.expression(s.collection), .predicate(s.predicate)]
                case .function(_, let arguments): return arguments.map(Node.expression)
                case .arithmetic(let l, _, let r): return [.expression(l), .expression(r)]
                case .negated(let operand), .cast(let operand, _): return [.expression(operand)]
                case .conditional(let c, let a, let b): return [.predicate(c), .expression(a), .expression(b)]
                }
            }
        }

        /// Whether the node is a `NOT`, `AND` or `OR` (the nesting parsing counts for predicates).
        var isCompound: Bool {
            if case .predicate(let p) = self {
                switch p {
                case .not, .and, .or: return true
                default: return false
                }
            }
            return false
        }
    }

    /// The deepest tree binding, substitution and evaluation accept: as deep as parsing can
    /// produce (``FetchPredicate/maximumNestingDepth`` levels of `NOT`, `AND` and `OR`, and
    /// at most two tree levels for each of ``FetchPredicate/maximumExpressionNestingDepth``
    /// levels of expressions).
    static let maximumCompoundDepth = FetchPredicate.maximumNestingDepth + 1
    static let maximumExpressionDepth = 2 * FetchPredicate.maximumExpressionNestingDepth + 8

    /// Rejects trees nested deeper than parsing can produce, without recursing.
    /// - Returns: the depth of the tree (its longest path of nodes).
    @discardableResult
    static func checkNestingDepth(_ predicate: FetchPredicate) throws -> Int {
        var stack: [(Node, compound: Int, expressions: Int, depth: Int)] = [(.predicate(predicate), 0, 0, 1)]
        var deepest = 1
        while let (node, compound, expressions, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            let children = node.children
            guard !children.isEmpty else { continue }
            let nextCompound = compound + (node.isCompound ? 1 : 0)
            var nextExpressions = expressions
            if case .expression = node { nextExpressions += 1 }
            if nextCompound > maximumCompoundDepth {
                throw PredicateErrors.error(
                    column: nil, "the predicate nests more than \(maximumCompoundDepth) levels deep",
                    hint: "NOT, AND and OR may nest at most \(maximumCompoundDepth) levels; simplify the predicate.")
            }
            if nextExpressions > maximumExpressionDepth {
                throw PredicateErrors.error(
                    column: nil, "expressions nest more than \(maximumExpressionDepth) levels deep",
                    hint: "Simplify the predicate: nest fewer functions, CASTs, SUBQUERYs and arithmetic operators.")
            }
            stack += children.map { ($0, nextCompound, nextExpressions, depth + 1) }
        }
        return deepest
    }

    /// Adds the free variables of `node` to `names`; `bound` holds the enclosing SUBQUERY variables.
    static func collectVariables(of node: Node, bound: Set<String>, into names: inout Set<String>) {
        var stack: [(Node, Set<String>)] = [(node, bound)]
        while let (node, bound) = stack.popLast() {
            switch node {
            case .expression(.variable(let name)) where !bound.contains(name):
                names.insert(name)
            case .expression(.keyPath(let keyPath)), .expression(.path(_, let keyPath)):
                for component in keyPath.components where component.hasPrefix("[$") && component.hasSuffix("]") {
                    let name = String(component.dropFirst(2).dropLast())
                    if !bound.contains(name) { names.insert(name) }
                }
            default:
                break
            }
            if case .expression(.subquery(let s)) = node {
                stack.append((.expression(s.collection), bound))
                stack.append((.predicate(s.predicate), bound.union([s.variable])))
            } else {
                stack += node.children.map { ($0, bound) }
            }
        }
    }
}
