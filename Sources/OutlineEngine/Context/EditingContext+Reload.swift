/// Replacing every object at once, when a document is read again.
extension EditingContext {
    /// Replaces every object with those of `snapshot` (the document as another program saved
    /// it), which becomes the saved state: undo history and change tracking are cleared, and
    /// observers get one batch with reason ``ChangeReason/reload``. Handles from before are
    /// not valid any more.
    ///
    /// - Precondition: `snapshot` has the entities and properties of ``schema``, in the same
    ///   order; no undo group is open.
    public func replaceGraph(with snapshot: GraphSnapshot) {
        precondition(groupDepth == 0, "replaceGraph(with:) inside an open undo group")
        precondition(Self.sameLayout(schema, snapshot.schema), "replaceGraph(with:) with a snapshot of another schema")
        graph.replaceContents(with: snapshot)
        undoStack.removeAll()
        redoStack.removeAll()
        journal.removeAll()
        journalOrigin = 0
        savedPosition = 0
        pendingSaves.removeAll()
        tracked = ChangeSet()
        stateID = newStateID()
        savedStateID = stateID
        notify([], reason: .reload, actionName: nil)
    }

    /// Whether graphs of `a` and `b` store the same tables: the same entities with the same
    /// attributes (and types) and relationships, in the same order.
    public static func sameLayout(_ a: Schema, _ b: Schema) -> Bool {
        a.infos.count == b.infos.count
            && zip(a.infos, b.infos).allSatisfy { x, y in
                x.name == y.name && x.attributes.map(\.name) == y.attributes.map(\.name)
                    && x.attributes.map(\.type) == y.attributes.map(\.type)
                    && x.relationships.map(\.name) == y.relationships.map(\.name)
                    && x.relationships.map(\.isToMany) == y.relationships.map(\.isToMany)
            }
    }
}

extension ObjectGraph {
    /// Takes the tables and next id of `snapshot` (of a schema with the same layout).
    func replaceContents(with snapshot: GraphSnapshot) {
        tables = snapshot.tables
        nextID = snapshot.nextID
        dropIDIndex()
    }
}
