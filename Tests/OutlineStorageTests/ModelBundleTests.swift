import Foundation
import OutlineEngine
import OutlineStorage
import Testing

@Suite struct ModelBundleTests {
    static func version(_ name: String, _ attributes: [String]) throws -> Schema {
        try Schema(name: name, entities: [Entity(name: "Note", attributes: attributes.map { Attribute(name: $0, type: .string) })])
    }

    @Test func versionsSortWithNumbersComparedByValue() throws {
        let bundle = ModelBundle(
            name: "Model",
            versions: [
                try Self.version("Model 10", ["a"]), try Self.version("Model 2", ["b"]), try Self.version("Model", ["c"]),
            ], currentVersionName: "Model 2")
        #expect(bundle.versions.map(\.name) == ["Model", "Model 2", "Model 10"])
        #expect(try bundle.current.name == "Model 2")
    }

    @Test func storeHashesFindTheVersionsThatOpenTheStoreUnchanged() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("Library.xcdatamodeld"))
        let first = try #require(bundle.version(named: "Library"))
        #expect(bundle.versions(matchingEntityHashes: first.entityVersionHashes).map(\.name) == ["Library"])
        #expect(bundle.versions(matchingEntityHashes: try bundle.current.entityVersionHashes).map(\.name) == ["Library 2"])
        #expect(bundle.versions(matchingEntityHashes: [:]).isEmpty)
    }

    @Test func byteIdenticalVersionsBothMatch() throws {
        let files = [
            "Twin.xcdatamodeld/Twin.xcdatamodel/contents": ModelReaderTests.minimalModel,
            "Twin.xcdatamodeld/Twin 2.xcdatamodel/contents": ModelReaderTests.minimalModel,
            "Twin.xcdatamodeld/.xccurrentversion": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Twin.xcdatamodel</string></dict></plist>
            """,
        ]
        let bundle = try ModelReader.read(path: "Twin.xcdatamodeld", in: files)
        #expect(bundle.currentVersionName == "Twin", "the current version need not be the newest")
        #expect(bundle.versions(matchingEntityHashes: try bundle.current.entityVersionHashes).count == 2)
    }
}
