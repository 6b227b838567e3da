/// Carries out a ``MigrationPlan`` on a graph, building a new graph of the destination schema.
///
/// Object ids, stored relationship order and everything the plan copies are preserved, so the
/// same input always gives the same output. Every data violation is collected (not only the
/// first); when there is any, the result has no graph.
public struct Migrator {
    /// The plan the migrator carries out.
    public let plan: MigrationPlan
    /// Step number and count, for progress reports of multi-step migrations.
    var step = 1, steps = 1

    /// A migrator for `plan` (which may have blockers: ``run(_:progress:isCancelled:)`` then throws them).
    public init(plan: MigrationPlan) {
        self.plan = plan
    }

    /// The outcome: the migrated graph (nil when the data violates the destination), and the report.
    public struct Result {
        /// The migrated objects, in the destination schema; nil when some data violates it.
        public var graph: ObjectGraph?
        /// What was copied, converted, defaulted and dropped, and every violation.
        public var report: MigrationReport
    }

    /// Migrates `graph` (of the plan's source schema).
    ///
    /// - Throws: ``EngineError`` `migrationFailed` when the plan has blockers (all listed), or
    ///   `cancelled` when `isCancelled` returns true; the input graph is never changed.
    public func run(
        _ graph: ObjectGraph, progress: ((MigrationProgress) -> Void)? = nil,
        isCancelled: (() -> Bool)? = nil
    ) throws -> Result {
        guard plan.isInferable else {
            throw EngineError(
                .migrationFailed, at: "\(plan.source.name) -> \(plan.destination.name)",
                "the migration cannot be inferred (\(plan.blockers.count) \(plan.blockers.count == 1 ? "blocker" : "blockers"))",
                hint: "See each blocker for what to change.", details: plan.blockers.map(\.description))
        }
        var run = Run(plan: plan, source: graph, progress: progress, isCancelled: isCancelled, step: step, steps: steps)
        return try run.execute()
    }
}

/// The state of one migration run.
private struct Run {
    let plan: MigrationPlan
    let source: ObjectGraph
    let progress: ((MigrationProgress) -> Void)?
    let isCancelled: (() -> Bool)?
    let step: Int, steps: Int
    var loader: GraphLoader
    var report = MigrationReport()
    /// Per source entity: destination entity index (nil when the entity is removed).
    var entityMap: [EntityIndex?]
    /// Per source entity, per source row: destination row (-1 when the object is not carried over).
    var rowMap: [[Int32]]
    /// Per source entity: whether every row was carried over to the same row of its destination.
    var rowsCarriedAsIs: [Bool]

    init(
        plan: MigrationPlan, source: ObjectGraph, progress: ((MigrationProgress) -> Void)?,
        isCancelled: (() -> Bool)?, step: Int, steps: Int
    ) {
        self.plan = plan
        self.source = source
        self.progress = progress
        self.isCancelled = isCancelled
        self.step = step
        self.steps = steps
        loader = GraphLoader(schema: plan.destination)
        entityMap = plan.source.entities.map { _ in nil }
        rowMap = source.tables.map { _ in [] }
        rowsCarriedAsIs = source.tables.map { _ in false }
        for mapping in plan.entities {
            if let s = mapping.source.flatMap(plan.source.entityIndex(named:)) {
                entityMap[s] = plan.destination.entityIndex(named: mapping.destination)
            }
        }
    }

    mutating func execute() throws -> Migrator.Result {
        report.path = [plan.source.name, plan.destination.name]
        try copyObjects()
        try convertValues()
        try linkObjects()
        try checkCancelled()
        report(.checking, 0, 1)
        loader.declareNextID(source.nextID)
        let hadViolations = !report.violations.isEmpty
        // With violations already found the links may not mirror (a collapsed to-many), so the
        // graph is only finished to look for further problems.
        guard let graph = hadViolations ? try? loader.finish() : try loader.finish() else {
            for mapping in plan.entities {
                for relationship in mapping.relationships where relationship.requiresValue {
                    report.uncheckedRelationships.append("\(mapping.destination).\(relationship.destination)")
                }
            }
            return Migrator.Result(graph: nil, report: report)
        }
        checkRequiredRelationships(graph)
        report(.checking, 1, 1)
        return Migrator.Result(graph: report.violations.isEmpty ? graph : nil, report: report)
    }

    // MARK: Phases

