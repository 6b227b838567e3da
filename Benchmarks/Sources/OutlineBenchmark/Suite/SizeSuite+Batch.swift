import Foundation
import OutlineKit
import OutlineStorage

/// `edit.batch`: many edits through one `outline batch` run (issue 16).
extension SizeSuite {
    /// How many edit lines the script has.
    static let batchEdits = 1_000

    /// The `outline` binary the batch runs: `OUTLINE_BINARY`, else the main package's release
    /// build (`swift build -c release --product outline` in the folder above this package).
    static var outlineBinary: String {
        if let path = ProcessInfo.processInfo.environment["OUTLINE_BINARY"], !path.isEmpty { return path }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/release/outline").path
    }

    /// `edit.batch`: the real `outline batch FILE` process applying ``batchEdits`` mixed edits
    /// read from standard input to a fresh copy of the document (copied before each run,
    /// untimed): one open, one save, each line one undo step kept in the document. Process
    /// start and script parsing are included. Skipped, with a line on the log, when the binary
    /// is not built.
    /// `topLevel` is how many top-level items the document has (the edits use the first ten).
    func measureBatch(_ paths: Paths, topLevel: Int, into samples: inout [String: Sample]) throws {
        let binary = Self.outlineBinary
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            log.line(
                "  edit.batch: skipped, no outline binary at \(binary) (build it with `swift build -c release --product outline`, or set OUTLINE_BINARY)"
            )
            return
        }
        let path = scratch.file("\(items)-batch.outline")
        let topLevel = max(1, min(10, topLevel))
        /// The batch `script` run on a fresh copy of the document (copied untimed before each run).
        func onACopy(_ label: String, _ script: String) throws -> Sample {
            let script = Data(script.utf8)
            return try measurer.measure(
                label,
                prepare: {
                    scratch.removeFile(URL(fileURLWithPath: path).lastPathComponent)
                    try FileManager.default.copyItem(atPath: paths.binary, toPath: path)
                },
                run: {
                    try Self.runBatch(binary, path, script)
                })
        }
        samples["edit.batch"] = try onACopy(
            "edit.batch (outline batch, \(Self.batchEdits) edits)", Self.batchScript(topLevel: topLevel, edits: Self.batchEdits))
        // The same process with the script's first edit only: what the thousand edits add to
        // one open and one save in a fresh process.
        samples["peer.batch-one-edit"] = try onACopy("peer: outline batch, 1 edit", Self.batchScript(topLevel: topLevel, edits: 1))
        // The same process with no edit at all: it opens the document, finds nothing to do and
        // ends without saving. Against `binary.open`, what a new process adds to an open.
        let none = Data("# no edits\n".utf8)
        samples["peer.batch-open-only"] = try measurer.measure(
            "peer: outline batch, no edit (open only)",
            run: {
                try Self.runBatch(binary, path, none)
            })
        // The floor's own work, one binary.open and one binary.save, in a new process started
        // and awaited as the batch is: what the batch would cost if its edits were free.
        let saved = scratch.file("\(items)-fresh-saved.outline")
        samples["peer.fresh-open-save"] = try measurer.measure(
            "peer: binary.open + binary.save in a new process",
            run: {
                try Self.runFreshOpenSave(paths.binary, saved)
            })
    }

    /// The hidden option that makes the benchmark open a document and save it in a new process.
    static let freshOpenSaveFlag = "--probe-open-save"

    /// Runs this benchmark again with ``freshOpenSaveFlag``: the child opens `source` as
    /// `binary.open` does, saves it to `destination` as `binary.save` does, and exits.
    static func runFreshOpenSave(_ source: String, _ destination: String) throws {
        let process = Process()
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [freshOpenSaveFlag, source, destination]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("the open-and-save child failed (exit \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// The child's side of ``runFreshOpenSave(_:_:)``: `arguments` are the document and where
    /// to save it. It exits with the store still held, as `outline` does, so that freeing a
    /// million objects one by one is not counted.
    static func runFreshOpenSave(_ arguments: [String]) throws -> Never {
        guard arguments.count == 2 else { throw BenchmarkError("\(freshOpenSaveFlag) takes a document and a destination") }
        let store = try PersistentStore.open(arguments[0], schema: try OutlineSchemas.current)
        try store.save(to: arguments[1], format: .binary)
        withExtendedLifetime(store) { exit(0) }
    }

    /// A deterministic mix of edits on the first `topLevel` top-level items (which every
    /// generated outline has, each with children): adds (with notes, done), text and state
    /// edits, moves, tags, folds, copies of new items and removes, in rounds of ten lines.
    static func batchScript(topLevel: Int, edits: Int) -> String {
        var lines: [String] = ["# edit.batch: \(edits) mixed edits"]
        var round = 0
        while lines.count <= edits {
            let parent = round % topLevel + 1
            let other = (round + 3) % topLevel + 1
            let round10 = [
                "add \"Batch item \(round)\" --under \(parent) --note \"Added by the benchmark\"",
                "add \"Batch task \(round)\" --under \(parent) --at 1 --done",
                "edit \(parent).1 --text \"Batch task \(round), renamed\"",
                "edit \(parent).1 --not-done",
                "tag \(parent).1 batch \"round \(round % 7)\"",
                "move \(parent).1 --under \(other) --at 1",
                "copy \(other).1 --under \(parent)",
                "collapse \(other)",
                "expand \(other)",
                "remove \(other).1",
            ]
            lines += round10.prefix(edits + 1 - lines.count)
            round += 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs `binary batch path` with `script` on standard input; a failure is an error.
    ///
    /// The end is awaited through the termination handler, not `waitUntilExit()`: on Linux
    /// that polls the run loop and added about 50 ms to every run (measured with `/bin/true`:
    /// 51.6 ms a run against 1.4 ms this way), which is the harness's time, not the tool's.
    static func runBatch(_ binary: String, _ path: String, _ script: Data) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["batch", path]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        // Registered before `run()`, so that a child that ends at once is not missed.
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: script)
        try input.fileHandleForWriting.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("outline batch failed (exit \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
