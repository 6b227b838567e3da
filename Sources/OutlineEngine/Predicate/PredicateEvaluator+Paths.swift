/// Key paths with set semantics: each step reaches every object at most once, so a path
/// through several to-many relationships visits at most every object of the graph per step,
/// and every object visited is charged to the budget.
extension PredicateEvaluator {
    func evaluate(_ path: BoundPath, from base: BoundExpression?) throws -> Operand {
        if base == nil && path.isToOneOnly {
            // One value: follow to-one relationships without collecting.
            var current: ManagedObject? = object
            for case .toOne(let r) in path.steps {
                try context.spend(1)
                current = current.flatMap { graph.relatedObject(of: $0, r) }
            }
            try context.spend(1)
            return .one(try current.map { try terminal(path.terminal, of: $0) } ?? .null)
        }
        var objects: [ManagedObject]
        var multi: Bool
        if let base {
            switch try evaluate(base) {
            case .one(let term):
                objects = term.object.map { [$0] } ?? []
                multi = false
            case .many(let terms):
                objects = Self.unique(terms.compactMap(\.object))
                multi = true
            }
        } else {
            objects = [object]
            multi = false
        }
        try context.spend(objects.count)
        if let index = path.baseIndex {
            objects = Self.pick(index, from: objects).map { [$0] } ?? []
            multi = false
        }
        try follow(path.steps, from: &objects, multi: &multi)
        if let aggregate = path.aggregate {
            return try self.aggregate(aggregate, over: objects)
        }
        if multi {
            return .many(try objects.map { try terminal(path.terminal, of: $0) })
        }
        return .one(try objects.first.map { try terminal(path.terminal, of: $0) } ?? .null)
    }

    /// Follows `steps` from `objects`, keeping each object reached once when there can be several.
    func follow(_ steps: [BoundPath.Step], from objects: inout [ManagedObject], multi: inout Bool) throws {
        for step in steps {
            var next: [ManagedObject] = []
            var seen: Set<ManagedObject> = []
            func add(_ o: ManagedObject) {
                if !multi || seen.insert(o).inserted { next.append(o) }
            }
            switch step {
            case .toOne(let r):
                for o in objects {
                    try context.spend(1)
                    if let d = graph.relatedObject(of: o, r) { add(d) }
                }
            case .toMany(let r):
                multi = true
                for o in objects {
                    let related = graph.relatedObjects(of: o, r)
                    try context.spend(1 + related.count)
                    for d in related { add(d) }
                }
            case .toManyAt(let r, let index, let orderBy):
                for o in objects {
                    var related = graph.relatedObjects(of: o, r)
                    try context.spend(1 + related.count)
                    if let orderBy {
                        try context.spend(related.count * Swift.max(1, related.count.bitWidth - related.count.leadingZeroBitCount))
                        related = sortedStably(related, by: orderBy)
                    }
                    if let d = Self.pick(index, from: related) { add(d) }
                }
            }
            objects = next
        }
    }

    /// `objects` in the order of their attribute `attribute` (nil first), ties in stored order.
    private func sortedStably(_ objects: [ManagedObject], by attribute: AttributeIndex) -> [ManagedObject] {
        let keys = objects.map { PredicateTerm(graph.attributeValue(of: $0, attribute)) }
        return objects.indices.sorted { i, j in
            switch BoundSortDescriptors.sortOrder(keys[i], keys[j], options: []) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: i < j
            }
        }.map { objects[$0] }
    }

    /// The object `index` selects: first, last, or the n-th from 0 (`nil` past the end).
    static func pick(_ index: FetchPredicate.IndexOperator, from objects: [ManagedObject]) -> ManagedObject? {
        switch index {
        case .first: objects.first
        case .last: objects.last
        case .at(let n): n < objects.count ? objects[n] : nil
        case .size: nil
        }
    }

    static func unique(_ objects: [ManagedObject]) -> [ManagedObject] {
        var seen: Set<ManagedObject> = []
        return objects.filter { seen.insert($0).inserted }
    }

    func terminal(_ terminal: BoundPath.Terminal, of object: ManagedObject) throws -> PredicateTerm {
        switch terminal {
        case .attribute(let a):
            return PredicateTerm(graph.attributeValue(of: object, a))
        case .object:
            return .object(object)
        case .size(let r):
            let count = graph.relatedObjects(of: object, r).count
            try context.spend(1 + count)
            return .value(.integer(Int64(count)))
        }
    }

    private func aggregate(_ aggregate: BoundPath.Aggregate, over objects: [ManagedObject]) throws -> Operand {
        switch aggregate {
        case .count:
            return .one(.value(.integer(Int64(objects.count))))
        case .numeric(let op, let steps, let attribute):
            var values: [Value] = []
            values.reserveCapacity(objects.count)
            for start in objects {
                var current: ManagedObject? = start
                for r in steps {
                    try context.spend(1)
                    current = current.flatMap { graph.relatedObject(of: $0, r) }
                }
                try context.spend(1)
                if let value = current.flatMap({ graph.attributeValue(of: $0, attribute) }) { values.append(value) }
            }
            switch op {
            case .sum: return .one(.value(PredicateAggregates.sum(values)))
            case .average: return .one(PredicateTerm(PredicateAggregates.average(values)))
            case .minimum: return .one(PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedAscending)))
            default: return .one(PredicateTerm(PredicateAggregates.extreme(values, keeping: .orderedDescending)))
            }
        case .union(let distinct, let steps, let terminal):
            var reached = objects
            var multi = true
            try follow(steps, from: &reached, multi: &multi)
            var terms: [PredicateTerm] = []
            var seen: Set<PredicateTerm> = []
            for o in reached {
                let term = try self.terminal(terminal, of: o)
                if !distinct || seen.insert(term).inserted { terms.append(term) }
            }
            return .many(terms)
        }
    }
}
