extension FetchPredicate {
    /// The names (without `$`) of the substitution variables the predicate uses: every
    /// `$name` except the iteration variables of its `SUBQUERY`s, inside them.
    ///
    /// A predicate with variables must get values for them from ``substituting(_:)`` before
    /// it is bound.
    public var variables: Set<String> {
        var names: Set<String> = []
        // Nesting is bounded when parsing; trees built in code are checked first.
        guard (try? PredicateTree.checkNestingDepth(self)) != nil else { return names }
        PredicateTree.collectVariables(of: .predicate(self), bound: [], into: &names)
        return names
    }

    /// The predicate with each `$name` of `values` replaced by its value, as Foundation's
    /// `withSubstitutionVariables(_:)` does: a value becomes a constant, a list a list
    /// literal, an object an object (`parent == $p`). Variables without a value are left as
    /// they are; a `SUBQUERY`'s iteration variable is never replaced inside it.
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) when a variable used as an index
    ///   (`children[$i]`) gets a value that is not a whole number of 0 or more, or when the
    ///   predicate nests deeper than parsing allows.
    public func substituting(_ values: [String: Argument]) throws -> FetchPredicate {
        let depth = try PredicateTree.checkNestingDepth(self)
        return try PredicateStack.run(depth: depth) {
            var substitution = PredicateSubstitution(values: values)
            return try substitution.predicate(self)
        }
    }
}

/// Replaces variables by values, respecting the scope of `SUBQUERY` variables.
struct PredicateSubstitution {
    let values: [String: FetchPredicate.Argument]
    var bound: [String] = []

    mutating func predicate(_ p: FetchPredicate) throws -> FetchPredicate {
        switch p {
        case .constant: return p
        case .not(let inner): return .not(try predicate(inner))
        case .and(let ops): return .and(try ops.map { try predicate($0) })
        case .or(let ops): return .or(try ops.map { try predicate($0) })
        case .comparison(var c):
            c.left = try expression(c.left)
            c.right = try expression(c.right)
            return .comparison(c)
        }
    }

    func value(of name: String) -> FetchPredicate.Argument? {
        bound.contains(name) ? nil : values[name]
    }

    mutating func expression(_ e: FetchPredicate.Expression) throws -> FetchPredicate.Expression {
        switch e {
        case .constant, .list, .evaluatedObject, .object:
            return e
        case .keyPath(let keyPath):
            return .keyPath(try self.keyPath(keyPath))
        case .variable(let name):
            return value(of: name)?.expression ?? e
        case .aggregate(let elements):
            var flat: [FetchPredicate.Expression] = []
            for element in elements {
                switch try expression(element) {
                case .list(let values): flat += values.map(FetchPredicate.Expression.constant)
                case .aggregate(let inner): flat += inner
                case let other: flat.append(other)
                }
            }
            return .makeList(flat)
        case .path(let base, let keyPath):
            return .path(try expression(base), try self.keyPath(keyPath))
        case .subquery(var s):
            s.collection = try expression(s.collection)
            bound.append(s.variable)
            defer { bound.removeLast() }
            s.predicate = try predicate(s.predicate)
            return .subquery(s)
        case .function(let f, let arguments):
            return .function(f, try arguments.map { try expression($0) })
        case .arithmetic(let l, let op, let r):
            return .arithmetic(try expression(l), op, try expression(r))
        case .negated(let operand):
            return .negated(try expression(operand))
        case .cast(let operand, let type):
            return .cast(try expression(operand), type)
        case .conditional(let condition, let a, let b):
            return .conditional(try predicate(condition), try expression(a), try expression(b))
        }
    }

    /// Index components `[$i]` take the variable's whole-number value.
    func keyPath(_ keyPath: FetchPredicate.KeyPath) throws -> FetchPredicate.KeyPath {
        var result = keyPath
        for (i, component) in keyPath.components.enumerated() where component.hasPrefix("[$") && component.hasSuffix("]") {
            let name = String(component.dropFirst(2).dropLast())
            guard let argument = value(of: name) else { continue }
            guard case .value(let v?) = argument, case .integer(let n) = v, n >= 0 else {
                throw PredicateErrors.error(column: keyPath.column(of: i), "the index $\(name) needs a whole number of 0 or more, but its value is \(argument.shown)",
                                            hint: PredicateParser.indexHint)
            }
            result.components[i] = "[\(n)]"
        }
        return result
    }
}

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
                throw PredicateErrors.error(column: nil, "the predicate nests more than \(maximumCompoundDepth) levels deep",
                                            hint: "NOT, AND and OR may nest at most \(maximumCompoundDepth) levels; simplify the predicate.")
            }
            if nextExpressions > maximumExpressionDepth {
                throw PredicateErrors.error(column: nil, "expressions nest more than \(maximumExpressionDepth) levels deep",
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
