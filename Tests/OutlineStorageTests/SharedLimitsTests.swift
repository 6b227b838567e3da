import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Readers and writers share one set of limits (``StoreLimits``): what one reader refuses, the
/// other refuses too, and no save writes it. Each test here is a finding of the hostile pass
/// of issue 21 that made a save write a file no reader opens, or a reader trap.
@Suite struct SharedLimitsTests {
    /// The small nested-list document, as bytes of a binary document whose header says
    /// `nextObjectID` (checksums fixed).
    static func binaryDocument(nextObjectID: UInt64) throws -> [UInt8] {
        let small = [UInt8](try Data(contentsOf: Fixtures.folder.appending(path: "Binary/small-outline.outline")))
        return try BinaryCrafting.rewritingHeader(small) { $0.nextObjectID = nextObjectID }
    }

    @Test func aBinaryDocumentAtTheLastIDRefusesANewObjectAndStaysReadable() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/full.outline"
        let bytes = try Self.binaryDocument(nextObjectID: StoreLimits.maximumNextObjectID)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try PersistentStore.open(path)
        let error = #expect(throws: EngineError.self) { try store.context.insert("Item") }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.description
                == "Item: the document has used every object id up to z4611686018427387904 (next would be z4611686018427387905). No more objects can be added to this document; copy its objects into a new one."
        )
        #expect(!store.hasChanges)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        _ = try PersistentStore.open(path)
    }

    @Test func theLastIDCanBeUsedAndTheDocumentReadsBackInEveryFormat() throws {
        let store = try PersistentStore.load(try Self.binaryDocument(nextObjectID: StoreLimits.maximumObjectID))
        let last = try store.context.insert("Item")
        #expect(store.context.objectID(of: last).rawValue == StoreLimits.maximumObjectID)
        #expect(throws: EngineError.self) { try store.context.insert("Item") }
        for format in [DocumentFormat.binary, .xml] {
            let again = try PersistentStore.load(try store.encoded(as: format))
            #expect(again.context.graph.object(with: ObjectID(StoreLimits.maximumObjectID)) != nil)
            #expect(throws: EngineError.self) { try again.context.insert("Item") }
        }
    }

    /// The nested-list store with `edit` applied to its text.
    static func xmlStore(_ edit: (String) -> String) throws -> Data {
        Data(edit(XMLFixture.text(try XMLFixture.data("NestedList.xml"))).utf8)
    }

    @Test(arguments: [
        (
            "z102", "z4611686018427387905",
            "x.xml: line 31: the object id z4611686018427387905 is over the largest object id a document may hold (z4611686018427387904). Core Data numbers its objects from z102 up; the file was not written by Core Data or was edited."
        ),
        (
            "z102", "z18446744073709551615",
            "x.xml: line 31: the object id z18446744073709551615 is over the largest object id a document may hold (z4611686018427387904). Core Data numbers its objects from z102 up; the file was not written by Core Data or was edited."
        ),
        (
            "<nextObjectID>107<", "<nextObjectID>4611686018427387905<",
            "x.xml: line 8: <nextObjectID> is 4611686018427387905, over the largest object id a document may hold (z4611686018427387904). Core Data numbers its objects from z102 up; the file was not written by Core Data or was edited."
        ),
        (
            "<nextObjectID>107<", "<nextObjectID>18446744073709551614<",
            "x.xml: line 8: <nextObjectID> is 18446744073709551614, over the largest object id a document may hold (z4611686018427387904). Core Data numbers its objects from z102 up; the file was not written by Core Data or was edited."
        ),
    ])
    func xmlIDsOverTheLimitAreRefused(_ original: String, _ replacement: String, _ message: String) throws {
        let data = try Self.xmlStore { $0.replacingOccurrences(of: original, with: replacement) }
        let error = #expect(throws: StorageError.self) { try XMLStore.read(data, schema: try XMLFixture.nestedListSchema(), file: "x.xml") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.description == message)
    }

    @Test func xmlAtTheLastIDReadsAndRefusesANewObject() throws {
        let data = try Self.xmlStore { $0.replacingOccurrences(of: "<nextObjectID>107<", with: "<nextObjectID>4611686018427387903<") }
        let store = try PersistentStore.load([UInt8](data), schema: try XMLFixture.nestedListSchema())
        try store.context.insert("Item")
        #expect(throws: EngineError.self) { try store.context.insert("Item") }
        _ = try PersistentStore.load(try store.encoded(as: .xml), schema: store.schema)
    }

    // MARK: Custom metadata

    /// XML metadata with `custom` inserted as the first entries of the metadata dictionary.
    static func xmlStore(metadata custom: String) throws -> Data {
        try xmlStore { $0.replacingOccurrences(of: "<dict>", with: "<dict>" + custom, options: [], range: $0.range(of: "<dict>")) }
    }

    static func nested(_ levels: Int) -> String {
        String(repeating: "<array>", count: levels - 1) + "<string>x</string>" + String(repeating: "</array>", count: levels - 1)
    }

    @Test(arguments: [
        ("<key>k</key><string>a</string><key>k</key><string>b</string>", "custom metadata key \"k\" appears twice"),
        ("<key>k</key><dict><key>n</key><true/><key>n</key><false/></dict>", "custom metadata \"k\" has the key \"n\" twice"),
        ("<key>k</key>" + nested(33), "custom metadata \"k\" nests deeper than 32 levels"),
    ])
    func xmlMetadataThatNoDocumentMayHoldIsRefused(_ custom: String, _ message: String) throws {
        let data = try Self.xmlStore(metadata: custom)
        let error = #expect(throws: StorageError.self) { try XMLStore.read(data, schema: try XMLFixture.nestedListSchema(), file: "m.xml") }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.description
                == "m.xml: line 30: \(message). No document may hold such metadata; the file was not written by this library or Core Data, or was edited."
        )
    }

    /// The binary reader refuses the same metadata at the same limits (it is written here
    /// past the writer's own check, which refuses it too).
    @Test(arguments: [
        (PropertyListValue.dictionary([("n", .boolean(true)), ("n", .boolean(false))]), "custom metadata \"k\" has the key \"n\" twice"),
        (
            .date(Date(timeIntervalSinceReferenceDate: .nan)),
            "custom metadata \"k\" holds the date nan (seconds since 2001), which is not a finite time between the years 0 and 9999, which is all a document may hold"
        ),
        (
            .date(Date(timeIntervalSinceReferenceDate: StoreLimits.endOfDates)),
            "custom metadata \"k\" holds the date 252423993600.0 (seconds since 2001), which is not a finite time between the years 0 and 9999, which is all a document may hold"
        ),
    ])
    func binaryMetadataThatNoDocumentMayHoldIsRefused(_ value: PropertyListValue, _ message: String) throws {
        let store = PersistentStore(schema: try StoreTestSchemas.nestedList())
        store[metadata: "k"] = value
        let save = #expect(throws: StorageError.self) { try store.encoded(as: .binary) }
        #expect(save?.code == .limitExceeded)
        #expect(save?.message == message)
        let bytes = try BinaryStore.encode(store.context.graph.snapshot(), metadata: store.metadata, level: 1)
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bytes, schema: nil, file: "m.outline") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == message)
    }

    @Test(arguments: [PropertyListValue.array([]), .dictionary([])])
    func metadataNestsThirtyTwoLevelsInEveryFormatAndNoMore(_ container: PropertyListValue) throws {
        func nest(_ levels: Int) -> PropertyListValue {
            var value = PropertyListValue.string("x")
            for _ in 1 ..< levels { value = container == .array([]) ? .array([value]) : .dictionary([("d", value)]) }
            return value
        }
        let store = PersistentStore(schema: try StoreTestSchemas.nestedList())
        store[metadata: "deep"] = nest(StoreLimits.maximumMetadataDepth)
        for format in [DocumentFormat.binary, .xml] {
            let again = try PersistentStore.load(try store.encoded(as: format), schema: store.schema)
            #expect(again.metadata[custom: "deep"] == nest(StoreLimits.maximumMetadataDepth))
        }
        store[metadata: "deep"] = nest(StoreLimits.maximumMetadataDepth + 1)
        for format in [DocumentFormat.binary, .xml] {
            let error = #expect(throws: StorageError.self) { try store.encoded(as: format) }
            #expect(error?.message == "custom metadata \"deep\" nests deeper than 32 levels")
        }
        let binary = try BinaryStore.encode(store.context.graph.snapshot(), metadata: store.metadata, level: 1)
        #expect(throws: StorageError.self) { try BinaryStore.read(binary, schema: nil, file: "deep.outline") }
        var metadata = store.metadata
        metadata.embeddedSchema = store.schema
        let xml = XMLStore.write(store.context.graph, metadata: metadata)
        #expect(throws: StorageError.self) { try XMLStore.read(xml, schema: nil, file: "deep.xml") }
    }

    // MARK: Dates

    @Test(arguments: ["nan", "inf", "-inf", "1e308", "-63145526401", "252423993600"])
    func xmlDatesNoDocumentMayHoldAreRefused(_ value: String) throws {
        let text = XMLFixture.text(try XMLFixture.data("AllTypes.xml"))
        let date = try #require(text.range(of: #"(?<=type="date">)[^<]+"#, options: .regularExpression))
        var edited = text
        edited.replaceSubrange(date, with: value)
        let error = #expect(throws: StorageError.self) {
            try XMLStore.read(Data(edited.utf8), schema: try XMLFixture.allTypesSchema(), file: "d.xml")
        }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message.hasSuffix("holds \"\(value)\", which is not a date a document may hold (a finite time between the years 0 and 9999)")
                == true,
            "\(String(describing: error))")
    }

    @Test func binaryDatesNoDocumentMayHoldAreRefused() throws {
        let context = EditingContext(schema: try StoreTestSchemas.allTypes())
        try context.setValue(.date(Date(timeIntervalSinceReferenceDate: .infinity)), forKey: "date", of: try context.insert("Sample"))
        let bytes = try BinaryStore.encode(context.graph.snapshot(), metadata: StoreMetadata(format: .binary), level: 1)
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(bytes, schema: nil, file: "d.outline") }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message
                == "Sample.date of object z102 is the date inf (seconds since 2001), which is not a finite time between the years 0 and 9999, which is all a document may hold"
        )
    }

    /// A save checks the limits before the temporary file replaces anything: the document on
    /// disk is untouched and nothing is left beside it.
    @Test(arguments: [DocumentFormat.binary, .xml])
    func aSaveOverALimitWritesNothing(_ format: DocumentFormat) throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/doc.outline"
        let store = PersistentStore(schema: try StoreTestSchemas.allTypes(), path: path, format: format)
        try store.context.insert("Sample")
        try store.save()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try store.context.setValue(.date(Date(timeIntervalSinceReferenceDate: .nan)), forKey: "date", of: try store.context.insert("Sample"))
        let error = #expect(throws: StorageError.self) { try store.save() }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.description
                == "\(path): Sample.date of z103: the date nan (seconds since 2001) is not a finite time between the years 0 and 9999, which is all a document may hold. Correct it and save again; nothing was written."
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["doc.outline"])
    }

    /// The check reads the columns a page at a time: it finds the first live row over a limit
    /// on any page, and passes over deleted objects and values set back to nil.
    @Test func theSaveCheckFindsTheFirstLiveValueOverALimitOnAnyPage() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let store = PersistentStore(schema: try StoreTestSchemas.allTypes(), path: folder + "/doc.outline", format: .binary)
        let context = store.context
        var samples: [ManagedObject] = []
        for _ in 0 ..< 3 * PagedArray<Bool>.pageSize { samples.append(try context.insert("Sample")) }
        let bad = Value.date(Date(timeIntervalSinceReferenceDate: .nan))
        try context.setValue(bad, forKey: "date", of: samples[10])
        try context.delete(samples[10])
        try context.setValue(bad, forKey: "date", of: samples[5_000])
        try context.setValue(nil, forKey: "date", of: samples[5_000])
        try context.setValue(bad, forKey: "date", of: samples[9_000])
        try context.setValue(bad, forKey: "date", of: samples[11_000])
        let error = #expect(throws: StorageError.self) { try store.save() }
        let id = context.objectID(of: samples[9_000]).rawValue
        #expect(error?.description.contains(": Sample.date of z\(id): the date nan ") == true, "\(String(describing: error))")
        try context.setValue(nil, forKey: "date", of: samples[9_000])
        try context.setValue(nil, forKey: "date", of: samples[11_000])
        try store.save()
    }
}