    mutating func copyObjects() throws {
        let total = source.objectCount
        var done = 0
        for (s, table) in zip(source.schema.entityIndices, source.tables) {
            guard let d = entityMap[s] else {
                if table.liveCount > 0 { report.droppedObjects[plan.source.entities[s].name] = table.liveCount }
                continue
            }
            if table.liveCount == table.rowCount && loader.tables[d].rowCount == 0 {
                copyTable(table, to: d)
                rowMap[s] = [Int32](unsafeUninitializedCapacity: table.rowCount) { buffer, initialized in
                    for row in 0 ..< table.rowCount { buffer[row] = Int32(truncatingIfNeeded: row) }
                    initialized = table.rowCount
                }
                rowsCarriedAsIs[s] = true
                done += table.rowCount
                try checkCancelled()
                report(.copyingObjects, done, total)
                report.copiedObjects[plan.destination.entities[d].name, default: 0] += table.liveCount
                continue
            }
            loader.reserve(entity: d, count: table.liveCount)
            var map = [Int32](repeating: -1, count: table.rowCount)
            for row in 0 ..< table.rowCount where table.alive[row] {
                map[row] = Int32(loader.appendObject(entity: d, id: ObjectID(table.ids[row])).row)
                done += 1
                if done & 0xFFFF == 0 {
                    try checkCancelled()
                    report(.copyingObjects, done, total)
                }
            }
            rowMap[s] = map
            report.copiedObjects[plan.destination.entities[d].name, default: 0] += table.liveCount
        }
        report(.copyingObjects, done, total)
    }

    /// Carries every row of `table` (all alive) over to the empty table of `d` in one go: the
    /// ids as they are, every attribute nil and every relationship empty until the later
    /// phases fill whole columns; destination row and source row are then the same.
    mutating func copyTable(_ table: EntityTable, to d: EntityIndex) {
        let rows = table.rowCount
        loader.appendObjects(entity: d, ids: table.ids)
        let info = plan.destination.infos[d]
        loader.withTable(d) { destination in
            for a in info.attributeIndices { destination.attributes[a] = .allNil(type: info.attributes[a].type, rows: rows) }
            for r in info.relationshipIndices {
                var column = RelationshipColumn(isToMany: info.relationships[r].isToMany)
                if column.isToMany {
                    column.many = ListColumn(emptyRows: rows)
                } else {
                    column.single = PagedArray(repeating: RelationshipColumn.none, count: rows)
                }
                destination.relationships[r] = column
            }
        }
    }

    mutating func convertValues() throws {
        for (s, table) in zip(source.schema.entityIndices, source.tables) {
            guard let d = entityMap[s], let mapping = plan.entities.first(where: { $0.destination == plan.destination.entities[d].name }) else {
                continue
            }
            let sourceInfo = plan.source.infos[s]
            let info = plan.destination.infos[d]
            let allAlive = table.liveCount == table.rowCount
            for name in mapping.removedAttributes {
                guard let a = sourceInfo.attributeIndex(named: name) else { continue }
                let count = (0 ..< table.rowCount).reduce(0) { $0 + (table.alive[$1] && !table.attributes[a].isNil($1) ? 1 : 0) }
                if count > 0 { report.droppedValues["\(sourceInfo.name).\(name)", default: 0] += count }
            }
            for attribute in mapping.attributes {
                try checkCancelled()
                guard let da = info.attributeIndex(named: attribute.destination) else { continue }
                let definition = info.attributes[da]
                var nils: [ObjectID] = []
                var nilCount = 0
                var lost: [ObjectID] = []
                var lostCount = 0
                func noteNil(_ row: Int) {
                    nilCount += 1
                    if nils.count < 5 { nils.append(ObjectID(table.ids[row])) }
                }
                switch attribute.action {
                case .initialize(let value):
                    let column = AttributeColumn.repeating(value, type: definition.type, rows: table.liveCount)
                    loader.withTable(d) { $0.attributes[da] = column }
                    if value == nil && attribute.requiresValue {
                        for row in 0 ..< table.rowCount where table.alive[row] { noteNil(row) }
                    }
                case .copy where allAlive && !attribute.fillsNilWithDefault:
                    let column = table.attributes[sourceInfo.attributeIndex(named: attribute.source!)!]
                    loader.withTable(d) { $0.attributes[da] = column }
                    if attribute.requiresValue && column.nilCount > 0 {
                        for row in 0 ..< table.rowCount where column.isNil(row) { noteNil(row) }
                    }
                default:
                    let sa = sourceInfo.attributeIndex(named: attribute.source!)!
                    let from = sourceInfo.attributes[sa].type
                    let fill = attribute.fillsNilWithDefault ? definition.defaultValue.flatMap { $0.converted(to: definition.type) } : nil
                    var filled = 0
                    for row in 0 ..< table.rowCount where table.alive[row] {
                        let object = ManagedObject(entity: d, row: Int(rowMap[s][row]))
                        guard let value = table.attributes[sa].value(row) else {
                            if let fill {
                                loader.setAttribute(object, da, fill)
                                filled += 1
                            } else if attribute.requiresValue {
                                noteNil(row)
                            }
                            continue
                        }
                        if let converted = ValueConversion.convert(value, from: from, to: definition.type, lossy: plan.options.allowsLossyConversions)
                        {
                            loader.setAttribute(object, da, converted)
                        } else {
                            lostCount += 1
                            if lost.count < 5 { lost.append(ObjectID(table.ids[row])) }
                        }
                    }
                    if filled > 0 { report.defaultedValues["\(info.name).\(definition.name)", default: 0] += filled }
                }
                if nilCount > 0 {
                    let why =
                        attribute.source == nil
                        ? "get no value: the new attribute is required and has no default"
                        : "have no value, but \(definition.name) becomes required without a default"
                    report.violations.append(
                        DataViolation(entity: info.name, property: definition.name, message: why, objects: nils, count: nilCount))
                }
                if lostCount > 0, case .narrow(let f, let t) = attribute.action {
                    report.violations.append(
                        DataViolation(
                            entity: info.name, property: definition.name,
                            message: "have values that do not fit \(t.modelName) exactly (from \(f.modelName))", objects: lost, count: lostCount))
                }
            }
        }
        report(.convertingValues, 1, 1)
    }

