import Foundation

/// A scratch pad over an object graph: inserts, deletes and updates with inverse relationships
/// kept in step, delete rules applied, change tracking, undo and redo, validation and fetches.
///
/// Like Core Data's `NSManagedObjectContext`, a context is used from one thread at a time.
/// Every public edit is one undo step unless it runs inside ``perform(_:_:)`` or an explicit
/// group (``beginUndoGroup(named:)``); an edit that throws leaves the graph as it was.
public final class EditingContext: ObjectGraphReading {
    /// The objects. Stores read it to save; edits go through the context.
    public let graph: ObjectGraph
    /// The schema of the context's objects.
    public var schema: Schema { graph.schema }

    // Scratch and background contexts (EditingContext+Fork.swift).
    /// Tells contexts apart, so that changes are merged only into the context they came from.
    let identity = UUID()
    /// Where this context started, when it was made from another one.
    var origin: ContextFork?
    /// The context a scratch context commits into.
    weak var parent: EditingContext?
    /// Whether the scratch context was committed or discarded.
    var isFinished = false

    // Change tracking since the last save (see EditingContext+Saving.swift).
    var tracked = ChangeSet()
    /// Objects inserted since the last save (and still alive).
    public var insertedObjects: Set<ManagedObject> { tracked.inserted }
    /// Objects changed since the last save, other than inserted and deleted ones.
    public var updatedObjects: Set<ManagedObject> { tracked.updated }
    /// Objects that existed at the last save and are deleted now.
    public var deletedObjects: Set<ManagedObject> { tracked.deleted }
    /// The primitive changes from position ``journalOrigin`` on: from the saved state, or from
    /// an older state a save in progress may still make the saved one.
    var journal: [Change] = []
    /// The position in the history of `journal[0]`; positions only grow.
    var journalOrigin = 0
    /// The position at which the saved state was current; `journal` from there leads to now.
    var savedPosition = 0
    /// Identifies the current state: equal ids mean equal contents.
    var stateID: UInt64 = 0
    var lastStateID: UInt64 = 0
    /// The id of the state the saved document holds.
    var savedStateID: UInt64 = 0
    /// Counts edits made outside undo; undo steps made before one no longer lead to a known state.
    var epoch = 0
    /// Snapshots being saved, oldest first.
    var pendingSaves: [SaveMarker] = []

    // Undo.
    var undoStack: [UndoGroup] = []
    var redoStack: [UndoGroup] = []
    var openGroup: UndoGroup?
    var groupDepth = 0
    var replaying = false
    /// Whether edits are recorded for undo. Turn it off for bulk work that should not be undoable.
    public var isUndoRegistrationEnabled = true
    /// The most undo steps kept; 0 keeps them all.
    public var undoLevels = 0
    /// How many undo steps edits have made in this context (undo and redo make none); each
    /// such step ends the redo steps there were. A program that keeps steps beside the
    /// context's own compares it to know whether it must drop its redo steps too.
    public internal(set) var editStepCount = 0

    // Observers.
    var observers: [Int: (ChangeNotification) -> Void] = [:]
    var detailedObservers = 0
    var nextObserver = 0

    /// A context over an empty graph of `schema`.
    public convenience init(schema: Schema) {
        self.init(graph: ObjectGraph(schema: schema))
    }

    /// A context over an existing graph (one a store loaded). The graph counts as saved.
    public init(graph: ObjectGraph) {
        self.graph = graph
    }

    /// Whether anything was inserted, updated or deleted since the last save.
    public var hasChanges: Bool { !tracked.isEmpty }

    // MARK: Observation

    /// Registers `handler` to be called after each undo step's worth of changes (including
    /// undo, redo, rollback and reload) with the objects it inserted, updated and deleted.
    @discardableResult
    public func addObserver(_ handler: @escaping (ChangeSet) -> Void) -> ObserverToken {
        nextObserver += 1
        observers[nextObserver] = { handler($0.summary) }
        return ObserverToken(id: nextObserver, detailed: false)
    }

    /// Registers `handler` to be called after each undo step's worth of changes (including
    /// undo, redo, rollback and reload) with what caused it and every primitive change in order.
    @discardableResult
    public func addChangeObserver(_ handler: @escaping (ChangeNotification) -> Void) -> ObserverToken {
        nextObserver += 1
        observers[nextObserver] = handler
        detailedObservers += 1
        return ObserverToken(id: nextObserver, detailed: true)
    }

    /// Stops calling the handler registered with `token`; a token already removed is ignored.
    public func removeObserver(_ token: ObserverToken) {
        guard observers.removeValue(forKey: token.id) != nil else { return }
        if token.detailed { detailedObservers -= 1 }
    }

