import ArgumentParser
import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTool

/// Everything measured at one size: the documents are generated once, then each operation of
/// the library, its floor and its peers run side by side on the same tree and the same files.
struct SizeSuite {
    let items: Int
    let seed: UInt64
    let measurer: Measurer
    let memoryRuns: Int
    /// Also time the phases of the store operations (see `measurePhases`).
    let phases: Bool
    let scratch: ScratchFolder
    let log: Log
    /// Measure only `binary.open` and the full-screen editor's records (SizeSuite+Editor.swift).
    var editorOnly = false
    /// When not empty, measure only `binary.open`, `binary.save` and these groups.
    var only: Set<Group> = []

    /// The groups of records `--only` can pick.
    enum Group: String, CaseIterable, ExpressibleByArgument {
        case batch, stack, observe
        /// `xml.open`, `xml.save`, `xml.encode` and `memory.open-xml` with their floors.
        case xml
        /// `convert.*` and `migrate.v1-to-current` with their floors.
        case convert
        /// `edit.add`, `edit.move`, `edit.remove`.
        case edit

        /// Whether the group needs the XML and version-1 documents besides the binary one.
        var needsEveryDocument: Bool { self == .xml || self == .convert }
    }

    /// The files of one size, all in the scratch folder.
    struct Paths {
        let binary, xml, v1, binarySaved, xmlSaved, convertedXML, convertedBinary, migrated, edited, stack: String
        let floorBinary, floorXML, sqlite, json: String

        init(_ scratch: ScratchFolder, items: Int) {
            func file(_ name: String) -> String { scratch.file("\(items)-\(name)") }
            binary = file("document.outline")
            xml = file("document.xml")
            v1 = file("document-v1.outline")
            binarySaved = file("saved.outline")
            xmlSaved = file("saved.xml")
            convertedXML = file("converted.xml")
            convertedBinary = file("converted.outline")
            migrated = file("migrated.outline")
            edited = file("edited.outline")
            stack = file("stack.outline")
            floorBinary = file("floor.outline")
            floorXML = file("floor.xml")
            sqlite = file("peer.sqlite")
            json = file("peer.json")
        }
    }

    /// Runs every measurement at this size.
    func run() throws -> SizeResult {
        let paths = Paths(scratch, items: items)
        let bundle = try OutlineSchemas.bundle
        log.line("\(items.formatted()) items")
        let started = milliseconds()
        let tree = OutlineTree(count: items, seed: seed)
        let binaryOnly = !only.isEmpty && !only.contains(where: \.needsEveryDocument)
        try writeDocuments(tree, bundle: bundle, paths: paths, binaryOnly: binaryOnly)
        var facts = DocumentFacts(tree: tree, paths: paths)
        facts.generationMilliseconds = milliseconds() - started
        log.line(
            String(format: "  generated and saved in %.0f ms", facts.generationMilliseconds)
                + " (depth \(facts.depth), binary \(megabytes(facts.binaryBytes)), XML \(megabytes(facts.xmlBytes)))")

        var samples: [String: Sample] = [:]
        try measureStores(bundle.current, paths: paths, binaryOnly: binaryOnly, into: &samples)
        if !only.isEmpty {
            if !binaryOnly { try measureFloors(paths, into: &samples) }
            if only.contains(.xml) { try measureEncode(bundle.current, paths: paths, into: &samples) }
            if only.contains(.convert) { try measureCommands(bundle, paths: paths, into: &samples) }
            if only.contains(.edit) { try measureEdits(paths, into: &samples) }
            if only.contains(.batch) {
                try measureBatch(paths, topLevel: tree.parents.lazy.filter { $0 == 0 }.count, into: &samples)
            }
            if only.contains(.stack) { try measureStack(bundle.current, paths: paths, into: &samples) }
            if only.contains(.observe) { try measureObserve(paths, into: &samples) }
            var memory: [MemoryProbe.Figure] = []
            var memoryXML: [MemoryProbe.Figure] = []
            if only.contains(.xml) {
                log.line("  memory.open-binary and memory.open-xml: \(memoryRuns) fresh processes each")
                memory = try MemoryProbe.measure(paths.binary, runs: memoryRuns)
                memoryXML = try MemoryProbe.measure(paths.xml, runs: memoryRuns)
            }
            let records = Self.records(items: items, samples, memory: memory, memoryXML: memoryXML).filter { !$0.runs.isEmpty }
            return SizeResult(items: items, facts: facts, records: records)
        }
        if editorOnly {
            try measureEditor(paths, into: &samples)
            let records = Self.records(items: items, samples, memory: [], memoryXML: []).filter { !$0.runs.isEmpty }
            return SizeResult(items: items, facts: facts, records: records)
        }
        try measureEncode(bundle.current, paths: paths, into: &samples)
        try measureFloors(paths, into: &samples)
        try measureCommands(bundle, paths: paths, into: &samples)
        try measureEdits(paths, into: &samples)
        try measureHistoryEdits(paths, into: &samples)
        try measureObserve(paths, into: &samples)
        try measureBatch(paths, topLevel: tree.parents.lazy.filter { $0 == 0 }.count, into: &samples)
        try measureStack(bundle.current, paths: paths, into: &samples)
        try measureEditor(paths, into: &samples)
        if phases { try measurePhases(bundle.current, paths: paths, into: &samples) }
        let rows = ItemRow.rows(of: tree)
        try measurePeers(rows, paths: paths, into: &samples)
        facts.sqliteBytes = PlainFile.size(paths.sqlite)
        facts.jsonBytes = PlainFile.size(paths.json)
        log.line("  memory.open-binary: \(memoryRuns) fresh processes")
        let memory = try MemoryProbe.measure(paths.binary, runs: memoryRuns)
        log.line("  memory.open-xml: \(memoryRuns) fresh processes")
        let memoryXML = try MemoryProbe.measure(paths.xml, runs: memoryRuns)
        return SizeResult(
            items: items, facts: facts,
            records: Self.records(items: items, samples, memory: memory, memoryXML: memoryXML))
    }

