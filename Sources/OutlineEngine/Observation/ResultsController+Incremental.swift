/// One step's changes applied to the results: the touched objects are taken out and placed
/// again, and the batch says what that did.
extension ResultsController {
    /// Re-places each object of `touched` (with the keys that changed) and returns the batch.
    ///
    /// Rows of untouched objects keep their relative order (their keys did not change). A
    /// touched object in the results before and after is reported as updated when it sits
    /// between the same untouched rows as before and keeps its order with the other such
    /// objects of that gap (a longest increasing run of them stays); otherwise as moved.
    ///
    /// - Complexity: O(k log n) comparisons for k touched objects, plus O(k log k) and O(sections).
    func update(_ touched: [ManagedObject: Set<String>]) -> [ResultsChange] {
        guard !touched.isEmpty else { return [] }
        let oldStarts = sectionStarts
        let oldSections = sections

        // Take every touched row out, newest position first.
        var oldGlobal: [ManagedObject: Int] = [:]
        for object in touched.keys { if let index = list.index(of: object) { oldGlobal[object] = index } }
        var oldEntries: [ManagedObject: ResultsEntry] = [:]
        for (object, index) in oldGlobal.sorted(by: { $0.value > $1.value }) {
            let entry = list.remove(at: index)
            oldEntries[object] = entry
            changeCount(of: entry.section, by: -1)
        }

        // Place the objects that match now.
        var newEntries: [ManagedObject: ResultsEntry] = [:]
        for object in touched.keys {
            let entry: ResultsEntry?
            do {
                entry = try self.entry(for: object)
            } catch let error as EngineError {
                evaluationError = error
                entry = nil
            } catch {
                preconditionFailure("evaluating raised \(error), which is not an EngineError")
            }
            guard let entry else { continue }
            newEntries[object] = entry
            let index = list.partitioningIndex { !precedes($0, entry) }
            list.insert(contentsOf: [entry], at: index)
            changeCount(of: entry.section, by: 1)
        }
        if sectionKey != nil { sections.removeAll { $0.count == 0 } }
        sectionStarts = Self.starts(of: sections)

        var changes: [ResultsChange] = []
        changes += sectionChanges(from: oldSections)

        // Rows.
        var newGlobal: [ManagedObject: Int] = [:]
        for object in newEntries.keys { newGlobal[object] = list.index(of: object) }
        var deletions: [(ResultsIndexPath, ManagedObject)] = []
        var insertions: [(ResultsIndexPath, ManagedObject)] = []
        var candidates: [ManagedObject] = []
        var stayed: [ManagedObject] = []
        for (object, old) in oldEntries {
            guard let new = newEntries[object] else {
                deletions.append((path(ofGlobal: oldGlobal[object]!, starts: oldStarts), object))
                continue
            }
            if old.keys == new.keys && old.section == new.section { stayed.append(object) } else { candidates.append(object) }
        }
        for object in newEntries.keys where oldEntries[object] == nil {
            insertions.append((path(ofGlobal: newGlobal[object]!, starts: sectionStarts), object))
        }

        // Which re-placed rows can stay: those in the same gap between untouched rows as
        // before, the longest run of them per gap that keeps its order.
        let oldOthers = (deletions.map { oldGlobal[$0.1]! } + candidates.map { oldGlobal[$0]! }).sorted()
        let newOthers = (insertions.map { newGlobal[$0.1]! } + candidates.map { newGlobal[$0]! }).sorted()
        func gap(_ index: Int, among others: [Int]) -> Int { index - Self.lowerBound(of: index, in: others) }
        var byGap: [Int: [ManagedObject]] = [:]
        var moving: [ManagedObject] = []
        for object in candidates {
            let oldGap = gap(oldGlobal[object]!, among: oldOthers)
            let sameSection = compareSections(oldEntries[object]!.section, newEntries[object]!.section) == .orderedSame
            if sameSection && oldGap == gap(newGlobal[object]!, among: newOthers) {
                byGap[oldGap, default: []].append(object)
            } else {
                moving.append(object)
            }
        }
        for (_, group) in byGap {
            let ordered = group.sorted { oldGlobal[$0]! < oldGlobal[$1]! }
            let keep = Self.longestIncreasingRun(ordered.map { newGlobal[$0]! })
            for (index, object) in ordered.enumerated() {
                if keep.contains(index) { stayed.append(object) } else { moving.append(object) }
            }
        }
        var moves: [(ResultsIndexPath, ResultsChange)] = []
        for object in moving {
            let from = path(ofGlobal: oldGlobal[object]!, starts: oldStarts)
            let to = path(ofGlobal: newGlobal[object]!, starts: sectionStarts)
            moves.append((to, .rowMoved(object, from: from, to: to, changedKeys: touched[object] ?? [])))
        }
        let updates = stayed.map { object -> (ResultsIndexPath, ResultsChange) in
            let to = path(ofGlobal: newGlobal[object]!, starts: sectionStarts)
            let from = path(ofGlobal: oldGlobal[object]!, starts: oldStarts)
            return (to, .rowUpdated(object, at: from, now: to, changedKeys: touched[object] ?? []))
        }
        changes += deletions.sorted { $0.0 > $1.0 }.map { .rowDeleted($0.1, at: $0.0) }
        changes += insertions.sorted { $0.0 < $1.0 }.map { .rowInserted($0.1, at: $0.0) }
        changes += moves.sorted { $0.0 < $1.0 }.map(\.1)
        changes += updates.sorted { $0.0 < $1.0 }.map(\.1)
        return changes
    }

    /// Adds `delta` to the row count of the section with value `term`, making the section
    /// when it is new.
    private func changeCount(of term: PredicateTerm, by delta: Int) {
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if compareSections(sections[middle].term, term) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        if low < sections.count && compareSections(sections[low].term, term) == .orderedSame {
            sections[low].count += delta
        } else {
            sections.insert(ResultsSectionState(term: term, count: delta), at: low)
        }
    }

    /// Section deletions (old indices, descending) and insertions (new, ascending).
    private func sectionChanges(from oldSections: [ResultsSectionState]) -> [ResultsChange] {
        guard sectionKey != nil else { return [] }
        var deleted: [Int] = []
        var inserted: [Int] = []
        var i = 0
        var j = 0
        while i < oldSections.count || j < sections.count {
            if i < oldSections.count && j < sections.count {
                switch compareSections(oldSections[i].term, sections[j].term) {
                case .orderedSame:
                    i += 1
                    j += 1
                case .orderedAscending:
                    deleted.append(i)
                    i += 1
                case .orderedDescending:
                    inserted.append(j)
                    j += 1
                }
            } else if i < oldSections.count {
                deleted.append(i)
                i += 1
            } else {
                inserted.append(j)
                j += 1
            }
        }
        return deleted.reversed().map { .sectionDeleted(at: $0) } + inserted.map { .sectionInserted(at: $0, name: sections[$0].name) }
    }

    /// The positions of a longest strictly increasing subsequence of `values`.
    ///
    /// - Complexity: O(m log m).
    package static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions in `values` ending the best run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: Set<Int> = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }

    /// The number of elements of sorted `values` below `value`.
    static func lowerBound(of value: Int, in values: [Int]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
