import Foundation

/// The machine-readable report: one JSON object per line, one per operation and size, with
/// `operation`, `items`, `median_ms` (or `median_mib` for memory), `floor_ms`,
/// `ratio_to_floor`, `peer`, `peer_ms` always present (null when not applicable), then the
/// details: every run, every peer, growth from the small size and the goals about it.
enum JSONReport {
    static func render(_ results: [SizeResult], targets: [Target]) -> String {
        var lines: [String] = []
        for result in results {
            for record in result.records {
                let mine = result.items == results.last?.items ? targets.filter { $0.operation == record.operation } : []
                lines.append(object(record, targets: mine).rendered)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func object(_ record: Record, targets: [Target]) -> JSONValue {
        let first = record.peers.first
        var fields: [(String, JSONValue)] = [
            ("operation", .string(record.operation)),
            ("items", .integer(record.items)),
        ]
        if record.unit == .mebibytes {
            fields.append(("median_mib", .number(record.median)))
            fields.append(("median_ms", .null))
        } else {
            fields.append(("median_ms", .number(record.median)))
        }
        fields += [
            ("floor_ms", record.floorMilliseconds.map(JSONValue.number) ?? .null),
            ("ratio_to_floor", record.ratioToFloor.map(JSONValue.number) ?? .null),
            ("peer", first.map { .string($0.name) } ?? .null),
            ("peer_ms", first.map { .number($0.milliseconds) } ?? .null),
            ("speedup_vs_peer", first.map { .number($0.speedup(over: record.median)) } ?? .null),
            ("floor", record.floorName.map(JSONValue.string) ?? .null),
            (
                "peers",
                .array(
                    record.peers.map { peer in
                        .object([
                            ("peer", .string(peer.name)), ("peer_ms", .number(peer.milliseconds)),
                            ("speedup", .number(peer.speedup(over: record.median))),
                        ])
                    })
            ),
            (record.unit == .mebibytes ? "runs_mib" : "runs_ms", .array(record.runs.map(JSONValue.number))),
            ("growth_vs_small", record.growth.map(JSONValue.number) ?? .null),
        ]
        if let baseline = record.baselineMiB { fields.append(("baseline_mib", .number(baseline))) }
        if record.reportsPercentile99 { fields.append(("p99_ms", .number(Sample(runs: record.runs).percentile(99)))) }
        if !targets.isEmpty {
            fields.append(
                (
                    "targets",
                    .array(
                        targets.map { target in
                            .object([
                                ("target", .string(target.name)), ("value", .number(target.value)),
                                ("limit", .number(target.limit)), ("pass", .bool(target.passes)),
                            ])
                        })
                ))
        }
        return .object(fields)
    }
}

/// A JSON value that keeps the order of object keys.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    var rendered: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): value.isFinite ? String(format: "%.3f", value) : "null"
        case .string(let value): Self.quoted(value)
        case .array(let values): "[" + values.map(\.rendered).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.map { Self.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
