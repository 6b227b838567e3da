import OutlineEngine

extension DocumentContainer {
    /// Saves after every quiet period of ``Autosave/quietPeriod`` that follows changes.
    ///
    /// An autosave that fails (invalid objects, an unwritable file) is reported in ``events``
    /// and ``saveState``; editing goes on and the next change tries again.
    func startAutosave(isolation: isolated (any Actor)?) {
        guard let autosave = options.autosave else { return }
        let (changes, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        changeSignal = signal
        changeObserver = context.addObserver { [weak self] _ in
            self?.changeGeneration += 1
            signal.yield()
        }
        let clock = options.clock
        autosaveTask = Task { [weak self] in
            _ = isolation
            for await _ in changes {
                // Restart the quiet period while changes keep coming.
                while true {
                    guard let generation = self?.changeGeneration else { return }
                    do {
                        try await clock.sleep(for: autosave.quietPeriod)
                    } catch {
                        return
                    }
                    guard let self, !self.isClosed else { return }
                    if self.changeGeneration == generation { break }
                }
                guard let self, !self.isClosed, self.hasChanges else { continue }
                // Failures are in `events` and `saveState`.
                try? await self.save()
            }
        }
    }
}
