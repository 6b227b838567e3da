import Foundation
import FuzzSupport
import OutlineEngine

// Predicate format strings (the bytes as UTF-8, invalid sequences replaced) through
// `FetchPredicate(format:arguments:)` with one argument per `%` from a fixed list (objects of
// the graph among them), then with values substituted for its `$variables`, then fetched
// against a small object graph through `EditingContext.fetch`, as `outline find` and
// `OutlineDocument.find` do, from each entity, with a small work limit so that key paths
// through to-many relationships, SUBQUERYs and MATCHES patterns meet their budgets (an
// EngineError) within the run's timeout; a predicate that parses also has its description
// parsed.

let fixedArguments: [FetchPredicate.Argument] = [
    "milk", 3, 2.5, true, nil, ["work", 1, 2.5], "text", "parent.text", "children", -7, 0,
    .value(.integer(.max)), .value(.double(.nan)), .object(graph.root), .objects(graph.children),
]

/// The values `$variables` take, by the first letter of their name.
func variableValue(_ name: String) -> FetchPredicate.Argument {
    let choices: [FetchPredicate.Argument] = [1, "milk", .object(graph.root), [1, 2], nil, .value(.integer(.min)), 2.5]
    return choices[Int(name.unicodeScalars.first?.value ?? 0) % choices.count]
}

/// The work each fetch may do: enough for every predicate of the tests on this graph, small
/// enough that a predicate that multiplies its work fails in milliseconds.
let workLimit = 200_000

/// As many arguments as `format` has `%` signs (the parser wants one per placeholder), taken
/// from ``fixedArguments`` in turn.
func arguments(for format: String) -> [FetchPredicate.Argument] {
    let count = format.utf8.count(where: { $0 == UInt8(ascii: "%") })
    return (0 ..< count).map { fixedArguments[$0 % fixedArguments.count] }
}

/// Items with a parent, ordered children and tags, as in the engine's predicate tests. libFuzzer runs
/// one input at a time on one thread, and fetching does not change the context.
nonisolated(unsafe) let graph: (context: EditingContext, root: ManagedObject, children: [ManagedObject]) = {
    do {
        let schema = try Schema(entities: [
            Entity(
                name: "Item",
                attributes: [
                    Attribute(name: "text", type: .string),
                    Attribute(name: "order", type: .integer64),
                    Attribute(name: "done", type: .boolean),
                    Attribute(name: "created", type: .date),
                    Attribute(name: "score", type: .double),
                    Attribute(name: "price", type: .decimal),
                    Attribute(name: "uid", type: .uuid),
                    Attribute(name: "blob", type: .binary),
                ],
                relationships: [
                    Relationship(name: "parent", destination: "Item", inverse: "children"),
                    Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, isOrdered: true),
                    Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                ]),
            Entity(
                name: "Tag", attributes: [Attribute(name: "name", type: .string)],
                relationships: [
                    Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true)
                ]),
            Entity(name: "Task", parent: "Item", attributes: [Attribute(name: "priority", type: .integer16)]),
        ])
        let context = EditingContext(schema: schema)
        let work = try context.insert("Tag")
        try context.setValue(.string("work"), forKey: "name", of: work)
        _ = try context.insert("Tag")
        let root = try context.insert("Item")
        try context.setValue(.string("Buy milk"), forKey: "text", of: root)
        try context.setValue(.integer(1), forKey: "order", of: root)
        try context.setValue(.boolean(false), forKey: "done", of: root)
        try context.setValue(.date(Date(timeIntervalSinceReferenceDate: 700_000_000)), forKey: "created", of: root)
        try context.setValue(.double(1.5), forKey: "score", of: root)
        try context.setValue(.decimal(Decimal(string: "2.50")!), forKey: "price", of: root)
        try context.setValue(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), forKey: "uid", of: root)
        try context.setValue(.binary(Data([1, 2, 3])), forKey: "blob", of: root)
        try context.add(work, toKey: "tags", of: root)
        var children: [ManagedObject] = []
        for (index, text) in ["Crème Brûlée", "café", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"].enumerated() {
            let child = try context.insert(index == 2 ? "Task" : "Item")
            try context.setValue(.string(text), forKey: "text", of: child)
            try context.setValue(.integer(Int64(index * 7 - 5)), forKey: "order", of: child)
            try context.setObject(root, forKey: "parent", of: child)
            try context.add(work, toKey: "tags", of: child)
            children.append(child)
        }
        let grandchild = try context.insert("Item")
        try context.setValue(.string("e\u{301}\r\n"), forKey: "text", of: grandchild)
        try context.setObject(children[0], forKey: "parent", of: grandchild)
        _ = try context.insert("Item")
        return (context, root, children)
    } catch {
        fatalError("cannot build the predicate graph: \(error)")
    }
}()

/// One input; see the comment at the top.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let format = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    Expect.moduleErrorsOnly("FetchPredicate(format:)") {
        var predicate = try FetchPredicate(format: format, arguments: arguments(for: format))
        Expect.moduleErrorsOnly("FetchPredicate(format: description)") {
            _ = try FetchPredicate(format: predicate.description)
        }
        let variables = predicate.variables
        if !variables.isEmpty {
            predicate = try predicate.substituting(Dictionary(uniqueKeysWithValues: variables.map { ($0, variableValue($0)) }))
        }
        for entity in ["Item", "Tag", "Task"] {
            Expect.moduleErrorsOnly("EditingContext.fetch \(entity)") {
                var request = FetchRequest(entityName: entity, predicate: predicate, workLimit: workLimit)
                request.indexOrdering = ["tags": "name", "items": "order"]
                _ = try graph.context.fetch(request)
            }
        }
    }
    return 0
}

/// Hands `fuzzPredicate` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzPredicate) }
