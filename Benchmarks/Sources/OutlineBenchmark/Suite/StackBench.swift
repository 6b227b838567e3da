import Dispatch
import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// The document stack measured the way an app uses it: from an actor that owns the container.
///
/// Each method does one measured run and returns its figure; the suite calls them through
/// ``SizeSuite/onActor(_:)`` from its synchronous code.
actor StackBench {
    /// How long `DocumentContainer.open` takes, from the call to the container ready to edit.
    func open(_ path: String, schema: Schema) async throws -> Double {
        let start = milliseconds()
        let container = try await DocumentContainer.open(path, model: .schema(schema))
        let elapsed = milliseconds() - start
        guard container.context.graph.objectCount > 0 else { throw BenchmarkError("stack.open-async opened an empty document") }
        try await container.close()
        return elapsed
    }

    /// What a background save costs the actor: the save's own time on the actor (the snapshot,
    /// recording the outcome), plus what `edits` text edits on items spread over the document
    /// cost more while the save holds its snapshot than the same edits did just before (the
    /// pages they copy). The document is opened once for all runs (``prepareSaveStall(_:schema:)``).
    func saveStall(edits: Int, seed: UInt64) async throws -> (stall: Double, onActor: Double, copying: Double, save: Double) {
        guard let container = stallContainer, let document = stallDocument else { throw BenchmarkError("the save-stall document is not open") }
        var random = SplitMix64(seed: seed)
        func editSomeItems(_ label: String) throws -> Double {
            let start = milliseconds()
            for i in 0 ..< edits {
                try document.setText("\(label) \(i)", of: stallItems[random.below(stallItems.count)])
            }
            return milliseconds() - start
        }
        let before = try editSomeItems("before")
        let saveStart = milliseconds()
        let saving = Task {
            _ = self
            try await container.save()
        }
        while container.saveState != .saving { await Task.yield() }
        let during = try editSomeItems("during")
        try await saving.value
        let save = milliseconds() - saveStart
        guard let timings = container.lastSaveTimings else { throw BenchmarkError("the save reported no timings") }
        let onActor = Double(timings.onActor.components.attoseconds) / 1e15 + Double(timings.onActor.components.seconds) * 1e3
        let copying = max(0, during - before)
        // The edits made during the save are saved by the next run's save.
        return (onActor + copying, onActor, copying, save)
    }

    private var stallContainer: DocumentContainer?
    private var stallDocument: OutlineDocument?
    private var stallItems: [ManagedObject] = []

    /// Opens the document the save-stall runs edit and save.
    func prepareSaveStall(_ path: String, schema: Schema) async throws {
        let container = try await DocumentContainer.open(path, model: .schema(schema), options: .init(externalChangeInterval: nil))
        let document = try OutlineDocument(context: container.context)
        stallItems = container.context.graph.objects(ofEntity: document.shape.item).filter { $0 != document.root }
        stallContainer = container
        stallDocument = document
    }

    func finishSaveStall() async throws {
        try await stallContainer?.close()
        stallContainer = nil
        stallDocument = nil
        stallItems = []
    }

    private var commitContainer: DocumentContainer?
    private var commitDocument: OutlineDocument?
    private var commitItems: [ManagedObject] = []

    /// Opens the document the child-commit runs commit into.
    func prepareChildCommit(_ path: String, schema: Schema) async throws {
        let container = try await DocumentContainer.open(path, model: .schema(schema), options: .init(externalChangeInterval: nil))
        let document = try OutlineDocument(context: container.context)
        commitItems = container.context.graph.objects(ofEntity: document.shape.item).filter { $0 != document.root }
        commitContainer = container
        commitDocument = document
    }

    /// Makes a scratch context, applies `edits` edits to it (600 ‰ texts, 300 ‰ new items under
    /// random items, 100 ‰ deleted leaves; not timed), and times their commit as one undo step;
    /// the commit is undone afterwards so that every run starts from the same document.
    func childCommit(edits: Int, seed: UInt64) throws -> Double {
        guard let container = commitContainer, let document = commitDocument else { throw BenchmarkError("the child-commit document is not open") }
        var random = SplitMix64(seed: seed)
        let scratch = container.makeScratchContext()
        let sheet = try OutlineDocument(context: scratch)
        var deleted = Set<ManagedObject>()
        var made = 0
        while made < edits {
            let item = commitItems[random.below(commitItems.count)]
            guard !deleted.contains(item) else { continue }
            switch made % 10 {
            case 0 ..< 6: try sheet.setText("edited \(made)", of: item)
            case 6 ..< 9: try sheet.insertItem("added \(made)", under: item)
            default:
                guard sheet.children(of: item).isEmpty else { continue }
                try sheet.deleteItem(item)
                deleted.insert(item)
            }
            made += 1
        }
        let start = milliseconds()
        let report = try document.commit(scratch, named: "Benchmark edits")
        let elapsed = milliseconds() - start
        guard report.conflicts.isEmpty else { throw BenchmarkError("the child commit met \(report.conflicts.count) conflicts") }
        container.context.undo()
        return elapsed
    }

    func finishChildCommit() async throws {
        commitContainer?.context.removeAllUndoSteps()
        try await commitContainer?.close()
        commitContainer = nil
        commitDocument = nil
        commitItems = []
    }
}

