import Foundation

/// A failure of the benchmark itself (not of the code measured): what went wrong, in words.
struct BenchmarkError: Error, CustomStringConvertible, LocalizedError {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
    var errorDescription: String? { message }
}
