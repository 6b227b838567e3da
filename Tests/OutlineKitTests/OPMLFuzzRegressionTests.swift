import Foundation
import OutlineStorage
import Testing

@testable import OutlineKit

/// The OPML inputs kept from fuzzing (`Fixtures/Fuzz/opml/`) through the outline import the OPML
/// harness runs after the reader: each imports, or fails with a message, and what imports is
/// exported in every interchange format and imported again from OPML, never trapping.
@Suite struct OPMLFuzzRegressionTests {
    static let folder = InterchangeFixtures.folder.appending(path: "Fuzz/opml")

    static let inputs: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    @Test(arguments: inputs)
    func importsExportsAndImportsAgainOrFailsCleanly(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appending(path: name))
        let imported: ImportedOutline
        do {
            imported = try OPMLImporter.read(data, file: name, options: ImportOptions(maxDepth: 64))
        } catch let error as StorageError {
            #expect(!error.message.isEmpty)
            return
        } catch let error as OutlineError {
            #expect(!error.message.isEmpty)
            return
        }
        for format in InterchangeFormat.allCases {
            let exported = try Interchange.write(imported.document, format: format, head: imported.head)
            if format == .opml { _ = try OPMLImporter.read(exported.data, file: "exported.opml", options: ImportOptions(maxDepth: 64)) }
        }
    }
}
