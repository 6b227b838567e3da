import Foundation

/// The readable report: one table per size (medians, floors, peers, growth), what each floor
/// is, and the goals with PASS or MISS.
enum TableReport {
    static func render(_ results: [SizeResult], targets: [Target], settings: String) -> String {
        var text = "Outline benchmark (\(settings))\n"
        text += "Medians of the counted runs; the machine is shared, so compare figures of one run only.\n"
        let smallest = results.first?.items
        for result in results {
            text += "\n" + heading(result.facts) + "\n"
            text += header(growthLabel: result.items == smallest ? nil : smallest.map(shortCount)) + "\n"
            for record in result.records where !record.isPhase { text += rows(record) }
            let phases = result.records.filter(\.isPhase)
            if !phases.isEmpty {
                text += "  phases of the store operations (the library's public pieces, in the order open/save run them):\n"
                for record in phases { text += rows(record) }
            }
        }
        text += "\nFloors (what each ratio divides by):\n"
        let floors: [(String, String)] = [
            ("binary.open", Floors.binaryOpen), ("binary.save", Floors.binarySave),
            ("xml.open", Floors.xmlOpen), ("xml.save", Floors.xmlSave), ("xml.encode", Floors.xmlEncode),
            ("convert.binary-to-xml", Floors.binaryToXML), ("convert.xml-to-binary", Floors.xmlToBinary),
            ("migrate.v1-to-current", Floors.migrate), ("edit.*", Floors.edit),
        ]
        for (operation, floor) in floors { text += "  " + pad(operation, 23) + floor + "\n" }
        text += "  The library inflates and deflates chunks on all cores; the binary floors use one thread.\n"
        text += "  memory.open-binary, memory.open-xml: peak resident set (VmHWM) of a fresh process after opening; in brackets before.\n"
        text += "  Peers: \"x faster\" is peer time / library time; GRDB and JSON store the same tree as a flat array of\n"
        text += "  structs (id, parent, ordering, title, done), open = file to array, save = array to durable file.\n"
        text += "  edit.batch's peer batch.one-edit is the same fresh `outline batch` process with the first edit only;\n"
        text += "  batch.open-only is one with no edit (it opens the document and ends without saving); fresh-open-save\n"
        text += "  is one binary.open + one binary.save in a new process, started and awaited as the batch is.\n"
        if !targets.isEmpty {
            let size = results.last.map { $0.items.formatted() } ?? ""
            text += "\nTargets at \(size) items" + (results.count == 1 ? " (set for 1,000,000 items; shown for orientation):\n" : ":\n")
            for target in targets {
                let value = String(format: "%.2f", target.value) + " \(target.unit) (limit \(target.comparison.rawValue) \(target.limit.formatted()))"
                text += "  " + (target.passes ? "PASS  " : "MISS  ") + pad(target.name, 56) + value + "\n"
            }
            let passed = targets.count(where: \.passes)
            text += "  \(passed) of \(targets.count) targets met.\n"
        }
        return text
    }

    private static func heading(_ facts: DocumentFacts) -> String {
        func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
        var line = "== \(facts.items.formatted()) items: depth up to \(facts.depth), "
        line += String(format: "%.1f%% non-ASCII, titles %.1f bytes on average", facts.nonASCIIPercent, facts.meanTitleBytes)
        line += "\n   files: binary \(mb(facts.binaryBytes)), v1 binary \(mb(facts.v1Bytes)), XML \(mb(facts.xmlBytes)), "
        line += "SQLite \(mb(facts.sqliteBytes)), JSON \(mb(facts.jsonBytes))"
        line += String(format: "; generated and saved in %.0f ms", facts.generationMilliseconds)
        return line
    }

    private static func header(growthLabel: String?) -> String {
        pad("operation", 28) + right("median", 13) + right("floor ms", 11) + right("x floor", 9) + "  "
            + pad("peer", 16) + right("peer ms", 11) + right("x faster", 10) + (growthLabel.map { right("x " + $0, 9) } ?? "")
    }

    /// The record's line, plus a line for each further peer.
    private static func rows(_ record: Record) -> String {
        let median = record.unit == .mebibytes ? String(format: "%.1f MiB", record.median) : String(format: "%.1f ms", record.median)
        var line = pad(record.operation, 28) + right(median, 13)
        line += right(record.floorMilliseconds.map { String(format: "%.1f", $0) } ?? "-", 11)
        line += right(record.ratioToFloor.map { String(format: "%.2f", $0) } ?? "-", 9) + "  "
        let first = record.peers.first
        line += pad(first?.name ?? (record.baselineMiB.map { String(format: "(%.1f MiB before)", $0) } ?? "-"), 16)
        line += right(first.map { String(format: "%.1f", $0.milliseconds) } ?? "", 11)
        line += right(first.map { String(format: "%.2f", $0.speedup(over: record.median)) } ?? "", 10)
        line += right(record.growth.map { String(format: "%.2f", $0) } ?? "", 9)
        var text = line + "\n"
        for peer in record.peers.dropFirst() {
            text +=
                String(repeating: " ", count: 28 + 13 + 11 + 9 + 2) + pad(peer.name, 16)
                + right(String(format: "%.1f", peer.milliseconds), 11) + right(String(format: "%.2f", peer.speedup(over: record.median)), 10) + "\n"
        }
        return text
    }

    static func shortCount(_ items: Int) -> String {
        if items % 1_000_000 == 0 { return "\(items / 1_000_000)M" }
        if items % 1_000 == 0 { return "\(items / 1_000)k" }
        return "\(items)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
