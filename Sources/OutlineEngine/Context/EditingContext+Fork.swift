/// Scratch contexts (an edit sheet: edited freely, then committed as one undo step or thrown
/// away) and background contexts (work on another actor whose changes come back as a value).
extension EditingContext {
    /// Where a context made from this one starts: the objects as they are now.
    ///
    /// - Complexity: O(entities × properties), as ``ObjectGraph/snapshot()``.
    public func fork() -> ContextFork {
        precondition(groupDepth == 0, "fork() inside an open undo group")
        let snapshot = graph.snapshot()
        return ContextFork(snapshot: snapshot, parent: identity, rowCounts: snapshot.rowCounts)
    }

    /// A context over `fork`, for work on any actor or task: the handles of the objects the
    /// forked context had are valid in it. Send ``changesSinceFork()`` back to the forked
    /// context and ``merge(_:named:finishing:)`` them there.
    public convenience init(fork: ContextFork) {
        self.init(graph: ObjectGraph(snapshot: fork.snapshot))
        origin = fork
    }

    /// A scratch context over this one, to use on the same actor (an edit sheet): edit it
    /// freely (it has its own undo), then ``commit(named:)`` its changes into this context as
    /// one undo step, or ``discard()`` them. Handles of this context's objects are valid in it.
    ///
    /// - Complexity: O(entities × properties); its first edits copy the pages they touch.
    public func makeScratchContext() -> EditingContext {
        let scratch = EditingContext(fork: fork())
        scratch.parent = self
        return scratch
    }

    /// Commits the changes of this scratch context into the context it was made from, as one
    /// undo step named `actionName`, and ends the scratch context.
    ///
    /// Objects made here get handles and ids of the parent (``MergeReport/insertedObjects``);
    /// changes the parent made since the scratch context began are dealt with as
    /// ``MergeConflict`` describes, and listed in the report.
    /// - Throws: ``EngineError`` when the parent refuses the changes (nothing is changed then;
    ///   the scratch context is ended all the same: it gave up its snapshot to make the merge cheap).
    /// - Complexity: O(c + l) for c changed properties and l members of the lists they touch,
    ///   whatever the size of the graph.
    @discardableResult
    public func commit(named actionName: String) throws -> MergeReport {
        precondition(!isFinished, "commit(named:) on a scratch context that was committed or discarded")
        guard let parent else {
            preconditionFailure("commit(named:) on a context that is not a scratch context, or whose parent is gone")
        }
        return try parent.merge(finishForCommit(), named: actionName)
    }

    /// Throws the changes of this scratch context away and ends it, letting go of its fork's
    /// snapshot; the parent is untouched. Its objects can still be read.
    public func discard() {
        isFinished = true
        origin = nil
    }

    /// The changes of this scratch context (``changesSinceFork()``), ending it: it lets go of
    /// its fork's snapshot, so that the parent can apply them without copying the pages it
    /// writes (the snapshot shares them). A commit that fails after this leaves the parent
    /// as it was; the scratch context is ended all the same.
    package func finishForCommit() -> ContextChanges {
        let changes = changesSinceFork()
        discard()
        return changes
    }

    /// The properties of `object` in `snapshot`.
    static func state(of object: ManagedObject, in snapshot: GraphSnapshot) -> ContextChanges.ObjectState {
        let info = snapshot.schema.infos[object.entity]
        return ContextChanges.ObjectState(
            attributes: info.attributeIndices.map { snapshot.attributeValue(of: object, $0) },
            relationships: info.relationshipIndices.map {
                info[$0].isToMany ? snapshot.relatedObjects(of: object, $0) : snapshot.relatedObject(of: object, $0).map { [$0] } ?? []
            })
    }

    /// Whether this is a scratch context that was committed or discarded.
    public var isFinishedScratch: Bool { isFinished }

    /// Everything this context changed since its fork, as a value another actor can merge.
    ///
    /// - Complexity: O(c) in the primitive changes made since the fork, plus the size of the
    ///   to-many relationships they touched.
    public func changesSinceFork() -> ContextChanges {
        guard let origin else {
            preconditionFailure(
                isFinished
                    ? "changesSinceFork() on a scratch context that was committed or discarded"
                    : "changesSinceFork() on a context that was not made by fork")
        }
        precondition(groupDepth == 0, "changesSinceFork() inside an open undo group")
        var objects = OrderedSet<ManagedObject>()
        var attributes = OrderedSet<PropertyKey>()
        var relationships = OrderedSet<PropertyKey>()
        for change in journal[(savedPosition - journalOrigin)...] {
            switch change {
            case .revived(let o), .killed(let o):
                objects.insert(o)
            case .attribute(let o, let a, _):
                attributes.insert(PropertyKey(object: o, index: a.rawValue))
            case .toOne(let o, let r, _, _), .memberInserted(let o, let r, _, _), .memberRemoved(let o, let r, _, _),
                .membersReplaced(let o, let r, _, _):
                relationships.insert(PropertyKey(object: o, index: r.rawValue))
            }
        }
        let base = origin.snapshot
        var changes = ContextChanges(fork: ForkMark(origin))
        for object in objects.elements {
            if origin.isNew(object) {
                guard graph.contains(object) else { continue }
                let values: [Value?] = Array(schema.infos[object.entity].attributeIndices.map { self.graph.attributeValue(of: object, $0) })
                changes.insertions.append(.init(object: object, values: values))
            } else if !graph.contains(object) && base.contains(object) {
                changes.deletions.append(object)
                changes.deletedStates.append(Self.state(of: object, in: base))
            }
        }
        for key in attributes.elements where graph.contains(key.object) && !origin.isNew(key.object) {
            let a = AttributeIndex(key.index)
            let value = graph.attributeValue(of: key.object, a)
            let old = base.attributeValue(of: key.object, a)
            if value != old { changes.attributes.append(.init(object: key.object, attribute: a, base: old, value: value)) }
        }
        for key in relationships.elements where graph.contains(key.object) {
            let r = RelationshipIndex(key.index)
            let isNew = origin.isNew(key.object)
            if schema.infos[key.object.entity].relationships[r].isToMany {
                let members = graph.relatedObjects(of: key.object, r)
                let old = isNew ? [] : base.relatedObjects(of: key.object, r)
                if members != old { changes.toMany.append(.init(object: key.object, relationship: r, base: old, members: members)) }
            } else {
                let target = graph.relatedObject(of: key.object, r)
                let old = isNew ? nil : base.relatedObject(of: key.object, r)
                if target != old { changes.toOne.append(.init(object: key.object, relationship: r, base: old, target: target)) }
            }
        }
        return changes
    }
}

/// A property of an object: an attribute or relationship index.
struct PropertyKey: Hashable {
    var object: ManagedObject
    var index: Int
}

/// The distinct elements of a sequence, in the order first seen.
struct OrderedSet<Element: Hashable> {
    private(set) var elements: [Element] = []
    private var seen: Set<Element> = []

    mutating func insert(_ element: Element) {
        if seen.insert(element).inserted { elements.append(element) }
    }
}
