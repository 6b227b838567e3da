import OutlineEngine
import OutlineKit

/// Structural checks of a loaded object graph that go beyond the model's per-object rules:
/// inverse relationships that mirror each other, and for outline-shaped entities one root,
/// no cycles in parent chains and siblings' `order` 0…n-1.
///
/// Every check walks the graph iteratively (no recursion, any depth) in O(objects + links).
public enum GraphChecks {
    /// How many objects a problem lists by id before "and N more".
    static let listedObjects = 5

    // MARK: Inverses

    /// Every link whose inverse does not point back, per inverse pair of the schema.
    public static func inverses(_ graph: ObjectGraph) -> [ValidationReport.Problem] {
        graph.inverseMismatches(examples: listedObjects).map { mismatch in
            let shown = mismatch.examples.map { "\($0.owner) -> \($0.target)" }.joined(separator: ", ")
            let more = mismatch.count > listedObjects ? " and \(mismatch.count - listedObjects) more" : ""
            let count = mismatch.count
            return ValidationReport.Problem(
                at: mismatch.relationship,
                "\(count) \(count == 1 ? "link" : "links") of \(mismatch.relationship) \(count == 1 ? "has" : "have") no matching link in \(mismatch.inverse) (\(shown)\(more))",
                hint: "The two sides of a relationship must mirror each other; restore the file from a backup.")
        }
    }

    // MARK: Trees

    /// One root, no cycles in parent chains, and (with `order`) siblings numbered 0…n-1.
    public static func tree(_ graph: ObjectGraph, shape: TreeShape) -> [ValidationReport.Problem] {
        tree(graph, shape: shape, limit: .max).problems
    }

    /// The first `limit` problems of ``tree(_:shape:)`` and how many there are in all, so that
    /// a graph with millions of bad objects takes no more memory than `limit` messages.
    public static func tree(_ graph: ObjectGraph, shape: TreeShape, limit: Int) -> (problems: [ValidationReport.Problem], count: Int) {
        let schema = graph.schema
        let name = schema.entities[shape.entity].name
        let objects = graph.objects(ofEntity: shape.entity)
        var problems = ProblemList(limit: limit)
        func ids(_ list: [ManagedObject]) -> String {
            let shown = list.prefix(listedObjects).map { graph.objectID(of: $0).description }.joined(separator: ", ")
            return shown + (list.count > listedObjects ? " and \(list.count - listedObjects) more" : "")
        }

        let roots = objects.filter { graph.relatedObject(of: $0, shape.parent) == nil }
        if roots.count > 1 {
            problems.add(
                ValidationReport.Problem(
                    at: name, "\(roots.count) items have no parent (\(ids(roots))); an outline has exactly one root",
                    hint: "Move the extra top-level items under the root, or restore the file from a backup."))
        }

        for cycle in shape.parentCycles(in: graph, among: objects) {
            problems.add(
                ValidationReport.Problem(
                    at: "\(name) \(graph.objectID(of: cycle[0])).parent",
                    "\(cycle.count) \(cycle.count == 1 ? "item is its own parent" : "items are each other's ancestors") (\(ids(cycle))); parent chains must end at the root",
                    hint: "Restore the file from a backup."))
        }

        if let order = shape.order {
            for parent in objects {
                let kids = graph.relatedObjects(of: parent, shape.children)
                guard !kids.isEmpty else { continue }
                let orders = kids.map { graph.attributeValue(of: $0, order)?.integerValue }
                // Nil first, then the numbers: a negative order is a number like any other.
                let sorted = orders.sorted { ($0 == nil ? 0 : 1, $0 ?? 0) < ($1 == nil ? 0 : 1, $1 ?? 0) }
                guard sorted.enumerated().contains(where: { $0.element != Int64($0.offset) }) else { continue }
                let shown = sorted.prefix(8).map { $0.map(String.init) ?? "nil" }.joined(separator: ", ") + (sorted.count > 8 ? ", …" : "")
                problems.add(
                    ValidationReport.Problem(
                        at: "\(name) \(graph.objectID(of: parent)).children",
                        "the \(kids.count) children have orders \(shown); siblings must be numbered 0…\(kids.count - 1)",
                        hint: "Until it is fixed the items are shown in the order of these numbers; restore the file from a backup."))
            }
        }
        return (problems.listed, problems.count)
    }
}

/// Problems as they are found: the first `limit` kept, all of them counted.
struct ProblemList {
    let limit: Int
    private(set) var listed: [ValidationReport.Problem] = []
    private(set) var count = 0

    init(limit: Int) { self.limit = limit }

    /// Counts a problem; `make` runs only while fewer than `limit` are kept.
    mutating func add(_ make: @autoclosure () -> ValidationReport.Problem) {
        count += 1
        if listed.count < limit { listed.append(make()) }
    }
}
