import OutlineEngine
import OutlineKit
import OutlineStorage

/// The libraries say what to do in their own terms (an app embedding them has no command
/// line); where the tool has an option or a command for the remedy, it names it instead.
enum CommandLineAdvice {
    /// `error` with the tool's advice where the tool has a better one, else unchanged.
    static func adapted(_ error: any Error) -> any Error {
        switch error {
        case var error as StorageError where error.code == .missingModel || error.code == .incompatibleModel:
            error.hint = sentences(error.hint, "Name that model with --model PATH.")
            return error
        case var error as OutlineError:
            switch error.code {
            case .notAnOutline:
                error.hint = "Pass the data model the document was written with (--model) to inspect or convert it."
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

    private static func sentences(_ first: String?, _ second: String) -> String {
        guard let first, !first.isEmpty else { return second }
        return first + " " + second
    }
}