extension SizeSuite {
    /// Runs `body` (async, on the stack bench's actor) from the suite's synchronous code and
    /// waits for it on this thread, which is not one of the actor's.
    func onActor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        Task {
            do { outcome.value = .success(try await body()) } catch { outcome.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.value!.get()
    }

    /// `stack.open-async`, `stack.save-stall` and `stack.child-commit` (see Benchmarks/README.md).
    func measureStack(_ schema: Schema, paths: Paths, into samples: inout [String: Sample]) throws {
        let bench = StackBench()
        // Timed by the bench itself, on its actor: from the call to the container ready to edit.
        var opens: [Double] = []
        for run in 0 ..< measurer.warmups + measurer.runs {
            let elapsed = try onActor { try await bench.open(paths.binary, schema: schema) }
            if run >= measurer.warmups { opens.append(elapsed) }
        }
        samples["stack.open-async"] = measurer.record("stack.open-async", Sample(runs: opens))
        try FileManager.default.copyItem(atPath: paths.binary, toPath: paths.stack)
        try onActor { try await bench.prepareSaveStall(paths.stack, schema: schema) }
        var stalls: [Double] = []
        var actorTimes: [Double] = []
        var copying: [Double] = []
        for run in 0 ..< measurer.warmups + measurer.runs {
            let figures = try onActor { try await bench.saveStall(edits: 100, seed: seed &+ UInt64(run)) }
            guard run >= measurer.warmups else { continue }
            stalls.append(figures.stall)
            actorTimes.append(figures.onActor)
            copying.append(figures.copying)
        }
        try onActor { try await bench.finishSaveStall() }
        samples["stack.save-stall"] = measurer.record("stack.save-stall (snapshot + 100 edits' copies)", Sample(runs: stalls))
        samples["phase.stack-save.on-actor"] = measurer.record("  the save on the actor", Sample(runs: actorTimes))
        samples["phase.stack-save.page-copies"] = measurer.record("  100 edits during it, extra", Sample(runs: copying))

        try onActor { try await bench.prepareChildCommit(paths.binary, schema: schema) }
        var commits: [Double] = []
        for run in 0 ..< measurer.warmups + measurer.runs {
            let elapsed = try onActor { try await bench.childCommit(edits: 1_000, seed: seed &+ 100 &+ UInt64(run)) }
            if run >= measurer.warmups { commits.append(elapsed) }
        }
        try onActor { try await bench.finishChildCommit() }
        samples["stack.child-commit"] = measurer.record("stack.child-commit (1,000 edits)", Sample(runs: commits))
    }
}

/// The result of a task, handed to the thread waiting for it.
// @unchecked Sendable: `value` is written once by the task before it signals the semaphore
// and read by the waiting thread only after the wait returns.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    var value: Result<T, any Error>?
}
