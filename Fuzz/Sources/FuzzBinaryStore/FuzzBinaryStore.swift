import Foundation
import FuzzSupport
import OutlineEngine
import OutlineStorage

// Binary documents (`Docs/BinaryFormat.md`) through `PersistentStore.load`, the entry point of
// `outline` and `OutlineDocument`: each input as it is, then resealed (checksums recomputed) so
// mutations get past the CRCs, and the header alone through `BinaryStore.readMetadata`. A
// document that loads is saved in every format (binary and XML) and must read back
// (`WriteAfterRead`). Header mutations reach the limits of `StoreLimits` (declared objects and
// inflated size against the compressed size: ratio bombs); `Dictionaries/binary.dict` holds
// numbers at their edges in the encodings the format uses. Its undo history
// (the body's history section, `Docs/UndoHistory.md`) is taken over first, and one that is
// taken over must be taken over again from what is written.
//
// With OUTLINE_FUZZ_STORED_SEEDS=DIR, every document in DIR that loads is first written beside
// itself at compression level 0 (`stored-NAME`): stored zlib blocks hold the body's bytes as
// they are, so the fuzzer can mutate the body and `Reseal` can fix its Adler-32.

func check(_ bytes: UnsafeRawBufferPointer) {
    Expect.moduleErrorsOnly("BinaryStore.readMetadata") {
        _ = try BinaryStore.readMetadata(bytes, file: "fuzz.outline")
    }
    Expect.moduleErrorsOnly("PersistentStore.load") {
        let store = try PersistentStore.load([UInt8](bytes), name: "fuzz.outline")
        guard store.format == .binary else { return }
        _ = store.restoreHistory()
        WriteAfterRead.check(store, "binary")
    }
}

func writeStoredSeeds(_ directory: String) {
    let folder = URL(fileURLWithPath: directory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where !name.hasPrefix("stored-") {
        guard let bytes = try? [UInt8](Data(contentsOf: folder.appendingPathComponent(name))),
            let store = try? PersistentStore.load(bytes, name: name), store.format == .binary,
            let stored = try? BinaryStore.write(store.context.graph, metadata: store.metadata, level: 0)
        else { continue }
        try? Data(stored).write(to: folder.appendingPathComponent("stored-\(name)"))
    }
}

/// One input; see the comment at the top.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    check(bytes)
    if let resealed = Reseal.resealed(bytes) {
        resealed.withUnsafeBytes { check($0) }
    }
    return 0
}

/// Hands `fuzzBinaryStore` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzBinaryStore) }
