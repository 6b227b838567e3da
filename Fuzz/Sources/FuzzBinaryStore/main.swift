import Foundation
import FuzzSupport

if let directory = ProcessInfo.processInfo.environment["OUTLINE_FUZZ_STORED_SEEDS"] {
    writeStoredSeeds(directory)
}

runFuzzer()