    func notify(_ changes: [Change], reason: ChangeReason, actionName: String?) {
        guard !observers.isEmpty, !changes.isEmpty || reason == .reload else { return }
        let notification = ChangeNotification(
            reason: reason, actionName: actionName, summary: ChangeSet(changes),
            changes: detailedObservers > 0 ? changes.map(\.observed) : [])
        for key in observers.keys.sorted() { observers[key]?(notification) }
    }

    // MARK: Reading

    /// Whether `object` is a live object of this context.
    public func exists(_ object: ManagedObject) -> Bool { graph.contains(object) }

    /// The entity of `object`.
    public func entity(of object: ManagedObject) -> EntityInfo { schema.infos[object.entity] }

    /// The id of `object`, the number a file stores for it (`z102`).
    public func objectID(of object: ManagedObject) -> ObjectID { graph.objectID(of: object) }

    /// The live object with persistent id `id`.
    public func object(with id: ObjectID) -> ManagedObject? { graph.object(with: id) }

    /// The value of `attribute` of `object` (nil when it has none), without name lookup.
    public func attributeValue(of object: ManagedObject, _ attribute: AttributeIndex) -> Value? {
        graph.attributeValue(of: object, attribute)
    }

    /// The destination of to-one `relationship` of `object`, nil when there is none.
    public func relatedObject(of object: ManagedObject, _ relationship: RelationshipIndex) -> ManagedObject? {
        graph.relatedObject(of: object, relationship)
    }

    /// The members of to-many `relationship` of `object`, in stored order.
    public func relatedObjects(of object: ManagedObject, _ relationship: RelationshipIndex) -> [ManagedObject] {
        graph.relatedObjects(of: object, relationship)
    }

    /// The value of the attribute called `key`.
    public func value(forKey key: String, of object: ManagedObject) throws -> Value? {
        try checkAlive(object)
        return graph.attributeValue(of: object, try attributeIndex(key, of: object))
    }

    /// The destination of the to-one relationship called `key`.
    public func object(forKey key: String, of object: ManagedObject) throws -> ManagedObject? {
        try checkAlive(object)
        let r = try relationshipIndex(key, of: object, toMany: false)
        return graph.relatedObject(of: object, r)
    }

    /// The destinations of the to-many relationship called `key`, in stored order.
    public func objects(forKey key: String, of object: ManagedObject) throws -> [ManagedObject] {
        try checkAlive(object)
        let r = try relationshipIndex(key, of: object, toMany: true)
        return graph.relatedObjects(of: object, r)
    }

    /// Every live object of the entity called `entity`, subentities included, in storage order.
    public func objects(ofEntity entity: String) throws -> [ManagedObject] {
        graph.objects(ofEntity: try entityIndex(entity))
    }

    // MARK: Name resolution

    func entityIndex(_ name: String) throws -> EntityIndex {
        guard let index = schema.entityIndex(named: name) else {
            throw EngineError(
                .unknownName, at: name, "there is no entity called \"\(name)\"",
                hint: "Entities are: \(schema.entities.map(\.name).joined(separator: ", ")).")
        }
        return index
    }

    func attributeIndex(_ key: String, of object: ManagedObject) throws -> AttributeIndex {
        let info = entity(of: object)
        guard let index = info.attributeIndex(named: key) else {
            throw EngineError(
                .unknownName, at: "\(info.name).\(key)", "\"\(key)\" is not an attribute of \(info.name)",
                hint: "Attributes are: \(info.attributes.map(\.name).joined(separator: ", ")).")
        }
        return index
    }

    func relationshipIndex(_ key: String, of object: ManagedObject, toMany: Bool?) throws -> RelationshipIndex {
        let info = entity(of: object)
        guard let index = info.relationshipIndex(named: key) else {
            throw EngineError(
                .unknownName, at: "\(info.name).\(key)", "\"\(key)\" is not a relationship of \(info.name)",
                hint: "Relationships are: \(info.relationships.map(\.name).joined(separator: ", ")).")
        }
        if let toMany, info.relationships[index].isToMany != toMany {
            throw EngineError(
                .typeMismatch, at: "\(info.name).\(key)",
                "\"\(key)\" is a \(toMany ? "to-one" : "to-many") relationship",
                hint: toMany ? "Use object(forKey:of:) and setObject(_:forKey:of:)." : "Use objects(forKey:of:), add and remove.")
        }
        return index
    }

    func checkAlive(_ object: ManagedObject) throws {
        guard graph.contains(object) else {
            throw EngineError(
                .invalidObject, at: "\(object)", "the object does not exist in this context (it was deleted, or belongs to another context)")
        }
    }

    func describe(_ object: ManagedObject) -> String {
        "\(schema.entities[object.entity].name) \(graph.objectID(of: object))"
    }
}

/// Identifies an observer registered with ``EditingContext/addObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
    let detailed: Bool
}
