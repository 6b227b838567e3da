import Foundation
import FuzzSupport
import OutlineEngine
import OutlineStorage

// Core Data XML stores through `PersistentStore.load`, the entry point of `outline` and
// `OutlineDocument`: without a model (the embedded one, or one derived from the file) and with
// the nested-list model most fixtures use; and the metadata alone through `XMLStore.readMetadata`.
// A store that loads is written again and must read back; its undo history (the metadata key
// `OutlineUndoHistory`) is decoded and checked against the objects.

func load(_ bytes: [UInt8], schema: Schema?) {
    Expect.moduleErrorsOnly("PersistentStore.load") {
        let store = try PersistentStore.load(bytes, schema: schema, name: "fuzz.xml")
        guard store.format == .xml else { return }
        // The undo history under the metadata key is decoded and checked only when asked for.
        _ = store.restoreHistory()
        // As the store's save does, but with the schema's own hashes: a store read with a model
        // derived from the file keeps the file's hashes, which that model need not match.
        var metadata = store.metadata
        if metadata.embeddedSchema == nil { metadata.embeddedSchema = store.schema }
        metadata.versionHashes = [:]
        let written = XMLStore.write(store.context.graph, metadata: metadata)
        do {
            _ = try XMLStore.read(written, schema: store.schema, file: "rewritten.xml")
        } catch {
            fatalError("a store that loads does not read back once written: \(error)")
        }
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
