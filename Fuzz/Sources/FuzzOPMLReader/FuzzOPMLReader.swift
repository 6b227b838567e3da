import Foundation
import FuzzSupport
import OutlineKit
import OutlineStorage

// OPML through `OPMLReader.read(_:file:options:)`, the whole-file reader the OPML import uses,
// leniently (the default) and strictly with a small depth limit; then through `OPMLImporter`
// (what `outline convert` runs: RFC 822 and ISO 8601 dates, `expansionState` numbers, done and
// collapsed values), and what it imports is exported again in every interchange format, read
// back as OPML, and saved as a document in every store format (`WriteAfterRead`).
// `Dictionaries/opml.dict` holds dates and numbers at their edges.

/// One input; see the comment at the top.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOPMLReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let opml = Data(fuzzBytes(data, size))
    Expect.moduleErrorsOnly("OPMLReader.read") {
        _ = try OPMLReader.read(opml, file: "fuzz.opml")
    }
    Expect.moduleErrorsOnly("OPMLReader.read strict") {
        _ = try OPMLReader.read(opml, file: "fuzz.opml", options: .init(strict: true, maxDepth: 64))
    }
    Expect.moduleErrorsOnly("OPMLImporter.read") {
        do {
            try importAndExport(opml)
        } catch let error as OutlineError {
            if error.message.isEmpty { fatalError("OPMLImporter.read: OutlineError with an empty message: \(error)") }
        }
    }
    return 0
}

/// Imports `opml`, exports it in every format, imports the OPML again, saves it in every store format.
func importAndExport(_ opml: Data) throws {
    let imported = try OPMLImporter.read(opml, file: "fuzz.opml", options: ImportOptions(maxDepth: 64))
    for format in InterchangeFormat.allCases {
        let exported = try Interchange.write(imported.document, format: format, head: imported.head)
        if format == .opml {
            do {
                _ = try OPMLImporter.read(exported.data, file: "exported.opml", options: ImportOptions(maxDepth: 64))
            } catch {
                fatalError("an imported outline exported as OPML does not import again: \(error)")
            }
        }
    }
    let store = PersistentStore(context: imported.document.context)
    WriteAfterRead.check(store, "opml")
}

/// Hands `fuzzOPMLReader` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzOPMLReader) }
