import Foundation
import FuzzSupport
import OutlineEngine
import OutlineStorage

// Xcode model `contents` documents through `ModelReader.read(path:in:)` (what `read(at:)` does
// after listing the folder) as one version of a `.xcdatamodel`. A model that reads gets its
// version hashes (deep inheritance included), is written by `ModelWriter` and must read back,
// and a document of it, embedding it, is saved in every format and must read back
// (`WriteAfterRead`).

/// One input; see the comment at the top.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let contents = Data(fuzzBytes(data, size))
    Expect.moduleErrorsOnly("ModelReader.read") {
        let bundle = try ModelReader.read(path: "Fuzz.xcdatamodel", in: ["Fuzz.xcdatamodel/contents": contents])
        let schema = try bundle.current
        _ = schema.versionHash
        for entity in schema.entityIndices { _ = schema.versionHash(ofEntity: entity) }
        do {
            _ = try ModelReader.readSchema(contents: ModelWriter.data(of: schema), name: "Fuzz", file: "rewritten")
        } catch {
            fatalError("a model that reads does not read back once written: \(error)")
        }
        WriteAfterRead.check(PersistentStore(schema: schema), "model")
    }
    return 0
}

/// Hands `fuzzModelReader` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzModelReader) }
