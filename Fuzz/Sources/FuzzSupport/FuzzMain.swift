internal import CLibFuzzer
import Foundation

/// The entry point of every harness: libFuzzer's driver with `testOneInput` as the target.
///
/// SwiftPM links an executable target's `main.swift` as the program's `main`, so libFuzzer's own
/// `main` is never used; this calls its driver instead, which reads libFuzzer's usual flags.
public enum FuzzMain {
    /// Runs libFuzzer's driver on `testOneInput` with the process's arguments and exits with
    /// its status.
    public static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
        exit(status)
    }
}

/// The bytes libFuzzer hands over, as a buffer (empty for a null pointer).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data, count: size)
}