    /// Generates the current-version document through OutlineKit and saves it as binary and
    /// XML; generates the same tree in schema version 1 and saves it as binary. With
    /// `binaryOnly`, only the current-version binary document.
    private func writeDocuments(_ tree: OutlineTree, bundle: ModelBundle, paths: Paths, binaryOnly: Bool) throws {
        let text = DocumentFactory.plainText(tree)
        let current = try DocumentFactory.store(tree, schema: bundle.current, text: text)
        try current.save(to: paths.binary, format: .binary)
        if binaryOnly { return }
        try current.save(to: paths.xml, format: .xml)
        guard let first = bundle.version(named: "Outline") else {
            throw BenchmarkError("the outline model has no version called \"Outline\" (v1)")
        }
        let old = try DocumentFactory.store(tree, schema: first, text: text)
        try old.save(to: paths.v1, format: .binary)
    }

    /// `binary.open`, `binary.save`, `xml.open`, `xml.save`: file to graph ready to query and
    /// graph to durable file, at the default compression level. Each opened store is released
    /// before the next run, outside the timing. With `binaryOnly`, the binary records only.
    private func measureStores(_ schema: Schema, paths: Paths, binaryOnly: Bool, into samples: inout [String: Sample]) throws {
        var opened: PersistentStore?
        samples["binary.open"] = try measurer.measure(
            "binary.open", prepare: { opened = nil },
            run: {
                opened = try PersistentStore.open(paths.binary, schema: schema)
            })
        guard let store = opened else { throw BenchmarkError("binary.open opened nothing") }
        samples["binary.save"] = try measurer.measure("binary.save") {
            try store.save(to: paths.binarySaved, format: .binary)
        }
        if binaryOnly { return }
        samples["xml.save"] = try measurer.measure("xml.save") {
            try store.save(to: paths.xmlSaved, format: .xml)
        }
        opened = nil
        samples["xml.open"] = try measurer.measure(
            "xml.open", prepare: { opened = nil },
            run: {
                opened = try PersistentStore.open(paths.xml, schema: schema)
            })
    }

    /// The floors, on the files the library wrote.
    private func measureFloors(_ paths: Paths, into samples: inout [String: Sample]) throws {
        samples["floor.binary-open"] = try measurer.measure("floor: read + inflate (1 thread)") {
            _ = try BinaryFloor.readAndInflate(paths.binary)
        }
        let inflated = try BinaryFloor.readAndInflate(paths.binary)
        if inflated.framing.level != BinaryStore.defaultCompressionLevel {
            log.line("  note: the document was written at level \(inflated.framing.level), the default is \(BinaryStore.defaultCompressionLevel)")
        }
        samples["floor.binary-save"] = try measurer.measure("floor: deflate (1 thread) + write") {
            try BinaryFloor.deflateAndWrite(
                inflated.body, framing: inflated.framing, header: inflated.header,
                level: inflated.framing.level, to: paths.floorBinary)
        }
        samples["floor.v1-open"] = try measurer.measure("floor: read + inflate v1") {
            _ = try BinaryFloor.readAndInflate(paths.v1)
        }
        var tally = XMLFloor.Tally()
        samples["floor.xml-open"] = try measurer.measure("floor: libxml2 SAX2 pass") {
            tally = try XMLFloor.saxPass(paths.xml)
        }
        guard tally.elements > items else {
            throw BenchmarkError("the SAX2 pass saw \(tally.elements) elements for \(items) items")
        }
        let xml = try PlainFile.readAll(paths.xml)
        samples["floor.xml-save"] = try measurer.measure("floor: write XML bytes") {
            try XMLFloor.write(xml, to: paths.floorXML)
        }
    }

