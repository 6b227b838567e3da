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
        let schema = graph.schema
        let name = schema.entities[shape.entity].name
        let objects = graph.objects(ofEntity: shape.entity)
        var problems: [ValidationReport.Problem] = []
        func ids(_ list: [ManagedObject]) -> String {
            let shown = list.prefix(listedObjects).map { graph.objectID(of: $0).description }.joined(separator: ", ")
            return shown + (list.count > listedObjects ? " and \(list.count - listedObjects) more" : "")
        }

        let roots = objects.filter { graph.relatedObject(of: $0, shape.parent) == nil }
        if roots.count > 1 {
            problems.append(ValidationReport.Problem(
                at: name, "\(roots.count) items have no parent (\(ids(roots))); an outline has exactly one root",
                hint: "Move the extra top-level items under the root, or restore the file from a backup."))
        }

        for cycle in cycles(graph, objects, shape) {
            problems.append(ValidationReport.Problem(
                at: "\(name) \(graph.objectID(of: cycle[0])).parent",
                "\(cycle.count) \(cycle.count == 1 ? "item is its own parent" : "items are each other's ancestors") (\(ids(cycle))); parent chains must end at the root",
                hint: "Restore the file from a backup."))
        }

        if let order = shape.order {
            for parent in objects {
                let kids = graph.relatedObjects(of: parent, shape.children)
                guard !kids.isEmpty else { continue }
                let orders = kids.map { graph.attributeValue(of: $0, order)?.integerValue }
                let sorted = orders.map { $0 ?? -1 }.sorted()
                guard sorted.enumerated().contains(where: { Int64($0.offset) != $0.element }) else { continue }
                let shown = sorted.prefix(8).map { $0 < 0 ? "nil" : String($0) }.joined(separator: ", ") + (sorted.count > 8 ? ", …" : "")
                problems.append(ValidationReport.Problem(
                    at: "\(name) \(graph.objectID(of: parent)).children",
                    "the \(kids.count) children have orders \(shown); siblings must be numbered 0…\(kids.count - 1)",
                    hint: "Until it is fixed the items are shown in the order of these numbers; restore the file from a backup."))
            }
        }
        return problems
    }

    /// Each cycle of parent links once, its members in chain order starting at the lowest id.
    ///
    /// - Complexity: O(objects): every object is walked up to a visited one once.
    static func cycles(_ graph: ObjectGraph, _ objects: [ManagedObject], _ shape: TreeShape) -> [[ManagedObject]] {
        // Per entity, per row: 0 unvisited, 1 on the current chain, 2 finished.
        var rows = [Int](repeating: 0, count: graph.schema.entities.count)
        for object in objects { rows[object.entity] = max(rows[object.entity], object.row + 1) }
        var state = rows.map { [UInt8](repeating: 0, count: $0) }
        var found: [[ManagedObject]] = []
        for start in objects where state[start.entity][start.row] == 0 {
            var chain: [ManagedObject] = []
            var current: ManagedObject? = start
            while let object = current, object.row < state[object.entity].count, graph.contains(object) {
                switch state[object.entity][object.row] {
                case 0:
                    state[object.entity][object.row] = 1
                    chain.append(object)
                    current = graph.relatedObject(of: object, shape.parent)
                case 1:
                    // Back at an object of this walk: the chain from it on is a cycle.
                    if let first = chain.firstIndex(of: object) {
                        var cycle = Array(chain[first...])
                        if let lowest = cycle.indices.min(by: { graph.objectID(of: cycle[$0]) < graph.objectID(of: cycle[$1]) }) {
                            cycle = Array(cycle[lowest...] + cycle[..<lowest])
                        }
                        found.append(cycle)
                    }
                    current = nil
                default:
                    current = nil
                }
            }
            for object in chain { state[object.entity][object.row] = 2 }
        }
        return found
    }
}
