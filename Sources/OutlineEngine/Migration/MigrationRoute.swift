/// A way from a document's schema version to a target version: one inferred step when Core
/// Data's direct mapping works, otherwise the shortest chain of inferable steps through the
/// registered versions (v1 -> v2 -> v3).
public struct MigrationRoute: Sendable {
    /// The steps in order; empty when source and destination store the same thing.
    public let steps: [MigrationPlan]
    /// When no route exists: the direct plan, whose blockers explain why.
    public let direct: MigrationPlan

    /// Whether the migration can run.
    public var isPossible: Bool { !steps.isEmpty }
    /// The version names passed through, source first.
    public var path: [String] {
        steps.isEmpty ? [direct.source.name, direct.destination.name] : [steps[0].source.name] + steps.map(\.destination.name)
    }

    /// Finds a route from `source` to `destination`, trying the direct mapping first and then
    /// chains through `versions` (all registered versions of the model, in any order).
    ///
    /// - Complexity: at most one inference per pair of versions.
    public static func find(
        from source: Schema, to destination: Schema, through versions: [Schema],
        options: MigrationOptions = MigrationOptions()
    ) -> MigrationRoute {
        let direct = MigrationPlan.infer(from: source, to: destination, options: options)
        if direct.isInferable { return MigrationRoute(steps: [direct], direct: direct) }
        // Breadth-first over versions; nodes are indices into `nodes` (0 is the source).
        let nodes = [source] + versions.filter { $0.versionHash != source.versionHash }
        guard let target = nodes.firstIndex(where: { $0.versionHash == destination.versionHash }) else {
            return MigrationRoute(steps: [], direct: direct)
        }
        var previous: [Int: (node: Int, plan: MigrationPlan)] = [:]
        var queue = [0]
        var visited: Set<Int> = [0]
        while !queue.isEmpty, previous[target] == nil {
            let node = queue.removeFirst()
            for next in nodes.indices where !visited.contains(next) {
                let plan = MigrationPlan.infer(from: nodes[node], to: nodes[next], options: options)
                guard plan.isInferable else { continue }
                visited.insert(next)
                previous[next] = (node, plan)
                queue.append(next)
            }
        }
        guard previous[target] != nil else { return MigrationRoute(steps: [], direct: direct) }
        var steps: [MigrationPlan] = []
        var node = target
        while let (from, plan) = previous[node] {
            steps.append(plan)
            node = from
        }
        return MigrationRoute(steps: steps.reversed(), direct: direct)
    }

    /// Runs every step on `graph`, stopping at the first step whose data violates its destination.
    ///
    /// - Throws: ``EngineError`` `migrationFailed` when there is no route, `cancelled` when cancelled.
    public func run(
        _ graph: ObjectGraph, progress: ((MigrationProgress) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil
    ) throws -> Migrator.Result {
        guard isPossible else {
            throw EngineError(
                .migrationFailed, at: "\(direct.source.name) -> \(direct.destination.name)",
                "no migration can be inferred, directly or through the known versions (\(direct.blockers.count) \(direct.blockers.count == 1 ? "blocker" : "blockers") on the direct way)",
                hint: "See each blocker for what to change, or add an intermediate model version.",
                details: direct.blockers.map(\.description))
        }
        var current = graph
        var report = MigrationReport()
        report.path = path
        for (i, plan) in steps.enumerated() {
            var migrator = Migrator(plan: plan)
            migrator.step = i + 1
            migrator.steps = steps.count
            let result = try migrator.run(current, progress: progress, isCancelled: isCancelled)
            report.merge(result.report)
            guard let next = result.graph else { return Migrator.Result(graph: nil, report: report) }
            current = next
        }
        return Migrator.Result(graph: current, report: report)
    }
}

extension MigrationReport {
    mutating func merge(_ other: MigrationReport) {
        copiedObjects = other.copiedObjects
        droppedObjects.merge(other.droppedObjects, uniquingKeysWith: +)
        droppedValues.merge(other.droppedValues, uniquingKeysWith: +)
        droppedLinks.merge(other.droppedLinks, uniquingKeysWith: +)
        defaultedValues.merge(other.defaultedValues, uniquingKeysWith: +)
        violations += other.violations
        uncheckedRelationships += other.uncheckedRelationships
    }
}
