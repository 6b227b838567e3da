import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// Typing while a big document saves: every edit lands, none is lost or saved twice.
///
/// The document has `OUTLINE_LARGE_ITEMS` items (100,000 by default); the figures are printed.
@Suite(.timeLimit(.minutes(10))) @MainActor struct TypingWhileSavingTests {
    @Test func aThousandEditsDuringOneBackgroundSaveAllLandOnce() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let items = StackFixtures.largeItems
        let path = try StackFixtures.document(items, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        let context = container.context
        let root = StackFixtures.root(of: context)
        try StackFixtures.insert("before the save", under: root, in: context)

        let clock = ContinuousClock()
        let saveStart = clock.now
        // The document's lock, held here, keeps the save from writing until half the edits
        // are made, however late this task runs again on a loaded machine; the other half is
        // typed while the save encodes and writes (some may come after it there).
        let lock = try DocumentLock.acquire(path, timeout: 10)
        let saving = Task { try await container.save() }
        // Counted, so that the save's snapshot is known to be taken before the first edit.
        try #require(await StackFixtures.yield(until: { container.savesBegun > 0 }))
        var during = 0
        var slowest = Duration.zero
        let editStart = clock.now
        for i in 0 ..< 1_000 {
            if i == 500 { lock.release() }
            let start = clock.now
            try StackFixtures.insert("typed \(i)", under: root, in: context)
            slowest = max(slowest, clock.now - start)
            if container.saveState == .saving { during += 1 }
        }
        let editing = clock.now - editStart
        try await saving.value
        let saveTime = clock.now - saveStart
        print("typing while saving \(items) items: 1,000 edits in \(editing) (slowest \(slowest)), \(during) during the save, which took \(saveTime)")

        #expect(during >= 500)
        #expect(context.insertedObjects.count == 1_000, "every edit made during the save is still unsaved")
        var texts = try StackFixtures.texts(at: path)
        #expect(texts.count == items + 1 && texts.contains("before the save"))
        #expect(!texts.contains { $0.hasPrefix("typed ") }, "the save holds none of them")

        try await container.save()
        #expect(!container.hasChanges)
        texts = try StackFixtures.texts(at: path)
        #expect(texts.count == items + 1_001)
        let typed = texts.filter { $0.hasPrefix("typed ") }
        #expect(typed.count == 1_000 && Set(typed).count == 1_000, "each edit once")
        try await container.close()
    }
}
