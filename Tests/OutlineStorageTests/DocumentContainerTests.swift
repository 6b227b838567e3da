import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// Opening with progress and cancellation, editing on the main actor, saving in the background.
@Suite(.timeLimit(.minutes(5))) @MainActor struct DocumentContainerTests {
    @Test func openingReportsEveryPhaseAndHandsTheContextToTheCaller() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(20_000, in: folder)
        var phases: [LoadProgress.Phase] = []
        var fractions: [Double] = []
        let container = try await DocumentContainer.open(path) { progress in
            if phases.last != progress.phase { phases.append(progress.phase) }
            fractions.append(progress.fraction)
        }
        #expect(phases == [.reading, .decoding, .checking])
        #expect(fractions.allSatisfy { (0 ... 1).contains($0) })
        #expect(container.context.graph.objectCount == 20_001)
        #expect(!container.hasChanges && container.saveState == .saved)
        let root = StackFixtures.root(of: container.context)
        try StackFixtures.insert("new", under: root, in: container.context)
        #expect(container.saveState == .unsaved)
        try await container.save()
        #expect(container.saveState == .saved)
        #expect(try StackFixtures.texts(at: path).contains("new"))
        try await container.close()
    }

    @Test func aCancelledOpenChangesNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(StackFixtures.largeItems, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let names = StackFixtures.names(in: folder)
        var seen: [LoadProgress.Phase] = []
        let opening = Task { @MainActor in
            _ = try await DocumentContainer.open(path) { progress in
                seen.append(progress.phase)
                if progress.phase != .reading { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let error = await #expect(throws: StorageError.self) { try await opening.value }
        #expect(error?.code == .cancelled)
        #expect(error?.description == "\(path): opening was cancelled. Nothing was changed; open the document again.")
        #expect(seen.contains(.reading) && seen.last != .reading, "cancelled after reading (phases seen: \(seen))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(StackFixtures.names(in: folder) == names)
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func cancellingWhileDecodingStopsAtOnce(format: DocumentFormat) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(format == .xml ? 70_000 : 20_000, in: folder, format: format)
        // Cancelled from its own first report of decoding: the next check stops it.
        let phases = Phases()
        let loading = Task {
            _ = try DocumentLoader.read(path, model: .embedded, options: PersistentStore.Options()) { progress in
                phases.append(progress.phase)
                if progress.phase == .decoding { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let error = await #expect(throws: StorageError.self) { try await loading.value }
        #expect(error?.code == .cancelled)
        #expect(phases.all.last == .decoding && phases.all.filter { $0 == .decoding }.count == 1, "\(phases.all)")
    }

    /// Phases reported on another thread.
    final class Phases: @unchecked Sendable {
        // @unchecked Sendable: `phases` is only touched while `lock` is held.
        private let lock = NSLock()
        private var phases: [LoadProgress.Phase] = []
        func append(_ phase: LoadProgress.Phase) { lock.withLock { phases.append(phase) } }
        var all: [LoadProgress.Phase] { lock.withLock { phases } }
    }

    @Test func editsMadeDuringASaveStayUnsavedAndTheNextSaveWritesThem() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(50_000, in: folder)
        let container = try await DocumentContainer.open(path)
        let context = container.context
        let root = StackFixtures.root(of: context)
        try StackFixtures.insert("before the save", under: root, in: context)
        // Held here, the document's lock keeps the save from writing until the next edit is made.
        let lock = try DocumentLock.acquire(path, timeout: 10)
        let saving = Task { try await container.save() }
        try #require(await StackFixtures.yield(until: { container.saveState == .saving }))
        try StackFixtures.insert("during the save", under: root, in: context)
        lock.release()
        try await saving.value
        #expect(container.saveState == .unsaved)
        #expect(context.insertedObjects.count == 1)
        var texts = try StackFixtures.texts(at: path)
        #expect(texts.contains("before the save") && !texts.contains("during the save"))
        try await container.save()
        texts = try StackFixtures.texts(at: path)
        #expect(texts.filter { $0 == "during the save" }.count == 1 && texts.filter { $0 == "before the save" }.count == 1)
        context.undo()
        #expect(container.hasChanges, "the last save holds the undone item")
        context.redo()
        #expect(!container.hasChanges, "redo comes back to the saved state")
        try await container.close()
    }

    @Test func savesRequestedDuringASaveShareOneMoreSave() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(50_000, in: folder)
        let container = try await DocumentContainer.open(path)
        var events = container.events.makeAsyncIterator()
        let root = StackFixtures.root(of: container.context)
        try StackFixtures.insert("first", under: root, in: container.context)
        // Held here, the document's lock keeps the first save running until both requests wait.
        let lock = try DocumentLock.acquire(path, timeout: 10)
        let first = Task { try await container.save() }
        try #require(await StackFixtures.yield(until: { container.saveState == .saving }))
        try StackFixtures.insert("second", under: root, in: container.context)
        let second = Task { try await container.save() }
        let third = Task { try await container.save() }
        try #require(await StackFixtures.yield(until: { container.waitingForNextSave.count == 2 }))
        lock.release()
        try await first.value
        try await second.value
        try await third.value
        #expect(await events.next() == .saved)
        #expect(await events.next() == .saved)
        #expect(!container.hasChanges)
        try await container.close()
        #expect(await events.next() == nil, "two saves for three requests, then the end")
        #expect(try StackFixtures.texts(at: path).filter { $0 == "second" }.count == 1)
    }

    @Test func aSaveWaitsForAnotherProcessHoldingTheLockThenGivesUp() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(lockTimeout: .milliseconds(300)))
        try StackFixtures.insert("x", under: StackFixtures.root(of: container.context), in: container.context)
        let lock = try DocumentLock.acquire(path, timeout: 10)
        let error = await #expect(throws: StorageError.self) { try await container.save() }
        #expect(error?.code == .conflict)
        #expect(container.saveState == .failed(error!) && container.hasChanges)
        lock.release()
        try await container.save()
        #expect(try StackFixtures.texts(at: path).contains("x"))
        try await container.close()
    }

    @Test func aNewDocumentIsWrittenByItsFirstSave() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/new.outline"
        let container = try await DocumentContainer.create(path, schema: try SampleOutlines.currentSchema())
        #expect(container.hasChanges)
        try await container.save()
        #expect(FileManager.default.fileExists(atPath: path) && !container.hasChanges)
        let again = await #expect(throws: StorageError.self) {
            _ = try await DocumentContainer.create(path, schema: try SampleOutlines.currentSchema())
        }
        #expect(again?.code == .conflict)
        try await container.close()
    }

    @Test func aReadOnlyContainerRefusesToSave() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(10, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(isReadOnly: true))
        try StackFixtures.insert("x", under: StackFixtures.root(of: container.context), in: container.context)
        await #expect(throws: StorageError.self) { try await container.save() }
        try await container.close()
    }

    /// Runs on an actor of its own: the container belongs to it.
    actor Editor {
        var container: DocumentContainer?
        func open(_ path: String) async throws -> Int {
            let container = try await DocumentContainer.open(path)
            try StackFixtures.insert("from an actor", under: StackFixtures.root(of: container.context), in: container.context)
            try await container.save()
            self.container = container
            return container.context.graph.objectCount
        }
    }

    @Test func aContainerCanBelongToAnActorOfItsOwn() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(10, in: folder)
        #expect(try await Editor().open(path) == 12)
        #expect(try StackFixtures.texts(at: path).contains("from an actor"))
    }
}
