import Foundation
import OutlineEngine
import OutlineStorage

/// What a harness accepts from the code under test: success, or the module's own error type
/// with a message. Anything else is a finding, so it stops the process where libFuzzer sees it.
public enum Expect {
    /// With OUTLINE_FUZZ_PRINT set, every outcome is printed to standard error, one line each
    /// (`what: ok` or `what: CODE: message`), to triage a corpus: run the harness on its files.
    static let prints = ProcessInfo.processInfo.environment["OUTLINE_FUZZ_PRINT"] != nil

    /// Runs `body`; a thrown ``StorageError`` or ``EngineError`` with a non-empty description
    /// is fine, any other error traps with its type and text.
    public static func moduleErrorsOnly(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
            if prints { report("\(what): ok") }
        } catch let error as StorageError {
            check(!error.message.isEmpty && !error.description.isEmpty, what, error)
            if prints { report("\(what): \(error.code): \(error.description)") }
        } catch let error as EngineError {
            check(!error.message.isEmpty && !error.description.isEmpty, what, error)
            if prints { report("\(what): \(error.code): \(error.description)") }
        } catch {
            fatalError("\(what): threw \(type(of: error)), not the module's error type: \(error)")
        }
    }

    private static func check(_ condition: Bool, _ what: String, _ error: any Error) {
        if !condition { fatalError("\(what): \(type(of: error)) with an empty message: \(error)") }
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data((line.replacingOccurrences(of: "\n", with: " | ") + "\n").utf8))
    }
}
