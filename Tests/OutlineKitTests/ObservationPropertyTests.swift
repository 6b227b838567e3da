import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Random edit sequences over random outlines: every batch a results controller or the visible
/// rows deliver, applied to a copy of the rows before it, must give what a fresh fetch or a
/// fresh flattening gives, after every step.
@Suite struct ObservationPropertyTests {
    /// Sequences per argument (three arguments), and steps per sequence;
    /// `OUTLINE_OBSERVE_SEQUENCES=N` runs N sequences per argument.
    static let sequences = ProcessInfo.processInfo.environment["OUTLINE_OBSERVE_SEQUENCES"].flatMap { Int($0) } ?? 150
    static let steps = 24

    @Test(arguments: 0 ..< 3)
    func everyBatchAppliedGivesTheFreshResults(slice: Int) throws {
        for sequence in 0 ..< Self.sequences {
            let seed = UInt64(slice * Self.sequences + sequence)
            guard try run(seed: seed) else { return }
        }
    }

    /// Runs one sequence; false (with an issue recorded) at the first mismatch.
    func run(seed: UInt64) throws -> Bool {
        var random = SeededRandom(seed: seed)
        let document = try SampleOutlines.emptyDocument()
        let editor = RandomOutlineEditor(document: document)
        try editor.grow(count: random.next(upTo: 25) + 3, random: &random)
        document.context.markSaved()

        let observed = try ObservedOutline(document: document, parent: editor.someItem(&random, includingRoot: true))
        for step in 0 ..< Self.steps {
            let before = VisibleRows.flatten(document)
            var batches: [VisibleRowsBatch] = []
            let token = observed.visible.onChange { batches.append($0) }
            let what = try editor.step(&random)
            observed.visible.cancel(token)
            if let problem = try observed.mismatch() {
                Issue.record(
                    "seed \(seed), step \(step) (\(what)): \(problem)\nbefore \(before.map { "\($0.item.row)@\($0.depth)" })\n\(batches.map(\.changes))"
                )
                return false
            }
        }
        return true
    }
}

/// The observers under test over one document, each with the rows its batches built.
final class ObservedOutline {
    let document: OutlineDocument
    let visible: VisibleRows
    var shownRows: [VisibleRow]
    let children: ResultsController
    var shownChildren: [[ManagedObject]]
    let sectioned: ResultsController
    var shownSectioned: [[ManagedObject]]
    let filtered: ResultsController
    var shownFiltered: [[ManagedObject]]
    let childrenRequest: FetchRequest
    let sectionedRequest: FetchRequest
    let filteredRequest: FetchRequest

    init(document: OutlineDocument, parent: ManagedObject) throws {
        self.document = document
        let context = document.context
        visible = VisibleRows(document: document)
        shownRows = visible.rows
        var request = try FetchRequest(entityName: "Item", format: "parent == %@", .object(parent))
        request.sortDescriptors = [FetchSortDescriptor("order")]
        childrenRequest = request
        children = try ResultsController(context: context, request: request)
        shownChildren = children.sectionedObjects
        // Sections by done state, rows by text then order; the expected rows are a fetch
        // sorted by done first.
        sectionedRequest = FetchRequest(
            entityName: "Item",
            sortDescriptors: [FetchSortDescriptor("done"), FetchSortDescriptor("text"), FetchSortDescriptor("order", ascending: false)])
        sectioned = try ResultsController(
            context: context,
            request: FetchRequest(
                entityName: "Item", sortDescriptors: [FetchSortDescriptor("text"), FetchSortDescriptor("order", ascending: false)]),
            sectionKeyPath: "done")
        shownSectioned = sectioned.sectionedObjects
        filteredRequest = try FetchRequest(entityName: "Item", format: "text BEGINSWITH %@ OR collapsed == YES", .value(.string("b")))
        var sortedFiltered = filteredRequest
        sortedFiltered.sortDescriptors = [FetchSortDescriptor("text", ascending: false)]
        filtered = try ResultsController(context: context, request: sortedFiltered)
        shownFiltered = filtered.sectionedObjects
        visible.onChange { [unowned self] batch in batch.apply(to: &self.shownRows) }
        children.onChange { [unowned self] batch in batch.apply(to: &self.shownChildren) }
        sectioned.onChange { [unowned self] batch in batch.apply(to: &self.shownSectioned) }
        filtered.onChange { [unowned self] batch in batch.apply(to: &self.shownFiltered) }
    }

    /// What differs from a fresh fetch or flattening, or nil.
    func mismatch() throws -> String? {
        let context = document.context
        // The rows of the outline as a fresh reading finds it (after a reload, under the root
        // it has now).
        let fresh = VisibleRows.flatten(try OutlineDocument(context: context))
        func show(_ rows: [VisibleRow]) -> String {
            rows.map {
                "\(String(repeating: ".", count: $0.depth))\(document.text(of: $0.item) ?? "")\($0.item.row)\($0.isCollapsed ? "+" : "")\($0.hasChildren ? "" : "0")"
            }.joined(separator: " ")
        }
        if visible.rows != fresh { return "visible rows kept differ from a fresh flattening:\n\(show(visible.rows))\n\(show(fresh))" }
        if shownRows != fresh { return "visible rows from batches differ from a fresh flattening:\n\(show(shownRows))\n\(show(fresh))" }
        let kids = try context.fetch(childrenRequest)
        if shownChildren != [kids] || children.sectionedObjects != [kids] {
            return "children from batches \(shownChildren) differ from a fetch \(kids)"
        }
        var sortedFiltered = filteredRequest
        sortedFiltered.sortDescriptors = [FetchSortDescriptor("text", ascending: false)]
        let matching = try context.fetch(sortedFiltered)
        if shownFiltered != [matching] || filtered.sectionedObjects != [matching] { return "filtered rows from batches differ from a fetch" }
        var groups: [[ManagedObject]] = []
        var lastDone: Value??
        for object in try context.fetch(sectionedRequest) {
            let done = try context.value(forKey: "done", of: object)
            if groups.isEmpty || lastDone != .some(done) { groups.append([]) }
            groups[groups.count - 1].append(object)
            lastDone = done
        }
        if shownSectioned != groups || sectioned.sectionedObjects != groups { return "sectioned rows from batches differ from a fetch" }
        for (index, row) in fresh.enumerated() where index % 7 == 0 {
            if visible.index(of: row.item) != index { return "index(of:) of row \(index) is wrong" }
        }
        return nil
    }
}

/// SplitMix64: a small seeded generator.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { next(upTo: 100) < percent }
}
