import Foundation
import Testing
@testable import OutlineEngine

/// Format strings kept from fuzzing the predicate parser (`Fuzz/`, `Fixtures/Fuzz/predicate/`),
/// parsed with the harness's arguments and evaluated on ``PredicateTestGraph`` from each entity:
/// each must work or throw an ``EngineError`` with a message; never crash, hang or throw
/// anything else.
@Suite struct PredicateFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures").appending(path: "Fuzz").appending(path: "predicate").standardizedFileURL

    /// The arguments `Fuzz/Sources/FuzzPredicate` substitutes for placeholders.
    static let arguments: [FetchPredicate.Argument] = [
        "milk", 3, 2.5, true, nil, ["work", 1, 2.5], "text", "parent.text", "children", -7, 0,
    ]

    /// One argument per `%` of `format`, from ``arguments`` in turn, as the harness passes them.
    static func arguments(for format: String) -> [FetchPredicate.Argument] {
        let count = format.utf8.count(where: { $0 == UInt8(ascii: "%") })
        return (0 ..< count).map { arguments[$0 % arguments.count] }
    }

    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// Runs `body`; an ``EngineError`` with a message is a pass, any other error a failure.
    static func worksOrFailsCleanly(_ name: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as EngineError {
            #expect(!error.message.isEmpty, "\(name): \(error.code) without a message")
        } catch {
            Issue.record("\(name): threw \(type(of: error)), not EngineError: \(error)")
        }
    }

    @Test func fuzzInputsAreKept() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func formatParsesAndEvaluatesOrFailsCleanly(_ name: String) throws {
        let format = String(decoding: try Data(contentsOf: Self.folder.appending(path: name)), as: UTF8.self)
        let graph = try PredicateTestGraph.make()
        Self.worksOrFailsCleanly(name) {
            let predicate = try FetchPredicate(format: format, arguments: Self.arguments(for: format))
            Self.worksOrFailsCleanly(name) { _ = try FetchPredicate(format: predicate.description) }
            for entity in ["Item", "Tag", "Task"] {
                Self.worksOrFailsCleanly(name) {
                    let bound = try predicate.bound(to: graph.schema, entityNamed: entity)
                    let objects = graph.labels.keys.filter { graph.schema.infos[$0.entity].isKind(of: bound.entity) }
                    _ = try bound.filter(objects, in: graph)
                }
            }
        }
    }
}
