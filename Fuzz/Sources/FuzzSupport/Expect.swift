import OutlineEngine
import OutlineStorage

/// What a harness accepts from the code under test: success, or the module's own error type
/// with a message. Anything else is a finding, so it stops the process where libFuzzer sees it.
public enum Expect {
    /// Runs `body`; a thrown ``StorageError`` or ``EngineError`` with a non-empty description
    /// is fine, any other error traps with its type and text.
    public static func moduleErrorsOnly(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as StorageError {
            check(!error.message.isEmpty && !error.description.isEmpty, what, error)
        } catch let error as EngineError {
            check(!error.description.isEmpty, what, error)
        } catch {
            fatalError("\(what): threw \(type(of: error)), not the module's error type: \(error)")
        }
    }

    private static func check(_ condition: Bool, _ what: String, _ error: any Error) {
        if !condition { fatalError("\(what): \(type(of: error)) with an empty message: \(error)") }
    }
}
