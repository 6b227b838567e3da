import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// Autosave after a quiet period and on close, on a clock the tests move.
@Suite(.timeLimit(.minutes(2))) @MainActor struct DocumentContainerAutosaveTests {
    static func open(_ path: String, clock: TestClock, quiet: Duration = .seconds(2)) async throws -> DocumentContainer {
        try await DocumentContainer.open(path, options: .init(autosave: .init(quietPeriod: quiet), externalChangeInterval: nil, clock: clock))
    }

    @Test func changesAreSavedOnceEditingPausesForTheQuietPeriod() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let clock = TestClock()
        let container = try await Self.open(path, clock: clock)
        var events = container.events.makeAsyncIterator()
        let root = StackFixtures.root(of: container.context)
        try StackFixtures.insert("first", under: root, in: container.context)
        #expect(await clock.waitForSleepers())
        clock.advance(by: .seconds(1))
        try StackFixtures.insert("second", under: root, in: container.context)
        clock.advance(by: .seconds(1))
        // Two seconds after the first edit, but only one after the second: still waiting.
        #expect(await clock.waitForSleepers())
        #expect(try container.hasChanges && !StackFixtures.texts(at: path).contains("first"))
        clock.advance(by: .seconds(2))
        #expect(await events.next() == .saved)
        #expect(!container.hasChanges)
        let texts = try StackFixtures.texts(at: path)
        #expect(texts.contains("first") && texts.contains("second"))
        try await container.close()
    }

    @Test func autosaveNeverWritesInvalidObjectsAndEditingGoesOn() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let clock = TestClock()
        let container = try await Self.open(path, clock: clock)
        var events = container.events.makeAsyncIterator()
        let context = container.context
        let shape = StackFixtures.Shape(context.schema)
        let item = try StackFixtures.insert("invalid", under: StackFixtures.root(of: context), in: context)
        try context.setAttribute(nil, shape.order, of: item)
        #expect(await clock.waitForSleepers())
        clock.advance(by: .seconds(2))
        guard case .saveFailed(let error)? = await events.next() else {
            Issue.record("the autosave did not fail")
            return
        }
        #expect(error.code == .validationFailed)
        #expect(error.description.contains("Item z"), "\(error)")
        #expect(container.saveState == .failed(error) && container.hasChanges)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "nothing was written")
        // Editing goes on; the fix is saved after the next quiet period.
        try context.setAttribute(.integer(0), shape.order, of: item)
        #expect(await clock.waitForSleepers())
        clock.advance(by: .seconds(2))
        #expect(await events.next() == .saved)
        #expect(container.saveState == .saved)
        #expect(try StackFixtures.texts(at: path).contains("invalid"))
        try await container.close()
    }

    @Test func closingSavesWhatIsLeft() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let clock = TestClock()
        let container = try await Self.open(path, clock: clock, quiet: .seconds(60))
        try StackFixtures.insert("at close", under: StackFixtures.root(of: container.context), in: container.context)
        try await container.close()
        #expect(container.isClosed && !container.hasChanges)
        #expect(try StackFixtures.texts(at: path).contains("at close"))
    }

    @Test func withoutAutosaveClosingKeepsTheFileAsItWas() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        try StackFixtures.insert("dropped", under: StackFixtures.root(of: container.context), in: container.context)
        try await container.close()
        #expect(container.hasChanges)
        #expect(try !StackFixtures.texts(at: path).contains("dropped"))
    }
}
