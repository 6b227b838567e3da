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
                throw PredicateErrors.error(
                    column: keyPath.column(of: i), "the index $\(name) needs a whole number of 0 or more, but its value is \(argument.shown)",
                    hint: PredicateParser.indexHint)
            }
            result.components[i] = "[\(n)]"
        }
        return result
    }
}
