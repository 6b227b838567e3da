import OutlineKit
import OutlineStorage

/// The tool's own hints for errors whose library hints stay neutral: the libraries do not know
/// this tool's flags and commands, so the tool names them here, by error code.
enum ErrorHints {
    /// `error` with a hint that names the flag or command to use, when its code has one.
    static func mapped(_ error: any Error) -> any Error {
        switch error {
        case var error as OutlineError where error.code == .notAnOutline:
            let file = error.file.map { "outline dump \(quoted($0))" } ?? "outline dump FILE"
            error.hint = "Run `\(file)` to list its objects; info, validate, migrate and convert (to binary or XML) work on it too."
            return error
        case var error as StorageError where error.code == .missingModel:
            error.hint = "Pass the model it was written with (--model MODEL), or leave --model out to read it with a model derived from the file."
            return error
        case var error as StorageError where error.code == .noCurrentVersion:
            error.hint = "Choose one with --version NAME (or --to NAME to migrate), or name the current one in the bundle's .xccurrentversion."
            return error
        default:
            return error
        }
    }

    /// `name`, quoted for a shell when it holds anything but plain characters.
    private static func quoted(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || "._-/+".contains($0) }
        return plain ? name : "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
