import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

/// The bytes of an undo history: round trips, limits shared by writer and reader, and hostile
/// input, which must give a ``StorageError`` with a message and never a crash.
@Suite struct HistoryCodingTests {
    /// A history with every kind of change and value, and the context it came from.
    private func sample() throws -> (UndoHistory, EditingContext) {
        let base = try HistoryScenarios.base()
        let scenario = HistoryScenarios.all.first { $0.name == "several steps, some undone" }!
        for _ in 0 ..< (try scenario.edit(base)) { base.context.undo() }
        try base.context.setValue(.decimal(Decimal(string: "3.25")!), forKey: "price", of: base["C"])
        try base.context.setValue(.uuid(UUID()), forKey: "uid", of: base["C"])
        return (base.context.exportUndoHistory(), base.context)
    }

    private func decode(_ bytes: [UInt8]) throws -> HistoryRecord {
        try bytes.withUnsafeBytes { try HistoryCoding.decode($0, file: "notes.outline") }
    }

    /// Expects `bytes` refused with `code` and a message containing `words`.
    private func expectRefused(
        _ bytes: [UInt8], _ code: StorageError.Code, _ words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: StorageError.self, sourceLocation: sourceLocation) { try decode(bytes) }
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.description.contains(words) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.hint == HistoryCoding.damagedHint, sourceLocation: sourceLocation)
    }

    @Test func aHistoryReadsBackAsItWasWritten() throws {
        let (history, _) = try sample()
        let digest = (0 ..< 32).map { UInt8($0) }
        let (bytes, leftOut) = HistoryCoding.encode(history, stepLimit: 42, digest: digest)
        #expect(leftOut == 0)
        let record = try decode(bytes)
        #expect(record == HistoryRecord(stateDigest: digest, stepLimit: 42, history: history))
        // Deterministic: the same history gives the same bytes.
        #expect(HistoryCoding.encode(history, stepLimit: 42, digest: digest).bytes == bytes)
    }

    @Test func theStepLimitKeepsTheNearestSteps() throws {
        let (history, _) = try sample()
        let (bytes, _) = HistoryCoding.encode(history, stepLimit: 2)
        let record = try decode(bytes)
        #expect(record.history.undoSteps == Array(history.undoSteps.suffix(2)))
        #expect(record.history.redoSteps.isEmpty)
    }

    @Test func aHistoryOverTheByteLimitLosesItsOldestSteps() throws {
        let big = String(repeating: "x", count: 23 << 20)
        let steps = (0 ..< 3).map { i in
            UndoHistory.Step(name: "Paste \(i)", changes: [.attribute(ObjectID(102), "note", old: .string(big))])
        }
        let (bytes, leftOut) = HistoryCoding.encode(UndoHistory(undoSteps: steps), stepLimit: 100)
        #expect(leftOut == 1)
        #expect(bytes.count <= HistoryLimits.maximumBytes)
        #expect(try decode(bytes).history.undoSteps.map(\.name) == ["Paste 1", "Paste 2"])
    }

    @Test func longStepNamesAreShortenedAtACharacterBoundary() throws {
        let name = String(repeating: "é", count: 2_000)
        let (bytes, _) = HistoryCoding.encode(UndoHistory(undoSteps: [.init(name: name, changes: [])]), stepLimit: 1)
        let kept = try #require(try decode(bytes).history.undoSteps.first?.name)
        #expect(kept.utf8.count <= HistoryLimits.maximumNameBytes)
        #expect(kept.hasSuffix("…") && kept.dropLast().allSatisfy { $0 == "é" })
    }

    @Test func everyTruncationIsRefusedWithAPlace() throws {
        let (history, _) = try sample()
        let bytes = HistoryCoding.encode(history, stepLimit: 100).bytes
        for count in 0 ..< bytes.count {
            let error = #expect(throws: StorageError.self) { try decode(Array(bytes.prefix(count))) }
            #expect(error?.code == .corrupt, "\(count): \(String(describing: error))")
            #expect(error?.location?.hasPrefix("history byte ") == true)
        }
    }

    @Test func everyBitFlipIsRefusedOrFitsOrIsRefusedByTheEngine() throws {
        let (history, context) = try sample()
        let bytes = HistoryCoding.encode(history, stepLimit: 100).bytes
        let saved = try context.graph.reloaded()
        var outcomes = (refused: 0, mismatched: 0, imported: 0)
        for index in bytes.indices {
            for bit in 0 ..< 8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                let record: HistoryRecord
                do {
                    record = try decode(flipped)
                } catch let error as StorageError {
                    #expect(!error.message.isEmpty)
                    outcomes.refused += 1
                    continue
                }
                // What decodes is checked against the objects by the engine.
                let target = EditingContext(graph: try saved.reloaded())
                do {
                    try target.importUndoHistory(record.history)
                    outcomes.imported += 1
                } catch let error as EngineError {
                    #expect(error.code == .historyMismatch)
                    outcomes.mismatched += 1
                }
            }
        }
        #expect(outcomes.refused > 0 && outcomes.mismatched > 0 && outcomes.imported > 0, "\(outcomes)")
    }

    @Test func limitsAndFormErrorsNameWhatIsWrong() throws {
        let digest = [UInt8](repeating: 0, count: 32)
        func record(_ tail: [UInt8], version: UInt8 = 1, limit: [UInt8] = [100]) -> [UInt8] { [version] + digest + limit + tail }
        expectRefused(
            record([0, 0, 0], version: 2), .unsupportedVersion, "history byte 0: the undo history has format version 2; this version reads 1")
        expectRefused(record([0, 0, 0], limit: [0]), .corrupt, "history byte 33: the step limit is 0")
        expectRefused(record([0, 0, 0], limit: [0x91, 0x4E]), .limitExceeded, "the step limit is 10001, over the limit of 10000")
        expectRefused(record([0x81, 0x80, 0x04]), .limitExceeded, "the number of names is 65537, over the limit of 65536")
        expectRefused(record([0, 0x91, 0x4E]), .limitExceeded, "the number of undo steps is 10001, over the limit of 10000")
        expectRefused(record([0, 2, 0, 0, 0, 0, 0], limit: [1]), .corrupt, "the undo history holds 2 steps, more than its limit of 1")
        expectRefused(record([0, 1, 0, 0, 1, 9, 0]), .corrupt, "a change has kind 9, which is not one of 1 to 7")
        expectRefused(record([1, 4, 0x6E, 0x6F, 0x74, 0x65, 1, 0, 0, 1, 3, 0x66, 0, 10]), .corrupt, "a value has type tag 10")
        expectRefused(record([0, 1, 0, 0, 1, 3, 0x66, 5]), .corrupt, "name number 5 is not in the table of 0 names")
        expectRefused(
            record([0, 1, 0, 0, 1, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), .corrupt,
            "object id 9223372036854775808 is over the largest allowed id")
        expectRefused(record([0, 1, 0, 2, 0, 0]), .corrupt, "the name flag is 2, not 0 or 1")
        expectRefused(record([0, 0, 0, 7]), .corrupt, "1 byte left over at the end of the undo history")
        expectRefused(record([1, 1, 0x78, 1, 0, 0, 1, 3, 0x66, 0, 3, 3, 0x31, 0x2E, 0x30]), .corrupt, "\"1.0\" is not a decimal number")
    }

    @Test func theXMLFormIsCheckedBeforeInflating() throws {
        func refused(
            _ value: PropertyListValue, _ code: StorageError.Code, _ words: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let error = #expect(throws: StorageError.self, sourceLocation: sourceLocation) {
                try XMLHistoryForm.record(from: value, file: "notes.xml")
            }
            #expect(error?.code == code, sourceLocation: sourceLocation)
            #expect(error?.description.contains(words) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
        }
        let good = XMLHistoryForm.value(for: Array(repeating: 7, count: 1000))
        #expect(try XMLHistoryForm.record(from: good, file: "t") == Array(repeating: 7, count: 1000))
        guard case .dictionary(let entries) = good else { return }
        func replacing(_ key: String, _ value: PropertyListValue) -> PropertyListValue {
            .dictionary(entries.map { $0.key == key ? ($0.key, value) : $0 })
        }
        refused(.string("x"), .corrupt, "notes.xml: metadata key OutlineUndoHistory: the undo history is not a dictionary")
        refused(replacing("format", .integer(2)), .unsupportedVersion, "is kept in form 2; this version reads form 1")
        refused(replacing("size", .integer(Int64(HistoryLimits.maximumBytes) + 1)), .limitExceeded, "over the limit of 67108864")
        refused(replacing("size", .integer(60_000_000)), .limitExceeded, "more than zlib can expand")
        refused(replacing("size", .integer(999)), .corrupt, "does not inflate to its declared 999 bytes")
        refused(replacing("zlib", .array([.string("x")])), .corrupt, "a piece of the undo history is not data")
    }

    @Test func theXMLFormSplitsLargeHistoriesIntoPieces() throws {
        // Bytes that do not compress (xorshift), so that the deflated history needs two pieces.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = [UInt8](unsafeUninitializedCapacity: HistoryLimits.xmlPieceBytes + 1000) { buffer, count in
            for i in buffer.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                buffer[i] = UInt8(truncatingIfNeeded: state)
            }
            count = buffer.count
        }
        let value = XMLHistoryForm.value(for: noise)
        guard case .dictionary(let entries) = value, case .array(let pieces)? = entries.first(where: { $0.key == "zlib" })?.value else {
            Issue.record("not the documented form")
            return
        }
        #expect(pieces.count == 2)
        #expect(try XMLHistoryForm.record(from: value, file: "t") == noise)
    }
}
