import ArgumentParser
import Dispatch
import Foundation

/// `swift run -c release [OutlineBenchmark] [options]`: generates outlines of two sizes and
/// measures the library against floors and peers on them; see Benchmarks/README.md.
@main
struct OutlineBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "OutlineBenchmark",
        abstract: "Measure Outline's stores, conversions, migration and edits against floors and peers.",
        discussion: """
            Generates a deterministic outline of --small-items and --large-items items (the \
            root included), then measures each operation with warm-up runs and reports medians, \
            ratios to floors (zlib, libxml2, the file system), speed-ups over peers (SQLite \
            through GRDB, Codable JSON) and the growth from the small to the large size, with \
            PASS or MISS for each target. Progress goes to standard error, the report to \
            standard output. Scratch files live in a temporary folder removed at exit.

            Examples:
              swift run -c release
              swift run -c release OutlineBenchmark --quick
              swift run -c release OutlineBenchmark --json > results.jsonl
              swift run -c release OutlineBenchmark --runs 7 --large-runs 5
            """)

    @Flag(help: "Measure the small size only (100,000 items, 3 runs unless --runs): well under a minute.")
    var quick = false

    @Flag(help: "Print one JSON record per operation and size, one per line, instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("Also write the JSON records to this file (with the table on standard output).", valueName: "file"))
    var jsonOutput: String?

    @Flag(help: "Also time the phases of the store operations with --quick (always done without it).")
    var phases = false

    @Option(help: "Counted runs per operation at the small size (default: 5, or 3 with --quick).")
    var runs: Int?

    @Option(help: "Counted runs per operation at the large size.")
    var largeRuns = 3

    @Option(help: "Uncounted warm-up runs before each operation.")
    var warmups = 1

    @Option(help: "Items in the small outline, the root included.")
    var smallItems = 100_000

    @Option(help: "Items in the large outline, the root included.")
    var largeItems = 1_000_000

    @Option(help: "Fresh processes measuring the peak memory of opening (the median is reported).")
    var memoryRuns = 3

    @Option(help: "Seed of the outline generator.")
    var seed: UInt64 = 20_261_122

    @Option(help: ArgumentHelp("Where to make the temporary folder (default: $TMPDIR, else /tmp).", valueName: "folder"))
    var scratch: String?

    @Flag(help: "Keep the temporary folder and its files, and say where it is.")
    var keepFiles = false

    @Flag(help: "Print no progress lines on standard error.")
    var quiet = false

    @Flag(help: "Measure only binary.open and the full-screen editor's tui.open and tui.keystroke.")
    var editorOnly = false

    @Option(
        help: ArgumentHelp(
            "Measure only binary.open, binary.save and these groups: batch (edit.batch), stack (stack.*), observe (observe.*), xml (xml.*, memory.*), convert (convert.*, migrate.*), edit (edit.add|move|remove); repeatable.",
            valueName: "group"))
    var only: [SizeSuite.Group] = []

    /// The child side of the memory measurement (see ``MemoryProbe``).
    @Option(name: .customLong("probe-open-binary"), help: .hidden)
    var probe: String?

    /// The child side of `peer.fresh-open-save` (see ``SizeSuite/freshOpenSaveFlag``): the
    /// document to open and the path to save it to.
    @Option(name: .customLong("probe-open-save"), parsing: .upToNextOption, help: .hidden)
    var openSaveProbe: [String] = []

    /// One libxml2 SAX2 pass over an XML file and nothing else, to count the floor's
    /// instructions under callgrind against `--probe-open-binary` on the same file.
    @Option(name: .customLong("probe-floor-xml"), help: .hidden)
    var floorProbe: String?

    func validate() throws {
        for (name, value) in [("--runs", runs ?? 1), ("--large-runs", largeRuns), ("--memory-runs", memoryRuns)] where value < 1 {
            throw ValidationError("\(name) must be 1 or more (got \(value)).")
        }
        if warmups < 0 { throw ValidationError("--warmups must be 0 or more (got \(warmups)).") }
        if smallItems < 2 || largeItems < 2 { throw ValidationError("--small-items and --large-items must be 2 or more.") }
        if !quick && largeItems <= smallItems {
            throw ValidationError("--large-items (\(largeItems)) must be more than --small-items (\(smallItems)).")
        }
    }

    func run() throws {
        if let probe {
            try MemoryProbe.runChild(probe)
            return
        }
        if !openSaveProbe.isEmpty {
            try SizeSuite.runFreshOpenSave(openSaveProbe)
        }
        if let floorProbe {
            print(try XMLFloor.saxPass(floorProbe).elements)
            return
        }
        let log = Log(quiet: quiet)
        #if DEBUG
            log.line("warning: a debug build; run `swift run -c release` for figures that mean anything")
        #endif
        let parent = scratch ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let folder = try ScratchFolder(in: parent, keeps: keepFiles)
        let interrupts = Self.removeOnInterrupt(folder)
        defer {
            for source in interrupts { source.cancel() }
            folder.remove()
            if keepFiles { log.line("files kept in \(folder.path)") }
        }

        let smallRuns = runs ?? (quick ? 3 : 5)
        var plan = [(items: smallItems, runs: smallRuns)]
        if !quick { plan.append((largeItems, largeRuns)) }
        var results: [SizeResult] = []
        for size in plan {
            let measurer = Measurer(runs: size.runs, warmups: warmups, log: log)
            var suite = SizeSuite(
                items: size.items, seed: seed, measurer: measurer, memoryRuns: memoryRuns,
                phases: phases || !quick, scratch: folder, log: log)
            suite.editorOnly = editorOnly
            suite.only = Set(only)
            results.append(try suite.run())
        }
        Self.addGrowth(&results)
        guard let last = results.last else { return }
        let targets = Targets.evaluate(last, hasGrowth: results.count > 1)
        let settings =
            plan.map { "\($0.items.formatted()) items x \($0.runs) runs" }.joined(separator: ", ")
            + " after \(warmups) warm-up, seed \(seed)"
        let records = JSONReport.render(results, targets: targets)
        if let jsonOutput {
            try records.write(toFile: jsonOutput, atomically: true, encoding: .utf8)
        }
        print(json ? records : TableReport.render(results, targets: targets, settings: settings), terminator: "")
    }

    /// Sets each large-size record's growth: its figure over the small size's.
    private static func addGrowth(_ results: inout [SizeResult]) {
        guard results.count > 1, let small = results.first else { return }
        for index in results[1...].indices {
            for (position, record) in results[index].records.enumerated() {
                guard let before = small.record(record.operation), before.median > 0 else { continue }
                results[index].records[position].growth = record.median / before.median
            }
        }
    }

    /// Removes the scratch folder when the run is interrupted (Ctrl-C or SIGTERM), then exits.
    /// - Returns: the signal sources; keep them until the end of the run.
    private static func removeOnInterrupt(_ folder: ScratchFolder) -> [DispatchSourceSignal] {
        [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { number, status in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                folder.remove()
                Foundation.exit(status)
            }
            source.resume()
            return source
        }
    }
}
