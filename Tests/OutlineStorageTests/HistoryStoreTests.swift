import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

/// Undo histories kept in documents: every kind of change through both formats and back, the
/// binary section and the XML metadata key, conversion, and documents changed without the history.
@Suite struct HistoryStoreTests {
    /// The scenario's document with its history, as `format` bytes, and the context it came from.
    private func saved(_ scenario: HistoryScenarios.Scenario, as format: DocumentFormat) throws -> (bytes: [UInt8], original: EditingContext) {
        let base = try HistoryScenarios.base()
        for _ in 0 ..< (try scenario.edit(base)) { base.context.undo() }
        let store = PersistentStore(context: base.context, format: format)
        store.keepsHistory = true
        try store.save()
        return (try #require(store.savedBytes), base.context)
    }

    /// Undoes every step of `original` and `restored` side by side, then redoes them all,
    /// comparing every object after each step.
    private func walk(_ original: EditingContext, _ restored: EditingContext, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(GraphState(restored.graph) == GraphState(original.graph), sourceLocation: sourceLocation)
        while original.canUndo {
            #expect(restored.undoActionName == original.undoActionName, sourceLocation: sourceLocation)
            original.undo()
            restored.undo()
            #expect(GraphState(restored.graph) == GraphState(original.graph), sourceLocation: sourceLocation)
        }
        #expect(!restored.canUndo, sourceLocation: sourceLocation)
        while original.canRedo {
            original.redo()
            restored.redo()
            #expect(GraphState(restored.graph) == GraphState(original.graph), sourceLocation: sourceLocation)
        }
        #expect(!restored.canRedo, sourceLocation: sourceLocation)
    }

    @Test(arguments: HistoryScenarios.all, [DocumentFormat.binary, .xml])
    func everyKindOfChangeUndoesAndRedoesAfterReopening(_ scenario: HistoryScenarios.Scenario, _ format: DocumentFormat) throws {
        let (bytes, original) = try saved(scenario, as: format)
        let store = try PersistentStore.load(bytes)
        #expect(store.format == format)
        #expect(store.restoreHistory() == .restored)
        #expect(store.context.undoStepCount == original.undoStepCount)
        #expect(store.context.redoStepCount == original.redoStepCount)
        #expect(!store.hasChanges)
        walk(original, store.context)
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func conversionCarriesTheHistoryUnread(_ target: DocumentFormat) throws {
        let scenario = HistoryScenarios.all.first { $0.name == "several steps, some undone" }!
        let (bytes, original) = try saved(scenario, as: target == .binary ? .xml : .binary)
        let converted = try PersistentStore.load(bytes).encoded(as: target)
        let store = try PersistentStore.load(converted)
        #expect(store.format == target)
        #expect(store.restoreHistory() == .restored)
        walk(original, store.context)
    }

    @Test func savingChangedObjectsWithoutTheHistoryDropsIt() throws {
        let (bytes, _) = try saved(HistoryScenarios.all[0], as: .binary)
        let store = try PersistentStore.load(bytes)
        let item = try #require(store.context.object(with: ObjectID(104)))
        try store.context.setValue(.string("changed elsewhere"), forKey: "title", of: item)
        let store2 = try PersistentStore.load(try store.encoded())
        #expect(store2.restoreHistory() == .none)
    }

    @Test func theBinarySectionIsOptionalAndMarksMinorVersionOne() throws {
        let (bytes, _) = try saved(HistoryScenarios.all[1], as: .binary)
        #expect(bytes[10] == 1 && bytes[11] == 0)
        let plain = try BinaryStore.write(try HistoryScenarios.base().context.graph, metadata: StoreMetadata(format: .binary))
        #expect(plain[10] == 0 && plain[11] == 0)
        let header = try bytes.withUnsafeBytes { try BinaryHeader.read($0, file: "t", limits: .default) }
        let body = try bytes.withUnsafeBytes { raw in
            try ChunkCompression.withInflatedBody(raw, header: header, file: "t") { body, _ in Array(body) }
        }
        // The table: two sections, objects required, history (id 2) optional.
        try body.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw, file: "t", region: .body)
            #expect(try cursor.readVarint() == 2)
            #expect(try cursor.readVarint() == 1 && cursor.readVarint() == BinaryFormat.requiredFlag)
            _ = try cursor.readUInt64()
            #expect(try cursor.readVarint() == 2 && cursor.readVarint() == 0)
            // A reader that knows only the objects section skips the history.
            var old = ByteCursor(raw, file: "t", region: .body)
            let sections = try SectionTable.read(&old, place: "the body") { $0 == 1 ? "objects" : nil }
            #expect(sections.map(\.id) == [1])
        }
    }

