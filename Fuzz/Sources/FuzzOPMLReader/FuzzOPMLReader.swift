import Foundation
import FuzzSupport
import OutlineStorage

// OPML through `OPMLReader.read(_:file:options:)`, the whole-file reader the OPML import uses,
// leniently (the default) and strictly with a small depth limit.

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
    return 0
}

/// Hands `fuzzOPMLReader` to libFuzzer's driver (from this file, so its C entry point is emitted once).
func runFuzzer() -> Never { FuzzMain.run(fuzzOPMLReader) }
