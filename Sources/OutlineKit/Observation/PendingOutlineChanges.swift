import OutlineEngine

/// What the steps since the last delivery did to an outline's tree, as ``VisibleRows`` needs
/// it: items taken out of a child list (or deleted), items put into one, items whose collapsed
/// flag or child list changed, and the keys that changed per item.
struct PendingOutlineChanges {
    var removed: Set<ManagedObject> = []
    var inserted: Set<ManagedObject> = []
    var toggled: Set<ManagedObject> = []
    var parents: Set<ManagedObject> = []
    var keys: [ManagedObject: Set<String>] = [:]
    var reload = false

    var isEmpty: Bool { !reload && removed.isEmpty && inserted.isEmpty && toggled.isEmpty && parents.isEmpty && keys.isEmpty }

    /// Folds in one notification's primitive changes.
    mutating func add(_ notification: ChangeNotification, shape: OutlineShape, schema: Schema) {
        if notification.reason == .reload {
            self = PendingOutlineChanges()
            reload = true
            return
        }
        guard !reload else { return }
        for change in notification.changes {
            let object = change.object
            let info = schema.infos[object.entity]
            guard info.isKind(of: shape.item) else { continue }
            switch change {
            case .inserted: keys[object, default: []].formUnion([])
            case .deleted: removed.insert(object)
            case .attribute(_, let a):
                if a == shape.collapsed { toggled.insert(object) }
                keys[object, default: []].insert(info.attributes[a].name)
            case .toOne(_, let r, _, _):
                keys[object, default: []].insert(info.relationships[r].name)
            case .memberInserted(_, let r, let member, _):
                guard r == shape.children else { continue }
                parents.insert(object)
                inserted.insert(member)
            case .memberRemoved(_, let r, let member, _):
                guard r == shape.children else { continue }
                parents.insert(object)
                removed.insert(member)
            case .membersReplaced(_, let r, let old, let new):
                guard r == shape.children else { continue }
                parents.insert(object)
                replaced(old, with: new)
            }
        }
    }

    /// A child list replaced as a whole (a merge does that): the items that left or joined it,
    /// and those of the others that changed order (all but a longest run that kept it).
    private mutating func replaced(_ old: [ManagedObject], with new: [ManagedObject]) {
        let oldSet = Set(old)
        let newSet = Set(new)
        removed.formUnion(old.filter { !newSet.contains($0) })
        inserted.formUnion(new.filter { !oldSet.contains($0) })
        let stayingOld = old.filter(newSet.contains)
        let stayingNew = new.filter(oldSet.contains)
        guard stayingOld != stayingNew else { return }
        var oldPosition: [ManagedObject: Int] = [:]
        for (index, item) in stayingOld.enumerated() { oldPosition[item] = index }
        let keep = ResultsController.longestIncreasingRun(stayingNew.map { oldPosition[$0]! })
        for (index, item) in stayingNew.enumerated() where !keep.contains(index) {
            removed.insert(item)
            inserted.insert(item)
        }
    }
}
