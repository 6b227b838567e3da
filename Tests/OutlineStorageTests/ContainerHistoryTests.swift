import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// A document container and the undo history the document keeps: undo reaches the steps other
/// programs saved, saves keep them under the session's, and reloading takes another program's.
@Suite(.timeLimit(.minutes(5))) @MainActor struct ContainerHistoryTests {
    /// A document at `path` with three named steps (a note set on A, B, C), and the context that made them.
    private func threeSteps(at path: String) throws -> EditingContext {
        let base = try HistoryScenarios.base()
        for (i, name) in ["A", "B", "C"].enumerated() {
            try base.context.perform("Note \(i + 1)") {
                try base.context.setValue(.string("note \(i + 1)"), forKey: "note", of: base[name])
            }
        }
        let store = PersistentStore(context: base.context, format: .binary)
        store.keepsHistory = true
        try store.save(to: path, format: .binary)
        return base.context
    }

    /// Runs `body` with the three-step document at `path` in a temporary folder, removed after.
    private func withDocument(_ body: @MainActor (_ path: String, _ original: EditingContext) async throws -> Void) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/h.outline"
        try await body(path, try threeSteps(at: path))
    }

    private func retitle(_ context: EditingContext, _ title: String) throws {
        let item = try #require(context.object(with: ObjectID(104)))
        try context.perform("Retitle") { try context.setValue(.string(title), forKey: "title", of: item) }
    }

    /// The undo steps of the document at `path`, as a program that takes them all over sees them.
    private func savedSteps(_ path: String) throws -> [String?] {
        let store = try PersistentStore.load(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(store.restoreHistory() == .restored)
        return store.context.undoStepNames
    }

    private func options(_ use: DocumentContainer.UndoHistoryUse) -> DocumentContainer.Options {
        DocumentContainer.Options(externalChangeInterval: nil, undoHistory: use)
    }

    @Test func undoReachesTheDocumentsStepsAndSavesKeepThem() async throws {
        try await withDocument { path, original in
            let container = try await DocumentContainer.open(path, options: options(.takeOver(changes: 100_000)))
            #expect(container.context.undoStepNames == ["Note 1", "Note 2", "Note 3"])
            #expect(!container.hasChanges && container.olderUndoStepCount == 0)
            container.context.undo()
            original.undo()
            #expect(GraphState(container.context.graph) == GraphState(original.graph))
            try retitle(container.context, "renamed")
            try await container.save()
            #expect(try savedSteps(path) == ["Note 1", "Note 2", "Retitle"])
            try await container.close()
        }
    }

    @Test func theDefaultTakesTheStepsOver() {
        #expect(DocumentContainer.Options().undoHistory == .takeOver(changes: 100_000))
    }

    @Test func aBudgetGivesTheNearestStepsAndSavesKeepTheOthersBelow() async throws {
        try await withDocument { path, _ in
            // Each step holds one change: a budget of two gives the two nearest.
            let container = try await DocumentContainer.open(path, options: options(.takeOver(changes: 2)))
            #expect(container.context.undoStepNames == ["Note 2", "Note 3"])
            #expect(container.olderUndoStepCount == 1)
            try retitle(container.context, "renamed")
            #expect(container.olderUndoStepCount == 1)
            try await container.save()
            #expect(try savedSteps(path) == ["Note 1", "Note 2", "Note 3", "Retitle"])
            try await container.close()
        }
    }

    @Test func carryingKeepsTheStepsForTheSavesOnly() async throws {
        try await withDocument { path, _ in
            let container = try await DocumentContainer.open(path, options: options(.carry))
            #expect(!container.context.canUndo)
            try retitle(container.context, "renamed")
            try await container.save()
            #expect(try savedSteps(path) == ["Note 1", "Note 2", "Note 3", "Retitle"])
            try await container.close()
        }
    }

    @Test func droppingSavesNoHistory() async throws {
        try await withDocument { path, _ in
            let container = try await DocumentContainer.open(path, options: options(.drop))
            #expect(!container.context.canUndo)
            try retitle(container.context, "renamed")
            try await container.save()
            let store = try PersistentStore.load(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(store.restoreHistory() == .none)
            try await container.close()
        }
    }

    @Test func reloadingTakesTheHistoryTheOtherProgramWrote() async throws {
        try await withDocument { path, _ in
            let container = try await DocumentContainer.open(path, options: options(.takeOver(changes: 100_000)))
            // Another program adds a step to the file.
            let other = try PersistentStore.load(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(other.carryHistory() == .carried)
            try retitle(other.context, "elsewhere")
            try other.save(to: path, format: .binary)
            try await container.reload()
            #expect(container.context.undoStepNames == ["Note 1", "Note 2", "Note 3", "Retitle"])
            container.context.undo()
            let item = try #require(container.context.object(with: ObjectID(104)))
            #expect(try container.context.value(forKey: "title", of: item) != .string("elsewhere"))
            try await container.close()
        }
    }
}
