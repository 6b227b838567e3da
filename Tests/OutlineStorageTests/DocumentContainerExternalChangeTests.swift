import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// Another program changes the file: the container reloads when it has no unsaved changes,
/// and otherwise says so and lets the caller choose.
@Suite(.timeLimit(.minutes(2))) @MainActor struct DocumentContainerExternalChangeTests {
    /// Another program's edit: open the file on its own, add an item, save.
    static func editElsewhere(_ path: String, adding text: String) throws {
        let store = try PersistentStore.open(path)
        try StackFixtures.insert(text, under: StackFixtures.root(of: store.context), in: store.context)
        try store.save()
    }

    static func texts(_ container: DocumentContainer) -> [String] {
        let shape = StackFixtures.Shape(container.schema)
        let context = container.context
        return context.graph.objects(ofEntity: shape.item).compactMap { context.attributeValue(of: $0, shape.text)?.stringValue }
    }

    @Test func withoutLocalChangesTheFileIsReadAgain() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        var events = container.events.makeAsyncIterator()
        var reasons: [ChangeReason] = []
        container.context.addChangeObserver { reasons.append($0.reason) }
        await container.checkForExternalChanges()
        try Self.editElsewhere(path, adding: "from elsewhere")
        await container.checkForExternalChanges()
        #expect(await events.next() == .reloaded)
        #expect(reasons == [.reload])
        #expect(Self.texts(container).contains("from elsewhere") && !container.hasChanges)
        // Saving afterwards is no conflict, and keeps the other program's item.
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        try await container.save()
        #expect(try StackFixtures.texts(at: path).filter { $0 == "from elsewhere" || $0 == "mine" }.count == 2)
        try await container.close()
    }

    @Test func withLocalChangesTheCallerIsToldAndChooses() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        var events = container.events.makeAsyncIterator()
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        try Self.editElsewhere(path, adding: "theirs")
        await container.checkForExternalChanges()
        #expect(await events.next() == .externalChange)
        #expect(Self.texts(container).contains("mine") && !Self.texts(container).contains("theirs"), "nothing reloaded")
        await container.checkForExternalChanges()
        let error = await #expect(throws: StorageError.self) { try await container.save() }
        #expect(error?.code == .conflict)
        #expect(await events.next() == .saveFailed(error!), "reported once, then the save's failure")
        // Keeping mine: the next save replaces their version.
        await container.keepLocalChanges()
        try await container.save()
        let saved = try StackFixtures.texts(at: path)
        #expect(saved.contains("mine") && !saved.contains("theirs"))
        try await container.close()
    }

    /// A line still being typed in an editor is not in the context yet, but it is an edit all
    /// the same: the change is reported, not read over it.
    @Test func pendingEditsOfTheProgramAreAskedAboutLikeUnsavedChanges() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(10, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        var events = container.events.makeAsyncIterator()
        var typing = true
        container.hasPendingEdits = { typing }
        try Self.editElsewhere(path, adding: "theirs")
        await container.checkForExternalChanges()
        #expect(await events.next() == .externalChange)
        #expect(!Self.texts(container).contains("theirs"), "nothing reloaded")
        // Once the line is given up, the next change of the file is read at once.
        typing = false
        try Self.editElsewhere(path, adding: "theirs again")
        await container.checkForExternalChanges()
        #expect(await events.next() == .reloaded)
        #expect(Self.texts(container).contains("theirs again"))
        try await container.close()
    }

    /// Keeping the local edits, then undoing them all, still leaves something to save: the
    /// file holds the other program's version, which the screen never showed.
    @Test func keptLocalChangesUndoneStillReplaceTheOtherVersionAtTheNextSave() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(10, in: folder)
        let original = try StackFixtures.texts(at: path)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        var events = container.events.makeAsyncIterator()
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        try Self.editElsewhere(path, adding: "theirs")
        await container.checkForExternalChanges()
        #expect(await events.next() == .externalChange)
        await container.keepLocalChanges()
        container.context.undo()
        #expect(container.hasChanges && container.saveState == .unsaved, "not saved: the file still holds theirs")
        try await container.save()
        #expect(!container.hasChanges)
        #expect(try StackFixtures.texts(at: path).sorted() == original.sorted(), "the session's version: neither mine nor theirs")
        try await container.close()
    }

    /// A recovery copy goes beside the file under a name nothing has, in the document's format,
    /// and leaves the file and the document's unsaved state alone.
    @Test(arguments: [DocumentFormat.binary, .xml])
    func aRecoveryCopyIsWrittenBesideTheFileWithoutReplacingAnything(format: DocumentFormat) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let ext = format == .xml ? "xml" : "outline"
        let path = try StackFixtures.document(10, in: folder, name: "doc.\(ext)", format: format)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        let taken = folder + "/doc.recovered.\(ext)"
        try Data("taken".utf8).write(to: URL(fileURLWithPath: taken))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let copy = try container.writeRecoveryCopy()
        #expect(copy == folder + "/doc.recovered.1.\(ext)")
        #expect(try StackFixtures.texts(at: copy).contains("mine"))
        #expect(DocumentFormat.detect([UInt8](try Data(contentsOf: URL(fileURLWithPath: copy)))) == format)
        #expect(try Data(contentsOf: URL(fileURLWithPath: taken)) == Data("taken".utf8), "nothing replaced")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(container.hasChanges && container.path == path)
        #expect(try container.writeRecoveryCopy() == folder + "/doc.recovered.2.\(ext)")

        // A folder that is gone: the copy cannot be written, and says so.
        removeFolder(folder)
        let error = #expect(throws: StorageError.self) { try container.writeRecoveryCopy() }
        #expect(error?.code == .unwritable)
        try? await container.close()
    }

    @Test func withLocalChangesReloadingTakesTheirVersion() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        try Self.editElsewhere(path, adding: "theirs")
        try await container.reload()
        #expect(Self.texts(container).contains("theirs") && !Self.texts(container).contains("mine"))
        #expect(!container.hasChanges && !container.context.canUndo)
        try await container.close()
    }

    @Test func theFileIsCheckedEveryIntervalAndOwnSavesAreNotChangesByOthers() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let clock = TestClock()
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: .seconds(1), clock: clock))
        var events = container.events.makeAsyncIterator()
        try StackFixtures.insert("mine", under: StackFixtures.root(of: container.context), in: container.context)
        try await container.save()
        #expect(await events.next() == .saved)
        for _ in 0 ..< 3 {
            #expect(await clock.waitForSleepers())
            clock.advance(by: .seconds(1))
        }
        try Self.editElsewhere(path, adding: "theirs")
        #expect(await clock.waitForSleepers())
        clock.advance(by: .seconds(1))
        #expect(await events.next() == .reloaded, "the first event after our own save is their change")
        #expect(Self.texts(container).contains("theirs"))
        try await container.close()
    }

    @Test func aReloadThatCannotReadTheFileChangesNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(100, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        var events = container.events.makeAsyncIterator()
        try Data("not a document".utf8).write(to: URL(fileURLWithPath: path))
        await container.checkForExternalChanges()
        guard case .reloadFailed(let error)? = await events.next() else {
            Issue.record("no reloadFailed event")
            return
        }
        #expect(error.code == .unknownFormat)
        #expect(container.context.graph.objectCount == 101)
        try await container.close()
    }
}
