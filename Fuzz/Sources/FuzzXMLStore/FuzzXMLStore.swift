import Foundation
import FuzzSupport
import OutlineEngine
import OutlineStorage

// Core Data XML stores through `PersistentStore.load`, the entry point of `outline` and
// `OutlineDocument`: without a model (the embedded one, or one derived from the file) and with
// the nested-list model most fixtures use; and the metadata alone through `XMLStore.readMetadata`.
// A store that loads is saved in every format (binary and XML, as the store's save does: a
// model derived from the file is embedded, the file's hashes kept) and must read back
// (`WriteAfterRead`). `Dictionaries/xml.dict` holds numbers at their edges (ids past 2^62 and
// 2^64, `nan`, `inf`, dates past the year 9999, ...).

func load(_ bytes: [UInt8], schema: Schema?) {
    Expect.moduleErrorsOnly("PersistentStore.load") {
        let store = try PersistentStore.load(bytes, schema: schema, name: "fuzz.xml")
        guard store.format == .xml else { return }
        WriteAfterRead.check(store, "xml")
    }
}

let nestedList = FuzzFixtures.nestedList

/// One input; see the comment at the top.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](fuzzBytes(data, size))
    Expect.moduleErrorsOnly("XMLStore.readMetadata") {
        _ = try XMLStore.readMetadata(bytes, file: "fuzz.xml")
    }
    load(bytes, schema: nil)
    load(bytes, schema: nestedList)
    return 0
}

/// Hands `fuzzXMLStore` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzXMLStore) }
