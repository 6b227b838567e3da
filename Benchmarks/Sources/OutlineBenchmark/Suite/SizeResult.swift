/// What the documents of one size look like, for the report's heading.
struct DocumentFacts: Sendable {
    var items: Int
    var depth: Int
    var nonASCIIPercent: Double
    var meanTitleBytes: Double
    var binaryBytes: Int
    var xmlBytes: Int
    var v1Bytes: Int
    var sqliteBytes = 0
    var jsonBytes = 0
    var generationMilliseconds = 0.0

    init(tree: OutlineTree, paths: SizeSuite.Paths) {
        items = tree.count
        depth = tree.deepest
        nonASCIIPercent = 100 * Double(tree.nonASCIICount) / Double(max(1, tree.count - 1))
        meanTitleBytes = Double(tree.titleBytes) / Double(max(1, tree.count - 1))
        binaryBytes = PlainFile.size(paths.binary)
        xmlBytes = PlainFile.size(paths.xml)
        v1Bytes = PlainFile.size(paths.v1)
    }
}

/// The records of one size.
struct SizeResult: Sendable {
    var items: Int
    var facts: DocumentFacts
    var records: [Record]

    func record(_ operation: String) -> Record? {
        records.first { $0.operation == operation }
    }
}

extension SizeSuite {
    /// One record per operation, with its floor and peers, from the samples of one size.
    static func records(
        items: Int, _ samples: [String: Sample], memory: [MemoryProbe.Figure],
        memoryXML: [MemoryProbe.Figure]
    ) -> [Record] {
        func runs(_ key: String) -> [Double] { samples[key]?.runs ?? [] }
        func median(_ key: String) -> Double? { samples[key]?.median }
        func sum(_ keys: String...) -> Double? {
            let values = keys.compactMap(median)
            return values.count == keys.count ? values.reduce(0, +) : nil
        }
        func peer(_ name: String, _ key: String) -> Record.Peer? {
            median(key).map { Record.Peer(name: name, milliseconds: $0) }
        }
        func record(_ operation: String, floor: String?, _ floorMilliseconds: Double?, peers: [Record.Peer?] = []) -> Record {
            Record(
                operation: operation, items: items, runs: runs(operation), floorName: floor,
                floorMilliseconds: floorMilliseconds, peers: peers.compactMap { $0 })
        }

        var records = [
            record(
                "binary.open", floor: Floors.binaryOpen, median("floor.binary-open"),
                peers: [peer("grdb.fetch-all", "peer.grdb-fetch-all"), peer("json.decode", "peer.json-decode")]),
            record(
                "binary.save", floor: Floors.binarySave, median("floor.binary-save"),
                peers: [peer("grdb.insert-all", "peer.grdb-insert-all"), peer("json.encode", "peer.json-encode")]),
            record("xml.open", floor: Floors.xmlOpen, median("floor.xml-open")),
            record("xml.save", floor: Floors.xmlSave, median("floor.xml-save")),
            record("xml.encode", floor: Floors.xmlEncode, median("floor.xml-encode")),
            record("convert.binary-to-xml", floor: Floors.binaryToXML, sum("floor.binary-open", "floor.xml-save")),
            record("convert.xml-to-binary", floor: Floors.xmlToBinary, sum("floor.xml-open", "floor.binary-save")),
            record("migrate.v1-to-current", floor: Floors.migrate, sum("floor.v1-open", "floor.binary-save")),
        ]
        for edit in ["edit.add", "edit.move", "edit.remove", "edit.add-history", "edit.undo"] {
            records.append(record(edit, floor: Floors.edit, sum("binary.open", "binary.save")))
        }
        records.append(
            record(
                "edit.batch", floor: Floors.edit, sum("binary.open", "binary.save"),
                peers: [
                    peer("batch.one-edit", "peer.batch-one-edit"), peer("batch.open-only", "peer.batch-open-only"),
                    peer("fresh-open-save", "peer.fresh-open-save"),
                ]))
        records.append(record("observe.one-edit", floor: nil, nil, peers: [peer("refetch-diff", "peer.observe-refetch-diff")]))
        records.append(record("observe.expand", floor: nil, nil))
        records.append(record("stack.open-async", floor: nil, nil, peers: [peer("binary.open", "binary.open")]))
        records.append(record("stack.save-stall", floor: nil, nil, peers: [peer("binary.save", "binary.save")]))
        records.append(record("stack.child-commit", floor: nil, nil))
        // The full-screen editor: opening to the first screen against the store's own open.
        records.append(record("tui.open", floor: Floors.tuiOpen, median("binary.open")))
        var keystroke = record("tui.keystroke", floor: nil, nil)
        keystroke.reportsPercentile99 = true
        records.append(keystroke)
        for phase in phaseNames + ["phase.stack-save.on-actor", "phase.stack-save.page-copies"] where samples[phase] != nil {
            records.append(record(phase, floor: nil, nil))
        }
        var memoryRecord = Record(operation: "memory.open-binary", items: items, unit: .mebibytes, runs: memory.map(\.peakMiB))
        memoryRecord.baselineMiB = Sample(runs: memory.map(\.baselineMiB)).median
        records.append(memoryRecord)
        var xmlMemoryRecord = Record(operation: "memory.open-xml", items: items, unit: .mebibytes, runs: memoryXML.map(\.peakMiB))
        xmlMemoryRecord.baselineMiB = Sample(runs: memoryXML.map(\.baselineMiB)).median
        records.append(xmlMemoryRecord)
        return records
    }
}
