/// Which changes a save holds: snapshots taken for saving, and the state a document's file has.
///
/// A save takes a snapshot and a ``SaveMarker`` on the context's actor, writes the snapshot
/// elsewhere, and then reports back with ``markSaved(_:)`` or ``abandonSave(_:)``. Edits made
/// meanwhile stay unsaved; undoing back to the state that was saved reports no changes again.
extension EditingContext {
    /// Marks the current state as saved: nothing counts as changed any more (undo history is
    /// kept, and undoing back to this state reports no changes). Snapshots still being saved
    /// no longer count: their ``markSaved(_:)`` does nothing.
    public func markSaved() {
        precondition(groupDepth == 0, "markSaved() inside an open undo group")
        pendingSaves.removeAll()
        savedStateID = stateID
        savedPosition = journalOrigin + journal.count
        tracked = ChangeSet()
        trimJournal()
    }

    /// The graph as it is now, to be saved elsewhere, and the marker that says which changes
    /// the save holds once it succeeds (``markSaved(_:)``) or fails (``abandonSave(_:)``).
    ///
    /// - Complexity: O(entities × properties), as ``ObjectGraph/snapshot()``.
    public func snapshotForSave() -> (snapshot: GraphSnapshot, marker: SaveMarker) {
        precondition(groupDepth == 0, "snapshotForSave() inside an open undo group")
        let marker = SaveMarker(
            serial: newStateID(), position: journalOrigin + journal.count, stateID: stateID,
            inserted: tracked.inserted, updated: tracked.updated)
        pendingSaves.append(marker)
        return (graph.snapshot(), marker)
    }

    /// Records that the snapshot taken with `marker` is now what the document holds: the
    /// changes it contained count as saved, those made since stay unsaved.
    ///
    /// Does nothing when the marker no longer counts (``markSaved()``, ``abandonSave(_:)`` or
    /// a reload came in between).
    public func markSaved(_ marker: SaveMarker) {
        precondition(groupDepth == 0, "markSaved(_:) inside an open undo group")
        guard let index = pendingSaves.firstIndex(of: marker) else { return }
        pendingSaves.remove(at: index)
        savedStateID = marker.stateID
        savedPosition = marker.position
        recomputeTracking()
        settle()
        trimJournal()
    }

    /// Records that the save of the snapshot taken with `marker` failed: the document holds
    /// what it held before, and every change since then is still unsaved.
    public func abandonSave(_ marker: SaveMarker) {
        guard let index = pendingSaves.firstIndex(of: marker) else { return }
        pendingSaves.remove(at: index)
        trimJournal()
    }

    /// Whether a snapshot taken with ``snapshotForSave()`` is still being saved.
    public var isSaving: Bool { !pendingSaves.isEmpty }

    /// When the state is the saved one again (by undo, redo or rollback), nothing counts as changed.
    func settle() {
        guard stateID == savedStateID else { return }
        savedPosition = journalOrigin + journal.count
        tracked = ChangeSet()
        trimJournal()
    }

    /// Drops the journal before the oldest position still needed: the saved state's, or that of
    /// a snapshot being saved.
    func trimJournal() {
        let keep = pendingSaves.reduce(savedPosition) { min($0, $1.position) }
        let drop = keep - journalOrigin
        guard drop > 0 else { return }
        if drop == journal.count {
            journal.removeAll()
        } else {
            journal.removeFirst(drop)
        }
        journalOrigin = keep
    }
}

/// Identifies a snapshot taken for saving with ``EditingContext/snapshotForSave()``: which
/// state it holds, and which objects changed since the last save when it was taken (the ones
/// validation looks at).
///
/// The sets share their storage with the context's change tracking: taking one copies nothing.
public struct SaveMarker: Sendable, Hashable {
    /// Tells markers apart.
    let serial: UInt64
    /// The position in the context's history where the snapshot was taken.
    let position: Int
    /// The state the snapshot holds.
    let stateID: UInt64
    /// The objects inserted since the last save when the snapshot was taken.
    public let inserted: Set<ManagedObject>
    /// The objects updated since the last save when the snapshot was taken.
    public let updated: Set<ManagedObject>

    /// The objects a save validates: those inserted or updated since the last save.
    public var changedObjects: [ManagedObject] { Array(inserted.union(updated)) }

    /// Whether both mark the same save.
    public static func == (lhs: SaveMarker, rhs: SaveMarker) -> Bool { lhs.serial == rhs.serial }
    /// Hashes the save the marker stands for.
    public func hash(into hasher: inout Hasher) { hasher.combine(serial) }
}
