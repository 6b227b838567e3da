import OutlineEngine

extension DocumentContainer {
    /// Checks the file every ``Options/externalChangeInterval`` for a version another program
    /// wrote (comparing its device, inode, size and modification time with those of the
    /// version last read or written), and reloads it when the document has no unsaved changes
    /// and the program no pending edits (``hasPendingEdits``).
    ///
    /// Polling rather than inotify: it sees a file replaced by a rename (how every careful
    /// program saves) as well as one written in place, works on network file systems and on
    /// macOS alike, and costs one `stat` per interval.
    func startWatching(isolation: isolated (any Actor)?) {
        guard let interval = options.externalChangeInterval, let path else { return }
        let clock = options.clock
        watchTask = Task { [weak self] in
            _ = isolation
            while true {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard let before = self?.savesBegun else { return }
                let current = await DocumentLoader.fingerprint(of: path)
                guard let self, !self.isClosed else { return }
                // A save that began meanwhile changed the file itself: look again next time.
                guard self.savesBegun == before else { continue }
                await self.notice(current)
            }
        }
    }

    /// Reacts to the file being `current` now.
    func notice(_ current: FileFingerprint?, isolation: isolated (any Actor)? = #isolation) async {
        guard !saveInProgress, !reloading, let known = store.fingerprint,
            let current, current != known, current != reportedExternalChange
        else { return }
        if hasChanges || hasPendingEdits() {
            reportedExternalChange = current
            eventSink.yield(.externalChange)
            return
        }
        do {
            try await reload()
        } catch {
            reportedExternalChange = current
        }
    }

    /// Checks the file once now, as the periodic check does.
    public func checkForExternalChanges(isolation: isolated (any Actor)? = #isolation) async {
        guard let path else { return }
        let before = savesBegun
        let current = await DocumentLoader.fingerprint(of: path)
        guard savesBegun == before else { return }
        await notice(current)
    }

    /// Reads the file again, replacing every object (unsaved changes are lost); observers of
    /// the context get one batch with reason `ChangeReason.reload`.
    ///
    /// - Throws: ``StorageError`` when the file cannot be read or no longer fits the schema;
    ///   the objects are then as they were.
    public func reload(isolation: isolated (any Actor)? = #isolation) async throws {
        guard let path else { return }
        if saveInProgress { try? await save() }
        reloading = true
        defer { reloading = false }
        do {
            let (snapshot, loaded) = try await DocumentLoader.load(path, model: model, options: store.options, progress: nil)
            guard EditingContext.sameLayout(context.schema, snapshot.schema) else {
                throw StorageError(
                    .incompatibleModel, file: path, "the file now holds a document of another model",
                    hint: "Open it again as a new document.")
            }
            context.replaceGraph(with: consume snapshot)
            store.metadata = loaded.metadata
            store.format = loaded.format
            store.fingerprint = loaded.fingerprint
            store.migration = loaded.migration
            store.hasMetadataChanges = loaded.hasMetadataChanges
            // The history the other program wrote belongs to the objects now read.
            store.useHistory(loaded.history, as: options.undoHistory)
            reportedExternalChange = nil
            lastSaveError = nil
            needsWrite = false
            eventSink.yield(.reloaded)
        } catch {
            let failure = error as? StorageError ?? StorageError(.unreadable, file: path, "\(error)")
            eventSink.yield(.reloadFailed(failure))
            throw failure
        }
    }

    /// Keeps the unsaved changes over the version of the file another program wrote: the
    /// next save replaces that version instead of failing with `conflict`. Until it has, the
    /// document counts as changed (``hasChanges``), even once undo has taken every local
    /// change back: the file still holds the other program's version.
    public func keepLocalChanges(isolation: isolated (any Actor)? = #isolation) async {
        guard let path else { return }
        if let current = await DocumentLoader.fingerprint(of: path) { store.fingerprint = current }
        reportedExternalChange = nil
        needsWrite = true
    }
}
