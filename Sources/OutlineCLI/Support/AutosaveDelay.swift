import Foundation

/// How long typing must pause before the full-screen editor saves on its own.
enum AutosaveDelay {
    /// The environment variable that sets the pause, in seconds.
    static let variable = "OUTLINE_AUTOSAVE_SECONDS"

    /// The pause when none (or no usable number) is set.
    static let standard: Duration = .seconds(2)

    /// `OUTLINE_AUTOSAVE_SECONDS` when it holds a number of seconds from 0.1 to a day, else
    /// 2 seconds.
    static var quietPeriod: Duration {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Double(text),
            value.isFinite, value >= 0.1, value <= 86_400
        else { return standard }
        return .milliseconds(Int((value * 1000).rounded()))
    }
}
