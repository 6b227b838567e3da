import Foundation

/// Keeping the results up to date: the first fetch, and each step's changes turned into a batch.
extension ResultsController {
    // MARK: Order

    /// Whether `a` comes before `b`: by section value, then the sort keys, then storage order
    /// (the fetched entity's objects by row, then each subentity's), as a fetch sorts ties.
    func precedes(_ a: ResultsEntry, _ b: ResultsEntry) -> Bool {
        let bySection = compareSections(a.section, b.section)
        if bySection != .orderedSame { return bySection == .orderedAscending }
        let byKeys = sort.compareKeys(a.keys, b.keys)
        if byKeys != .orderedSame { return byKeys == .orderedAscending }
        return tiebreak(a.object) < tiebreak(b.object)
    }

    func compareSections(_ a: PredicateTerm, _ b: PredicateTerm) -> ComparisonResult {
        guard sectionKey != nil else { return .orderedSame }
        let result = BoundSortDescriptors.sortOrder(a, b, options: [])
        guard sectionsDescending, result != .orderedSame else { return result }
        return result == .orderedAscending ? .orderedDescending : .orderedAscending
    }

    private func tiebreak(_ object: ManagedObject) -> (Int, Int) { (entityRank[object.entity.rawValue], object.row) }

    /// The entry of `object` as it is now, or nil when it is not in the results.
    func entry(for object: ManagedObject) throws -> ResultsEntry? {
        let graph = context.graph
        guard object.entity.rawValue < entityRank.count, entityRank[object.entity.rawValue] >= 0, graph.contains(object) else { return nil }
        if let predicate, try !predicate.evaluate(object, in: graph, workLimit: request.workLimit) { return nil }
        let keys = try sort.sortKeys(of: [object], in: graph, workLimit: request.workLimit)[0]
        let section = try sectionKey.map { try $0.sortKeys(of: [object], in: graph, workLimit: request.workLimit)[0][0] } ?? .null
        return ResultsEntry(object: object, section: section, keys: keys)
    }

    // MARK: Fetching

    /// Fetches every row: the first time, and after a reload.
    func load() throws {
        let graph = context.graph
        let entity = sort.entity
        var objects = graph.objects(ofEntity: entity, includingSubentities: request.includesSubentities)
        if let predicate { objects = try predicate.filter(objects, in: graph, workLimit: request.workLimit) }
        let keys = try sort.sortKeys(of: objects, in: graph, workLimit: request.workLimit)
        let terms = try sectionKey?.sortKeys(of: objects, in: graph, workLimit: request.workLimit).map { $0[0] }
        var entries = objects.indices.map { ResultsEntry(object: objects[$0], section: terms?[$0] ?? .null, keys: keys[$0]) }
        entries.sort(by: precedes)
        list = RowList(entries)
        sections = []
        if sectionKey == nil {
            sections = [ResultsSectionState(term: .null, count: entries.count)]
        } else {
            for entry in entries {
                if let last = sections.last, compareSections(last.term, entry.section) == .orderedSame {
                    sections[sections.count - 1].count += 1
                } else {
                    sections.append(ResultsSectionState(term: entry.section, count: 1))
                }
            }
        }
        sectionStarts = Self.starts(of: sections)
    }

    static func starts(of sections: [ResultsSectionState]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        for section in sections { starts.append(starts[starts.count - 1] + section.count) }
        return starts
    }

    /// The index path of the row at `global` (counted over all sections).
    func path(ofGlobal global: Int, starts: [Int]) -> ResultsIndexPath {
        var low = 0
        var high = starts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= global { low = middle } else { high = middle - 1 }
        }
        return ResultsIndexPath(section: low, row: global - starts[low])
    }

    // MARK: Changes

    func receive(_ notification: ChangeNotification) {
        if notification.reason == .reload {
            pendingReload = true
            pendingKeys.removeAll()
        } else if !pendingReload {
            let schema = context.schema
            for change in notification.changes {
                let object = change.object
                guard object.entity.rawValue < entityRank.count, entityRank[object.entity.rawValue] >= 0 else { continue }
                let info = schema.infos[object.entity]
                switch change {
                case .inserted, .deleted: pendingKeys[object, default: []].formUnion([])
                case .attribute(_, let a): pendingKeys[object, default: []].insert(info.attributes[a].name)
                case .toOne(_, let r, _, _), .memberInserted(_, let r, _, _), .memberRemoved(_, let r, _, _), .membersReplaced(_, let r, _, _):
                    pendingKeys[object, default: []].insert(info.relationships[r].name)
                }
            }
        }
        pendingReason = notification.reason
        pendingActionName = notification.actionName
        pendingSteps += 1
        if !isPaused { flush(isCatchUp: false) }
    }

    /// Brings the results up to date with the changes noted since the last delivery and
    /// delivers them as one batch.
    func flush(isCatchUp: Bool) {
        guard pendingSteps > 0 else { return }
        let changes = pendingReload ? reloadChanges() : update(pendingKeys)
        let batch = ResultsBatch(
            reason: pendingReason, actionName: pendingSteps == 1 ? pendingActionName : nil,
            isCatchUp: isCatchUp, changes: changes)
        pendingKeys.removeAll()
        pendingReload = false
        pendingSteps = 0
        pendingActionName = nil
        if !batch.isEmpty { deliver(batch) }
    }

    /// Every old row and section deleted, every new one inserted (handles from before a reload
    /// name nothing any more).
    private func reloadChanges() -> [ResultsChange] {
        let oldObjects = list.map(\.object)
        let oldStarts = sectionStarts
        let oldSectionCount = sections.count
        do {
            try load()
        } catch let error as EngineError {
            evaluationError = error
            list = RowList()
            sections = sectionKey == nil ? [ResultsSectionState(term: .null, count: 0)] : []
            sectionStarts = Self.starts(of: sections)
        } catch {
            preconditionFailure("fetching raised \(error), which is not an EngineError")
        }
        var changes: [ResultsChange] = []
        let keepsOneSection = sectionKey == nil
        if !keepsOneSection { changes += (0 ..< oldSectionCount).reversed().map { .sectionDeleted(at: $0) } }
        if !keepsOneSection { changes += sections.indices.map { .sectionInserted(at: $0, name: sections[$0].name) } }
        changes += oldObjects.indices.reversed().map { .rowDeleted(oldObjects[$0], at: path(ofGlobal: $0, starts: oldStarts)) }
        changes += list.enumerated().map { .rowInserted($1.object, at: path(ofGlobal: $0, starts: sectionStarts)) }
        return changes
    }
}
