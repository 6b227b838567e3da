/// One goal of issue 7 and whether this run met it.
struct Target: Sendable {
    enum Comparison: String, Sendable {
        case atMost = "<="
        case atLeast = ">="
    }

    /// What the goal says, such as `binary.open <= 2.0x floor`.
    var name: String
    /// The operation whose record the goal is about.
    var operation: String
    var value: Double
    var comparison: Comparison
    var limit: Double
    /// The unit of `value` and `limit` (`x floor`, `x faster`, `MiB`, `x 100k`).
    var unit: String

    var passes: Bool {
        switch comparison {
        case .atMost: value <= limit
        case .atLeast: value >= limit
        }
    }
}

/// The goals: checked at the large size (or the only size of a quick run).
enum Targets {
    static let growthLimit = 12.0

    static func evaluate(_ result: SizeResult, hasGrowth: Bool) -> [Target] {
        var targets: [Target] = []
        func floorRatio(_ operation: String, _ limit: Double, _ name: String) {
            guard let ratio = result.record(operation)?.ratioToFloor else { return }
            targets.append(Target(name: name, operation: operation, value: ratio, comparison: .atMost, limit: limit, unit: "x floor"))
        }
        func speedup(_ operation: String, _ peer: String, _ limit: Double, _ name: String) {
            guard let record = result.record(operation), let match = record.peers.first(where: { $0.name == peer }) else { return }
            targets.append(Target(name: name, operation: operation, value: match.speedup(over: record.median),
                                  comparison: .atLeast, limit: limit, unit: "x faster"))
        }
        floorRatio("binary.open", 2.0, "binary.open <= 2.0x its floor (read + inflate)")
        floorRatio("binary.save", 1.3, "binary.save <= 1.3x its floor (deflate + write)")
        floorRatio("xml.open", 1.3, "xml.open <= 1.3x the SAX2 floor")
        floorRatio("xml.save", 2.0, "xml.save <= 2x the write floor")
        speedup("binary.open", "grdb.fetch-all", 2, "binary.open >= 2x faster than GRDB fetch-all")
        speedup("binary.open", "json.decode", 10, "binary.open >= 10x faster than JSONDecoder")
        speedup("binary.save", "grdb.insert-all", 3, "binary.save >= 3x faster than GRDB insert-all")
        speedup("binary.save", "json.encode", 5, "binary.save >= 5x faster than JSONEncoder")
        floorRatio("tui.open", 1.1, "tui.open <= 1.1x binary.open (first screen of the editor)")
        if let keystroke = result.record("tui.keystroke"), !keystroke.runs.isEmpty {
            targets.append(Target(name: "tui.keystroke p99 <= 16 ms", operation: keystroke.operation,
                                  value: Sample(runs: keystroke.runs).percentile(99), comparison: .atMost, limit: 16, unit: "ms"))
        }
        if let memory = result.record("memory.open-binary") {
            targets.append(Target(name: "memory.open-binary <= 160 MiB peak", operation: memory.operation, value: memory.median,
                                  comparison: .atMost, limit: 160, unit: "MiB"))
        }
        if hasGrowth {
            for record in result.records {
                guard let growth = record.growth, !record.isPhase else { continue }
                targets.append(Target(name: "\(record.operation) grows <= \(Int(growthLimit))x from the small size",
                                      operation: record.operation, value: growth, comparison: .atMost, limit: growthLimit, unit: "x small"))
            }
        }
        return targets
    }
}