    /// `convert.*` and `migrate.v1-to-current`: exactly what `outline convert` and
    /// `outline migrate --output` call.
    private func measureCommands(_ bundle: ModelBundle, paths: Paths, into samples: inout [String: Sample]) throws {
        samples["convert.binary-to-xml"] = try measurer.measure("convert.binary-to-xml") {
            _ = try DocumentConverter.convert(input: paths.binary, output: paths.convertedXML, to: .xml, model: bundle)
        }
        samples["convert.xml-to-binary"] = try measurer.measure("convert.xml-to-binary") {
            _ = try DocumentConverter.convert(input: paths.xml, output: paths.convertedBinary, to: .binary, model: bundle)
        }
        samples["migrate.v1-to-current"] = try measurer.measure("migrate.v1-to-current") {
            let outcome = try DocumentMigration.migrate(path: paths.v1, model: bundle, output: paths.migrated)
            guard outcome.didMigrate else { throw BenchmarkError("the v1 document was not migrated") }
        }
    }

    /// `edit.add`, `edit.move`, `edit.remove` on a copy of the document, each a whole CLI command
    /// (`outline add|move|remove`): open, edit through ``OutlineKit/OutlineDocument``, save. Each
    /// round adds an item at the end of the top level, moves it to the front of item 1, and
    /// removes it again, so every round starts from the same document.
    private func measureEdits(_ paths: Paths, into samples: inout [String: Sample]) throws {
        scratch.removeFile(URL(fileURLWithPath: paths.edited).lastPathComponent)
        try FileManager.default.copyItem(atPath: paths.binary, toPath: paths.edited)
        var added = ""
        let cycle = try measurer.measureCycle([
            (
                "edit.add (outline add)",
                {
                    let file = try OutlineFile.open(paths.edited)
                    let parent = try file.item(at: "/")
                    let item = try file.attributing(at: "/") { try file.document.insertItem("Added by the benchmark", under: parent) }
                    try file.save()
                    added = file.path(of: item)
                }
            ),
            (
                "edit.move (outline move --under 1 --at 1)",
                {
                    let file = try OutlineFile.open(paths.edited)
                    let item = try file.item(at: added)
                    let destination = try file.item(at: "1")
                    try file.attributing(at: added) { try file.document.moveItem(item, under: destination, at: 0) }
                    try file.save()
                }
            ),
            (
                "edit.remove (outline remove 1.1)",
                {
                    let file = try OutlineFile.open(paths.edited)
                    let item = try file.item(at: "1.1")
                    try file.attributing(at: "1.1") { try file.document.deleteItem(item) }
                    try file.save()
                }
            ),
        ])
        samples["edit.add"] = cycle[0]
        samples["edit.move"] = cycle[1]
        samples["edit.remove"] = cycle[2]
    }

    /// The peers on the same tree: SQLite through GRDB and Codable JSON.
    private func measurePeers(_ rows: [ItemRow], paths: Paths, into samples: inout [String: Sample]) throws {
        let sqliteName = URL(fileURLWithPath: paths.sqlite).lastPathComponent
        samples["peer.grdb-insert-all"] = try measurer.measure(
            "peer: GRDB insert all (1 transaction)",
            prepare: {
                for suffix in ["", "-journal", "-wal", "-shm"] { scratch.removeFile(sqliteName + suffix) }
            },
            run: {
                try SQLitePeer.insertAll(rows, into: paths.sqlite)
            })
        var fetched: [ItemRow] = []
        samples["peer.grdb-fetch-all"] = try measurer.measure(
            "peer: GRDB fetch all", prepare: { fetched = [] },
            run: {
                fetched = try SQLitePeer.fetchAll(from: paths.sqlite)
            })
        guard fetched == rows else { throw BenchmarkError("GRDB fetched \(fetched.count) rows that differ from the \(rows.count) inserted") }
        samples["peer.json-encode"] = try measurer.measure("peer: JSONEncoder + write") {
            try JSONPeer.save(rows, to: paths.json)
        }
        samples["peer.json-decode"] = try measurer.measure(
            "peer: read + JSONDecoder", prepare: { fetched = [] },
            run: {
                fetched = try JSONPeer.open(paths.json)
            })
        guard fetched == rows else { throw BenchmarkError("JSONDecoder read \(fetched.count) rows that differ from the \(rows.count) written") }
    }

    private func megabytes(_ count: Int) -> String {
        String(format: "%.1f MB", Double(count) / 1e6)
    }
}