    /// The XML store with the history differs from the one without only by the metadata key.
    @Test func theXMLStoreKeepsItsLayoutWithOneMoreMetadataKey() throws {
        let base = try HistoryScenarios.base()
        try base.context.delete(base["A1"])
        let store = PersistentStore(context: base.context, format: .xml)
        store.keepsHistory = true
        let with = String(decoding: try store.encoded(), as: UTF8.self)
        store.keepsHistory = false
        let without = String(decoding: try store.encoded(), as: UTF8.self)

        var lines = with.components(separatedBy: "\n")
        let key = try #require(lines.firstIndex { $0.hasSuffix("<key>OutlineUndoHistory</key>") })
        let indent = String(lines[key].prefix { $0 == " " })
        #expect(lines[key + 1] == indent + "<dict>")
        let end = try #require(lines[(key + 1)...].firstIndex { $0 == indent + "</dict>" })
        #expect(lines[key + 2 ..< end].joined().contains("<key>zlib</key>"))
        lines.removeSubrange(key ... end)
        #expect(lines.joined(separator: "\n") == without)
        #expect(
            without.hasPrefix("<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">"))
        // Readers that keep custom metadata see no custom key: it is reserved.
        #expect(try XMLStore.read(Data(with.utf8), schema: nil, file: "t").metadata.custom.isEmpty)
    }

    @Test func aCoreDataAppRewritingTheObjectsIsCaughtByTheDigest() throws {
        let (bytes, _) = try saved(HistoryScenarios.all[2], as: .xml)
        let text = String(decoding: bytes, as: UTF8.self)
        // The app changed one item's title and kept the metadata dictionary as it was.
        let edited = text.replacingOccurrences(of: ">C – é<", with: ">C, renamed elsewhere<")
        #expect(edited != text)
        let store = try PersistentStore.load(Array(edited.utf8))
        guard case .unusable(let error) = store.restoreHistory() else {
            Issue.record("a history of other objects was restored")
            return
        }
        #expect(error.code == .historyMismatch)
        #expect(
            error.description == "document: the document was changed by a program that does not keep its undo history; "
                + "undoing the recorded steps could undo the wrong things. Clear the undo history to keep editing with undo from here on; the document itself is fine."
        )
        #expect(!store.context.canUndo)
    }

    @Test func aBinaryDocumentWhoseObjectsChangedBesideItsHistoryIsCaught() throws {
        let (bytes, _) = try saved(HistoryScenarios.all[2], as: .binary)
        let first = try PersistentStore.load(bytes)
        guard case .binary(let payload, _)? = first.historyState.stored else {
            Issue.record("no history section")
            return
        }
        let item = try #require(first.context.object(with: ObjectID(105)))
        try first.context.setValue(.string("elsewhere"), forKey: "note", of: item)
        let forged = try StoreCodec.write(
            first.context.graph.snapshot(), metadata: first.metadata, format: .binary, level: 1, file: nil,
            history: HistoryPayload(bytes: payload, fillsDigest: false))
        guard case .unusable(let error) = try PersistentStore.load(forged).restoreHistory() else {
            Issue.record("a history of other objects was restored")
            return
        }
        #expect(error.code == .historyMismatch)
    }

    @Test func theStepLimitIsKeptInTheDocument() throws {
        let base = try HistoryScenarios.base()
        for i in 0 ..< 8 { try base.context.setValue(.string("n\(i)"), forKey: "note", of: base["B"]) }
        let store = PersistentStore(context: base.context)
        store.keepsHistory = true
        store.historyStepLimit = 3
        try store.save()
        #expect(store.historyStepsLeftOut == 0)
        let reopened = try PersistentStore.load(try #require(store.savedBytes))
        #expect(reopened.restoreHistory() == .restored)
        #expect(reopened.historyStepLimit == 3)
        #expect(reopened.context.undoStepCount == 3)
    }

    @Test func clearingTheHistoryWritesNone() throws {
        let (bytes, _) = try saved(HistoryScenarios.all[0], as: .binary)
        let store = try PersistentStore.load(bytes)
        #expect(store.restoreHistory() == .restored)
        store.clearHistory()
        #expect(store.hasChanges)
        let cleared = try PersistentStore.load(try store.encoded())
        #expect(cleared.restoreHistory() == .none)
        #expect(try store.encoded() == (try BinaryStore.write(store.context.graph, metadata: store.metadata, level: 1)))
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func aDamagedHistoryLeavesTheDocumentReadable(_ format: DocumentFormat) throws {
        let base = try HistoryScenarios.base()
        try base.context.delete(base["A"])
        let payload = HistoryCoding.encode(base.context.exportUndoHistory(), stepLimit: 100).bytes
        let damaged = Array(payload.dropLast(3))
        let bytes = try StoreCodec.write(
            base.context.graph.snapshot(), metadata: StoreMetadata(format: format, embeddedSchema: base.context.schema),
            format: format, level: 1, file: nil, history: HistoryPayload(bytes: damaged, fillsDigest: true))
        let store = try PersistentStore.load(bytes, name: "notes.outline")
        #expect(GraphState(store.context.graph) == GraphState(base.context.graph))
        guard case .unusable(let error) = store.restoreHistory() else {
            Issue.record("a damaged history was restored")
            return
        }
        #expect(error.code == .corrupt)
        #expect(error.location?.hasPrefix("history byte ") == true)
        #expect(error.hint == HistoryCoding.damagedHint)
        #expect(!store.context.canUndo)
    }

    @Test func theHistoryFixtureIsTakenOverAndUndoes() throws {
        let store = try PersistentStore.load(try BinaryFixtures.bytes("with-history.outline"), name: "with-history.outline")
        #expect(store.restoreHistory() == .restored)
        #expect(store.context.undoStepNames.count == 2 && store.context.redoStepNames == ["Add item"])
        let before = GraphState(store.context.graph)
        store.context.undo()
        store.context.undo()
        #expect(store.context.graph.count(ofEntity: 0) == 12)
        store.context.redo()
        store.context.redo()
        #expect(GraphState(store.context.graph) == before)
    }
}
