/// One goal (issues 7 and 17) and whether this run met it.
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
    static let growthLimit = 11.0

    static func evaluate(_ result: SizeResult, hasGrowth: Bool) -> [Target] {
        var targets: [Target] = []
        func floorRatio(_ operation: String, _ limit: Double, _ name: String) {
            guard let ratio = result.record(operation)?.ratioToFloor else { return }
            targets.append(Target(name: name, operation: operation, value: ratio, comparison: .atMost, limit: limit, unit: "x floor"))
        }
        func speedup(_ operation: String, _ peer: String, _ limit: Double, _ name: String) {
            guard let record = result.record(operation), let match = record.peers.first(where: { $0.name == peer }) else { return }
            targets.append(
                Target(
                    name: name, operation: operation, value: match.speedup(over: record.median),
                    comparison: .atLeast, limit: limit, unit: "x faster"))
        }
        floorRatio("binary.open", 1.0, "binary.open <= 1.0x its floor (read + inflate)")
        floorRatio("binary.save", 1.3, "binary.save <= 1.3x its floor (deflate + write)")
        floorRatio("xml.open", 1.3, "xml.open <= 1.3x the SAX2 floor")
        floorRatio("xml.save", 2.0, "xml.save <= 2x the write floor")
        floorRatio("xml.encode", 2.0, "xml.encode <= 2x its floor (arrays to XML)")
        floorRatio("migrate.v1-to-current", 2.0, "migrate.v1-to-current <= 2x its floor")
        for edit in ["edit.add", "edit.move", "edit.remove"] {
            floorRatio(edit, 1.3, "\(edit) <= 1.3x binary.open + binary.save")
        }
        // A conversion may take at most the sum of its parts' targets.
        func parts(_ operation: String, _ pieces: [(operation: String, limit: Double)]) {
            let floors = pieces.compactMap { result.record($0.operation)?.floorMilliseconds }
            guard floors.count == pieces.count, floors.reduce(0, +) > 0 else { return }
            let limit = zip(pieces, floors).reduce(0) { $0 + $1.0.limit * $1.1 } / floors.reduce(0, +)
            floorRatio(operation, (limit * 100).rounded() / 100, "\(operation) <= its parts' targets")
        }
        parts("convert.binary-to-xml", [("binary.open", 1.0), ("xml.save", 2.0)])
        parts("convert.xml-to-binary", [("xml.open", 1.3), ("binary.save", 1.3)])
        speedup("binary.open", "grdb.fetch-all", 2, "binary.open >= 2x faster than GRDB fetch-all")
        speedup("binary.open", "json.decode", 10, "binary.open >= 10x faster than JSONDecoder")
        speedup("binary.save", "grdb.insert-all", 3, "binary.save >= 3x faster than GRDB insert-all")
        speedup("binary.save", "json.encode", 5, "binary.save >= 5x faster than JSONEncoder")
        speedup("observe.one-edit", "refetch-diff", 50, "observe.one-edit >= 50x faster than re-fetch + CollectionDifference")
        for (operation, limit) in [("observe.one-edit", 1.0), ("observe.expand", 5.0)] {
            guard let record = result.record(operation) else { continue }
            targets.append(
                Target(
                    name: "\(operation) <= \(limit) ms", operation: operation, value: record.median,
                    comparison: .atMost, limit: limit, unit: "ms"))
        }
        floorRatio("edit.batch", 1.2, "edit.batch (1,000 edits) <= 1.2x one binary.open + one binary.save")
        if let open = result.record("stack.open-async"), let peer = open.peers.first {
            targets.append(
                Target(
                    name: "stack.open-async within 5% of binary.open", operation: open.operation,
                    value: open.median / peer.milliseconds, comparison: .atMost, limit: 1.05, unit: "x binary.open"))
        }
        if let stall = result.record("stack.save-stall") {
            targets.append(
                Target(
                    name: "stack.save-stall <= 5 ms", operation: stall.operation, value: stall.median,
                    comparison: .atMost, limit: 5, unit: "ms"))
        }
        if let commit = result.record("stack.child-commit") {
            targets.append(
                Target(
                    name: "stack.child-commit <= 10 ms", operation: commit.operation, value: commit.median,
                    comparison: .atMost, limit: 10, unit: "ms"))
        }
        floorRatio("tui.open", 1.1, "tui.open <= 1.1x binary.open (first screen of the editor)")
        if let keystroke = result.record("tui.keystroke"), !keystroke.runs.isEmpty {
            targets.append(
                Target(
                    name: "tui.keystroke p99 <= 16 ms", operation: keystroke.operation,
                    value: Sample(runs: keystroke.runs).percentile(99), comparison: .atMost, limit: 16, unit: "ms"))
        }
        if let memory = result.record("memory.open-binary") {
            targets.append(
                Target(
                    name: "memory.open-binary <= 160 MiB peak", operation: memory.operation, value: memory.median,
                    comparison: .atMost, limit: 160, unit: "MiB"))
            if let xml = result.record("memory.open-xml"), memory.median > 0 {
                targets.append(
                    Target(
                        name: "memory.open-xml <= 1.5x memory.open-binary", operation: xml.operation,
                        value: xml.median / memory.median, comparison: .atMost, limit: 1.5, unit: "x binary"))
            }
        }
        if hasGrowth {
            for record in result.records {
                guard let growth = record.growth, !record.isPhase else { continue }
                targets.append(
                    Target(
                        name: "\(record.operation) grows <= \(Int(growthLimit))x from the small size",
                        operation: record.operation, value: growth, comparison: .atMost, limit: growthLimit, unit: "x small"))
            }
        }
        return targets
    }
}
