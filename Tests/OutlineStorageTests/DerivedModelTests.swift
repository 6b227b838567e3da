import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Stores read without their model: the derived model is marked, embedded in what is written,
/// and the hashes of the app's own model survive every conversion.
@Suite struct DerivedModelTests {
    static func fixture(_ relative: String) -> String {
        Fixtures.folder.appending(path: "XML").appending(path: relative).path
    }

    static let stores = ["Foreign/XcodeMappingModel.xml", "Foreign/SpeechCommands.xml", "Foreign/Recipes.xml", "Real/Vehicles.xml"]

    @Test(arguments: stores)
    func readingWithoutAModelMarksTheSchemaDerivedAndKeepsTheFilesHashes(fixture: String) throws {
        let path = Self.fixture(fixture)
        let store = try PersistentStore.open(path)
        let recorded = try PersistentStore.readMetadata(path).versionHashes
        #expect(store.metadata.isSchemaDerived)
        #expect(store.metadata.embeddedSchema == nil)
        #expect(store.metadata.sourceVersionHashes == recorded)
    }

    /// Deriving a model keeps names in small tables: a file with more distinct entities or
    /// properties than any model has is refused at once instead of taking minutes.
    @Test(arguments: [true, false])
    func tooManyDerivedNamesAreRefused(entities: Bool) throws {
        let text = try String(contentsOfFile: Self.fixture("Foreign/Recipes.xml"), encoding: .utf8)
        let first = try #require(text.range(of: "<object "))
        let count = 1_001
        let objects =
            entities
            ? (0 ..< count).map { "<object type=\"T\($0)\" id=\"z\(900 + $0)\"></object>" }.joined()
            : "<object type=\"WIDE\" id=\"z900\">"
                + (0 ..< count).map { "<attribute name=\"a\($0)\" type=\"string\">x</attribute>" }.joined() + "</object>"
        let hostile = text[..<first.lowerBound] + objects + text[first.lowerBound...]
        let error = #expect(throws: StorageError.self) { try PersistentStore.load(Array(hostile.utf8), name: "wide.xml") }
        #expect(error?.code == .limitExceeded)
        let what = entities ? "entities" : "properties of WIDE"
        #expect(error?.message.hasPrefix("the store has more than 1000 \(what)") == true, "\(String(describing: error))")
    }

    /// libxml2 hands `&amp;` in an attribute over as `&#38;`: names read from attributes are
    /// decoded, so a property or entity named with `&` reads as written and saves back so.
    @Test func namesWithAnAmpersandReadAsWrittenAndSaveBack() throws {
        var text = try String(contentsOfFile: Self.fixture("Foreign/Recipes.xml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "name=\"unit\"", with: "name=\"uni&amp;t\"")
        text = text.replacingOccurrences(of: "type=\"INGREDIENT\"", with: "type=\"IN&#38;GREDIENT\"")
        let store = try PersistentStore.load(Array(text.utf8), name: "amp.xml")
        let entity = try #require(store.schema.entities.first { $0.name.contains("&") })
        #expect(entity.name.uppercased() == "IN&GREDIENT")
        #expect(store.schema.entities.contains { $0.attributes.contains { $0.name == "uni&t" } })
        for format in [DocumentFormat.xml, .binary] {
            let reopened = try PersistentStore.load(try store.encoded(as: format), name: "again")
            #expect(reopened.schema == store.schema, "\(format)")
            #expect(snapshot(reopened.context.graph) == snapshot(store.context.graph), "\(format)")
        }
    }

    @Test(arguments: stores)
    func aStoreSavedAfterOpeningWithoutAModelReopensWithoutOne(fixture: String) throws {
        let original = try PersistentStore.open(Self.fixture(fixture))
        for format in [DocumentFormat.xml, .binary] {
            let bytes = try original.encoded(as: format)
            let reopened = try PersistentStore.load(bytes)
            #expect(reopened.metadata.isSchemaDerived, "\(format)")
            #expect(reopened.metadata.embeddedSchema == original.schema, "\(format): the derived model is embedded")
            #expect(reopened.metadata.sourceVersionHashes == original.metadata.sourceVersionHashes, "\(format)")
            #expect(snapshot(reopened.context.graph) == snapshot(original.context.graph), "\(format)")
            #expect(try reopened.encoded(as: format) == bytes, "\(format): writing it again gives the same bytes")
            #expect(
                try PersistentStore.load(bytes, schema: original.schema).context.graph.objectCount == original.context.graph.objectCount,
                "\(format): the embedded derived model given back opens it too")
        }
    }

    @Test func recipesWithItsModelWritesBackByteForByte() throws {
        let path = Self.fixture("Foreign/Recipes.xml")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let model = try ModelReader.read(at: Fixtures.model("Recipes.xcdatamodel")).current
        let (graph, metadata) = try XMLStore.read(bytes, schema: model, file: "Recipes.xml")
        #expect(!metadata.isSchemaDerived)
        #expect(XMLStore.write(graph, metadata: metadata) == bytes)
    }

    @Test func xmlWrittenFromABinaryOfADerivedModelCarriesTheOriginalHashes() throws {
        let path = Self.fixture("Foreign/XcodeMappingModel.xml")
        let original = try PersistentStore.open(path)
        let binary = try PersistentStore.load(try original.encoded(as: .binary))
        #expect(
            binary.metadata.versionHashes == binary.schema.entityVersionHashes,
            "a binary document's hashes describe the model its body follows")
        #expect(binary.metadata.custom.isEmpty, "the mark is not a custom key")
        let xml = try PersistentStore.load(try binary.encoded(as: .xml))
        #expect(xml.metadata.versionHashes == (try PersistentStore.readMetadata(path)).versionHashes)
    }

    @Test func aDerivedMarkOfTheWrongTypeIsReportedWithItsLine() throws {
        var text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.fixture("Foreign/XcodeMappingModel.xml"))), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "                    <key>NSStoreModelVersionHashesVersion</key>",
            with: "                    <key>OutlineDerivedModel</key>\n                    <string>yes</string>\n"
                + "                    <key>NSStoreModelVersionHashesVersion</key>")
        let error = #expect(throws: StorageError.self) { try PersistentStore.load(Array(text.utf8), name: "mark.xml") }
        #expect(error?.code == .corrupt)
        #expect(
            error?.description == "mark.xml: line 48: the metadata value of OutlineDerivedModel is not a dictionary of data. "
                + "The metadata property list is damaged; restore the file from a backup if there is one.")
    }
}
