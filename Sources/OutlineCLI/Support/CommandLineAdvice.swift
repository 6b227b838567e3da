import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTool

/// The libraries say what to do in their own terms (an app embedding them has no command
/// line); where the tool has an option or a command for the remedy, it names it instead.
enum CommandLineAdvice {
    /// `error` with the tool's advice where the tool has a better one, else unchanged;
    /// `arguments` (the command line, when known) let the advice fit what was typed.
    static func adapted(_ error: any Error, arguments: [String] = []) -> any Error {
        switch error {
        case var error as StorageError:
            switch error.code {
            case .missingModel:
                let gaveModel = arguments.contains { $0 == "--model" || $0.hasPrefix("--model=") }
                error.hint =
                    gaveModel
                    ? "Pass the model it was written with (--model MODEL), or leave --model out to read it with a model derived from the file."
                    : "Pass the model it was written with (--model MODEL)."
            case .noCurrentVersion:
                error.hint =
                    "Choose one with --model-version NAME (or --to NAME to migrate), or name the current one in the bundle's .xccurrentversion."
            case _ where isAboutHistory(error):
                let history = error.file.map { "outline history \(shellQuoted($0)) --clear" } ?? "outline history FILE --clear"
                error.hint = "The document itself is fine: `\(history)` drops the undo history, and the next change starts a new one."
            default:
                break
            }
            return error
        case var error as OutlineError:
            switch error.code {
            case .notAnOutline:
                let dump = error.file.map { "outline dump \(shellQuoted($0))" } ?? "outline dump FILE"
                error.hint = "Run `\(dump)` to list its objects; info, validate, migrate and convert (to binary or XML) work on it too."
            case .notInThisVersion:
                error.hint = "Migrate the document to the current version first (`outline migrate FILE`)."
            case .noSuchItem where error.location?.hasPrefix("#") == true:
                error.hint = "Run `outline show FILE --ids` to see the ids."
            case .invalidItemReference where error.location?.hasPrefix("#") == true:
                error.hint = "Write an id as # followed by the number `outline show --ids` prints, such as #102."
            default:
                break
            }
            return error
        default:
            return error
        }
    }

    /// Whether `error` is about a document's undo history rather than the document.
    private static func isAboutHistory(_ error: StorageError) -> Bool {
        error.code == .historyMismatch || error.location?.hasPrefix("history byte") == true
            || error.location?.contains(StoreMetadata.undoHistoryKey) == true
    }

    /// `name`, quoted for a shell when it holds anything but plain characters.
    private static func shellQuoted(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || "._-/+".contains($0) }
        return plain ? name : "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
