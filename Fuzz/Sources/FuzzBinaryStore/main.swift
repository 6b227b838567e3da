import Foundation
import FuzzSupport

let environment = ProcessInfo.processInfo.environment
if let directory = environment["OUTLINE_FUZZ_STORED_SEEDS"] {
    writeStoredSeeds(directory)
}
if environment["OUTLINE_FUZZ_RESEAL"] != nil {
    // A tool, not a fuzzer: writes FILE.resealed beside each FILE given, to keep a finding
    // that needed resealing as a fixture that reproduces on its own.
    for path in CommandLine.arguments.dropFirst() {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let resealed = bytes.withUnsafeBytes { Reseal.resealed($0) } ?? [UInt8](bytes)
        try Data(resealed).write(to: URL(fileURLWithPath: path + ".resealed"))
    }
    exit(0)
}
runFuzzer()