    mutating func linkObjects() throws {
        // Every object kept at its entity and row: a copied column is the same column.
        let linksCarryAsIs = source.schema.entityIndices.allSatisfy { rowsCarriedAsIs[$0] && entityMap[$0] == $0 }
        for (s, table) in zip(source.schema.entityIndices, source.tables) {
            guard let d = entityMap[s], let mapping = plan.entities.first(where: { $0.destination == plan.destination.entities[d].name }) else {
                continue
            }
            try checkCancelled()
            let sourceInfo = plan.source.infos[s]
            let info = plan.destination.infos[d]
            for name in mapping.removedRelationships {
                guard let r = sourceInfo.relationshipIndex(named: name) else { continue }
                var count = 0
                for row in 0 ..< table.rowCount where table.alive[row] { count += targets(table, r, row).count }
                if count > 0 { report.droppedLinks["\(sourceInfo.name).\(name)", default: 0] += count }
            }
            for relationship in mapping.relationships {
                guard let source = relationship.source, let sr = sourceInfo.relationshipIndex(named: source),
                    let dr = info.relationshipIndex(named: relationship.destination)
                else { continue }
                loader.markSupplied(entity: d, relationship: dr)
                if linksCarryAsIs && relationship.action == .copy && table.relationships[sr].isToMany == info.relationships[dr].isToMany {
                    loader.withTable(d) { $0.relationships[dr] = table.relationships[sr] }
                    continue
                }
                var collapsed: [ObjectID] = []
                var collapsedCount = 0
                for row in 0 ..< table.rowCount where table.alive[row] {
                    let members = targets(table, sr, row).compactMap(map)
                    let object = ManagedObject(entity: d, row: Int(rowMap[s][row]))
                    switch relationship.action {
                    case .copy where info.relationships[dr].isToMany, .wrap:
                        if !members.isEmpty { loader.setRelated(object, dr, members) }
                    case .collapse where members.count > 1:
                        collapsedCount += 1
                        if collapsed.count < 5 { collapsed.append(ObjectID(table.ids[row])) }
                    default:
                        if let first = members.first { loader.setRelated(object, dr, first) }
                    }
                }
                if collapsedCount > 0 {
                    report.violations.append(
                        DataViolation(
                            entity: info.name, property: relationship.destination,
                            message: "have more than one destination, but the relationship becomes to-one", objects: collapsed, count: collapsedCount)
                    )
                }
            }
        }
        report(.linkingObjects, 1, 1)
    }

    mutating func checkRequiredRelationships(_ graph: ObjectGraph) {
        for mapping in plan.entities {
            guard let d = plan.destination.entityIndex(named: mapping.destination) else { continue }
            let info = plan.destination.infos[d]
            for relationship in mapping.relationships where relationship.requiresValue {
                guard let r = info.relationshipIndex(named: relationship.destination) else { continue }
                let definition = info.relationships[r]
                var empty: [ObjectID] = []
                var count = 0
                let table = graph.tables[d]
                for row in 0 ..< table.rowCount {
                    let n = definition.isToMany ? table.relationships[r].many.memberCount(row) : (table.relationships[r].object(row) == nil ? 0 : 1)
                    if n < max(definition.minCount, 1) {
                        count += 1
                        if empty.count < 5 { empty.append(ObjectID(table.ids[row])) }
                    }
                }
                if count > 0 {
                    report.violations.append(
                        DataViolation(
                            entity: info.name, property: definition.name,
                            message: "are left without a destination, but the relationship is required", objects: empty, count: count))
                }
            }
        }
    }

    // MARK: Helpers

    func targets(_ table: EntityTable, _ relationship: RelationshipIndex, _ row: Int) -> [ManagedObject] {
        let column = table.relationships[relationship]
        if column.isToMany { return column.many[row] }
        return column.object(row).map { [$0] } ?? []
    }

    /// The destination handle of source object `object`, if it is carried over.
    func map(_ object: ManagedObject) -> ManagedObject? {
        guard let d = entityMap[object.entity], object.row < rowMap[object.entity].count else { return nil }
        let row = rowMap[object.entity][object.row]
        return row < 0 ? nil : ManagedObject(entity: d, row: Int(row))
    }

    func checkCancelled() throws {
        if isCancelled?() == true {
            throw EngineError(
                .cancelled, at: "\(plan.source.name) -> \(plan.destination.name)", "the migration was cancelled",
                hint: "Nothing was changed.")
        }
    }

    func report(_ phase: MigrationProgress.Phase, _ completed: Int, _ total: Int) {
        progress?(MigrationProgress(phase: phase, step: step, steps: steps, completed: completed, total: total))
    }
}
