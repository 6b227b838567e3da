import Foundation
import OutlineKit
import OutlineStorage

/// Peak resident memory of opening a binary document, measured in a fresh process so that
/// nothing the benchmark did before (generating, other formats, peers) counts: the benchmark
/// runs itself again with ``flag`` and the path, and the child reports its `VmHWM` (peak
/// resident set) from `/proc/self/status` before and after opening.
enum MemoryProbe {
    /// The hidden option that makes the benchmark a probe.
    static let flag = "--probe-open-binary"

    /// Peak resident memory of one fresh process.
    struct Figure {
        /// Peak before opening: the runtime, Foundation and the embedded schemas (MiB).
        var baselineMiB: Double
        /// Peak after opening the document (MiB): the figure the target is about.
        var peakMiB: Double
    }

    /// Runs the probe on `path` in a child process `runs` times and returns each figure.
    static func measure(_ path: String, runs: Int) throws -> [Figure] {
        try (0 ..< runs).map { _ in try probe(path) }
    }

    private static func probe(_ path: String) throws -> Figure {
        let process = Process()
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [flag, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, words.count == 2 else {
            throw BenchmarkError("the memory probe failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
        }
        return Figure(baselineMiB: words[0] / 1024, peakMiB: words[1] / 1024)
    }

    /// The child's side: opens `path` as `binary.open` does and prints the peak resident set
    /// in KiB before and after, on one line.
    static func runChild(_ path: String) throws {
        let schema = try OutlineSchemas.current
        let before = try peakResidentKiB()
        let store = try PersistentStore.open(path, schema: schema)
        let after = try peakResidentKiB()
        // Keep the store alive until the figure is taken, and prove it is ready to query.
        guard let item = store.schema.info(named: "Item"), store.context.graph.count(ofEntity: item.index) > 0 else {
            throw BenchmarkError("the probe opened an empty document")
        }
        print("\(before) \(after)")
    }

    /// `VmHWM` of this process, in KiB.
    static func peakResidentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else { throw BenchmarkError("/proc/self/status has no VmHWM line") }
        return kib
    }
}
