import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// The fetch a list view of children makes (`parent == %@` with an object, sorted by `order`)
/// through the container's context and through a scratch context made from it.
@Suite(.timeLimit(.minutes(2))) @MainActor struct DocumentContainerFetchTests {
    static func children(of parent: ManagedObject, in context: EditingContext) throws -> [String] {
        let request = FetchRequest(
            entityName: "Item", predicate: try FetchPredicate(format: "parent == %@", arguments: [.object(parent)]),
            sortDescriptors: [FetchSortDescriptor("order")])
        return try context.fetch(request).map { try context.value(forKey: "text", of: $0)?.stringValue ?? "-" }
    }

    @Test func theChildrenOfAnObjectAreFetchedWithTheObjectAsArgument() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = try StackFixtures.document(25, in: folder)
        let container = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        let context = container.context
        let root = StackFixtures.root(of: context)
        #expect(try Self.children(of: root, in: context) == (1 ... 10).map { "item \($0)" })
        let second = try #require(try context.fetch(FetchRequest(entityName: "Item", format: "text == %@", "item 2")).first)
        #expect(try Self.children(of: second, in: context) == (21 ... 25).map { "item \($0)" })

        // An unsaved insertion is found at once; a scratch context sees its own until it commits.
        try StackFixtures.insert("typed", under: second, in: context)
        #expect(try Self.children(of: second, in: context).last == "typed")
        let scratch = container.makeScratchContext()
        try StackFixtures.insert("from the sheet", under: second, in: scratch)
        #expect(try Self.children(of: second, in: scratch).suffix(2) == ["typed", "from the sheet"])
        #expect(try Self.children(of: second, in: context).last == "typed")
        let report = try scratch.commit(named: "Sheet")
        #expect(report.conflicts.isEmpty)
        #expect(try Self.children(of: second, in: context).suffix(2) == ["typed", "from the sheet"])

        // After a background save and a fresh open, the same fetch finds the same children.
        try await container.save()
        try await container.close()
        let reopened = try await DocumentContainer.open(path, options: .init(externalChangeInterval: nil))
        let again = try #require(try reopened.context.fetch(FetchRequest(entityName: "Item", format: "text == %@", "item 2")).first)
        #expect(try Self.children(of: again, in: reopened.context) == (21 ... 25).map { "item \($0)" } + ["typed", "from the sheet"])
        try await reopened.close()
    }
}
