import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Format strings kept from fuzzing the predicate parser (`Fuzz/`, `Fixtures/Fuzz/predicate/`),
/// parsed with the harness's arguments, given values for their variables as the harness does,
/// and evaluated on ``PredicateTestGraph`` from each entity under the harness's work limit:
/// each must work or throw an ``EngineError`` with a message; never crash, hang or throw
/// anything else.
@Suite struct PredicateFuzzRegressionTests {
    static let folder = PackagePaths.fixture("Fuzz/predicate")

    /// The arguments `Fuzz/Sources/FuzzPredicate` substitutes for placeholders (its objects
    /// are those of its own graph; here the test graph's).
    static let arguments: [FetchPredicate.Argument] = [
        "milk", 3, 2.5, true, nil, ["work", 1, 2.5], "text", "parent.text", "children", -7, 0,
        .value(.integer(.max)), .value(.double(.nan)), .object(ManagedObject(entity: PredicateTestGraph.item, row: 0)),
        .objects([ManagedObject(entity: PredicateTestGraph.item, row: 1), ManagedObject(entity: PredicateTestGraph.item, row: 2)]),
    ]

    /// The values the harness gives `$variables`, by the first letter of their name.
    static func variableValue(_ name: String) -> FetchPredicate.Argument {
        let choices: [FetchPredicate.Argument] = [
            1, "milk", .object(ManagedObject(entity: PredicateTestGraph.item, row: 0)), [1, 2], nil,
            .value(.integer(.min)), 2.5,
        ]
        return choices[Int(name.unicodeScalars.first?.value ?? 0) % choices.count]
    }

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
            var predicate = try FetchPredicate(format: format, arguments: Self.arguments(for: format))
            Self.worksOrFailsCleanly(name) { _ = try FetchPredicate(format: predicate.description) }
            let variables = predicate.variables
            if !variables.isEmpty {
                predicate = try predicate.substituting(Dictionary(uniqueKeysWithValues: variables.map { ($0, Self.variableValue($0)) }))
            }
            for entity in ["Item", "Tag", "Task"] {
                Self.worksOrFailsCleanly(name) {
                    let schema = graph.schema
                    let index = try #require(schema.entityIndex(named: entity))
                    let bound = try predicate.bound(to: schema, entity: index, indexOrdering: ["tags": "name", "items": "order"])
                    let objects = graph.labels.keys.filter { schema.infos[$0.entity].isKind(of: bound.entity) }.sorted()
                    _ = try bound.filter(objects, in: graph, workLimit: 200_000)
                }
            }
        }
    }
}
