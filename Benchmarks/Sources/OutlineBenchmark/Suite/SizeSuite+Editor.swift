import Dispatch
import Foundation
import OutlineEditor
import OutlineEngine
import OutlineKit
import OutlineStorage
import Synchronization

/// The full-screen editor (`outline edit FILE`, issue 15): `tui.open`, the time from nothing to
/// the first screen of the binary document (opened as the editor opens it, through the
/// document stack, then drawn into an off-screen buffer), and `tui.keystroke`, the time from a
/// key to the finished screen contents over a fixed mix of keys, each key one run.
extension SizeSuite {
    /// The editor's screen in the benchmark: a common terminal size.
    static let editorScreen = (width: 120, height: 40)

    /// Measures `tui.open` and `tui.keystroke` on the binary document.
    func measureEditor(_ paths: Paths, into samples: inout [String: Sample]) throws {
        let probe = EditorOpenProbe()
        samples["tui.open"] = try measurer.measure(
            "tui.open (stack open + first screen)",
            prepare: {
                try blocking { await probe.release() }
            },
            run: {
                let screen = try blocking { try await probe.open(paths.binary) }
                guard screen.line(0).contains("•") || screen.line(0).contains("▾") || screen.line(0).contains("▸") else {
                    throw BenchmarkError("the first screen shows no item: \(screen.line(0))")
                }
            })
        try blocking { await probe.release() }
        samples["tui.keystroke"] = try measureKeystrokes(paths)
    }

    /// Opens the document once, then times every key of ``keyMix`` (handling plus drawing the
    /// whole screen), round after round; the first round warms up and is not counted.
    private func measureKeystrokes(_ paths: Paths) throws -> Sample {
        let store = try PersistentStore.open(paths.binary, schema: try OutlineSchemas.current)
        let document = try OutlineDocument(context: store.context)
        let editor = OutlineEditor(document: document, options: EditorOptions(fileName: "bench.outline", formatName: "binary"))
        var screen = ScreenBuffer(width: Self.editorScreen.width, height: Self.editorScreen.height)
        editor.render(into: &screen)
        let keys = Self.keyMix
        let rounds = 60
        var times: [Double] = []
        times.reserveCapacity(keys.count * rounds)
        for round in 0 ... rounds {
            for key in keys {
                let start = milliseconds()
                _ = editor.handle(key)
                editor.render(into: &screen)
                if round > 0 { times.append(milliseconds() - start) }
            }
        }
        guard document.context.canUndo else { throw BenchmarkError("the key mix made no edit") }
        let sample = Sample(runs: times)
        log.line(
            "  " + "tui.keystroke (\(times.count) keys)".padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: "%10.3f ms  (p99 %.3f ms, slowest %.3f ms)", sample.median, sample.percentile(99), sample.slowest))
        return sample
    }

    /// One round of keys: navigation (arrows, vi keys, pages, top and bottom), collapse and
    /// expand, a new item typed, indent and outdent, moves, done, delete, undo and redo.
    static let keyMix: [EditorKey] = {
        var keys: [EditorKey] = [
            .down, .character("j"), .down, .character("l"), .down, .character("h"),
            .character("h"), .character("l"), .character("o"),
        ]
        keys += EditorKey.typing("New item ✓")
        keys += [
            .escape, .tab, .backTab, .character("J"), .character("K"), .character("x"),
            .character("u"), .control("r"), .character("d"), .character("d"), .character("u"),
            .pageDown, .pageUp, .up, .character("k"), .character("G"), .character("g"),
        ]
        return keys
    }()
}

extension Sample {
    /// The run at the `percent`th percentile (nearest rank).
    func percentile(_ percent: Double) -> Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}

/// Opens documents as `outline edit` does, on an actor of its own (the stack's container
/// belongs to its opener), and keeps the last one until released so that freeing it is not timed.
actor EditorOpenProbe {
    private var kept: (OutlineStack, OutlineEditor)?

    func open(_ path: String) async throws -> ScreenBuffer {
        let stack = try await OutlineStack.open(path, options: DocumentContainer.Options(externalChangeInterval: nil))
        let editor = OutlineEditor(document: stack.document, options: EditorOptions(fileName: "bench.outline", formatName: "binary"))
        var screen = ScreenBuffer(width: SizeSuite.editorScreen.width, height: SizeSuite.editorScreen.height)
        editor.render(into: &screen)
        kept = (stack, editor)
        return screen
    }

    func release() {
        kept = nil
    }
}

/// Runs `body` on the concurrency pool and waits for it on this thread.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let box = BlockingBox<T>()
    Task {
        do {
            box.set(.success(try await body()))
        } catch {
            box.set(.failure(error))
        }
        done.signal()
    }
    done.wait()
    return try box.get()
}

/// The outcome of a ``blocking(_:)`` body, handed between threads.
private final class BlockingBox<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, any Error>?>(nil)

    func set(_ result: Result<T, any Error>) { value.withLock { $0 = result } }

    func get() throws -> T {
        guard let result = value.withLock({ $0 }) else { throw BenchmarkError("an asynchronous step did not finish") }
        return try result.get()
    }
}
