import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// What a reader accepts, every format can write and read back: the stores' fixtures, seeded
/// random edits of them (numbers at their edges included) and graphs with every edge value are
/// read, saved as binary and as XML, and opened again, with their model and with the one the
/// saved file embeds. A save that a reader would refuse must be refused before writing
/// (``StoreLimits``), never written.
@Suite struct WriteAfterReadTests {
    /// Saves `store` in every format and opens each file again; returns the failures.
    static func failures(_ store: PersistentStore, label: String) -> [String] {
        var failures: [String] = []
        for format in [DocumentFormat.binary, .xml] {
            let bytes: [UInt8]
            do {
                bytes = try store.encoded(as: format)
            } catch let error as StorageError where error.code == .limitExceeded {
                continue  // Refused before writing: allowed, nothing unreadable was made.
            } catch {
                failures.append("\(label) as \(format): cannot be written: \(error)")
                continue
            }
            for schema in [store.schema, nil] {
                do {
                    let again = try PersistentStore.load(bytes, schema: schema, name: "again")
                    if snapshot(again.context.graph) != snapshot(store.context.graph) {
                        failures.append("\(label) as \(format)\(schema == nil ? " (embedded model)" : ""): reads back differently")
                    }
                    if again.metadata.custom.map(\.key) != store.metadata.custom.map(\.key) {
                        failures.append("\(label) as \(format): its custom metadata keys differ")
                    }
                    if store.historyStatus == .restored, again.restoreHistory() != .restored {
                        failures.append("\(label) as \(format): its undo history is refused once written (\(again.historyStatus))")
                    }
                } catch {
                    failures.append("\(label) as \(format)\(schema == nil ? " (embedded model)" : ""): written but unreadable: \(error)")
                }
            }
        }
        return failures
    }

    static let xmlFixtures: [(String, XMLStoreWritingTests.Model)] = [
        ("NestedList.xml", .nestedList), ("NestedList.xml", .derived), ("AllTypes.xml", .allTypes), ("AllTypes.xml", .derived),
        ("EmbeddedModel.xml", .embedded), ("CustomMetadata.xml", .nestedList), ("CustomMetadata.xml", .derived),
        ("PrologStandaloneNo.xml", .derived), ("PrologPlain.xml", .derived), ("Escapes.xml", .derived),
        ("FrameworkDigest.xml", .derived), ("Real/Vehicles.xml", .derived), ("Malformed/WrongHashes.xml", .derived),
    ]

    @Test(arguments: xmlFixtures.indices)
    func everyReadableXMLFixtureIsWrittenInEveryFormatAndReadBack(_ index: Int) throws {
        let (fixture, model) = Self.xmlFixtures[index]
        let store = try PersistentStore.load([UInt8](try XMLFixture.data(fixture)), schema: try model.schema(), name: fixture)
        let failures = Self.failures(store, label: fixture)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Seeded random edits (`XMLRegions`, whose replacements include numbers at their edges:
    /// ids past 2^62 and 2^64, `nan`, `inf`, `1e308`, ...): every edited store that loads is
    /// written in every format and read back.
    @Test(arguments: [
        ("NestedList.xml", XMLStoreWritingTests.Model.nestedList), ("AllTypes.xml", .allTypes),
        ("EmbeddedModel.xml", .embedded), ("CustomMetadata.xml", .derived),
    ])
    func randomlyEditedXMLThatLoadsIsWrittenAndReadBack(_ fixture: String, _ model: XMLStoreWritingTests.Model) throws {
        let bytes = [UInt8](try XMLFixture.data(fixture))
        let schema = try model.schema()
        let regions = XMLRegions(bytes)
        var generator = SplitMix64(seed: XMLDamageTests.seed &+ 0x5A5A &+ UInt64(bytes.count))
        var loaded = 0
        var failures: [String] = []
        for variant in 0 ..< 300 {
            var edited = bytes
            for _ in 0 ..< Int.random(in: 1 ... 2, using: &generator) { _ = regions.edit(&edited, using: &generator) }
            guard let store = try? PersistentStore.load(edited, schema: schema, name: "edited.xml") else { continue }
            loaded += 1
            failures += Self.failures(store, label: "\(fixture) variant \(variant)")
        }
        print("write after read, \(fixture): \(loaded) of 300 edited stores loaded, \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Seeded edits of a binary document's inflated body and header values, resealed so they
    /// get past the checksums: every edited document that loads is written and read back.
    @Test func randomlyEditedBinaryThatLoadsIsWrittenAndReadBack() throws {
        let original = [UInt8](try Data(contentsOf: Fixtures.folder.appending(path: "Binary/small-outline.outline")))
        var generator = SplitMix64(seed: 0xB1_4A_21)
        var loaded = 0
        var failures: [String] = []
        let edges: [[UInt8]] = [
            [0x00], [0xFF], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x7F],
            [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x7F], [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40],
        ]
        for variant in 0 ..< 400 {
            let edited = try BinaryCrafting.rewritingBody(original, level: 1) { body in
                let index = Int.random(in: 0 ..< body.count, using: &generator)
                let fill = Bool.random(using: &generator) ? [UInt8.random(in: 0 ... 255, using: &generator)] : edges.randomElement(using: &generator)!
                body.replaceSubrange(index ..< min(body.count, index + fill.count), with: fill)
            }
            guard let store = try? PersistentStore.load(edited, name: "edited.outline") else { continue }
            loaded += 1
            failures += Self.failures(store, label: "binary variant \(variant)")
        }
        print("write after read, binary body edits: \(loaded) of 400 loaded, \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Values at the edges of every attribute type and custom metadata at the deepest nesting: written in every format and read back exactly.
    @Test func edgeValuesAreWrittenInEveryFormatAndReadBack() throws {
        let edges: [(String, Value)] =
            BinaryRoundTripTests.samples + [
                ("date", .date(Date(timeIntervalSinceReferenceDate: StoreLimits.earliestDate))),
                ("date", .date(Date(timeIntervalSinceReferenceDate: StoreLimits.endOfDates - 0.5))),
                ("date", .date(.distantPast)), ("date", .date(.distantFuture)),
                ("decimal", .decimal(.nan)), ("decimal", .decimal(Decimal(string: "1e120")!)),
                ("double", .double(-.infinity)), ("double", .double(.greatestFiniteMagnitude)),
                ("string", .string("<&>\"'\\u2600 \t\n\r")), ("binary", .binary(Data(repeating: 0, count: 100_000))),
            ]
        let store = PersistentStore(schema: try StoreTestSchemas.allTypes())
        for (key, value) in edges { try store.context.setValue(value, forKey: key, of: try store.context.insert("Sample")) }
        var deep = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 12.75))
        for level in 1 ..< StoreLimits.maximumMetadataDepth { deep = level % 2 == 0 ? .array([deep]) : .dictionary([("k", deep)]) }
        store[metadata: "deep"] = deep
        store[metadata: "numbers"] = .array([.integer(.min), .integer(.max), .real(.nan), .real(-0.0), .real(.infinity)])
        let failures = Self.failures(store, label: "edge values")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
