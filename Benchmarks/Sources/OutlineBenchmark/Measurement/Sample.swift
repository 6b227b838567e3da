import Dispatch

/// The timings of one operation: every counted run, in milliseconds, in the order they ran.
struct Sample: Sendable {
    let runs: [Double]

    /// The middle run (the mean of the two middle runs for an even count).
    var median: Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var fastest: Double { runs.min() ?? .nan }
    var slowest: Double { runs.max() ?? .nan }
}

/// Milliseconds of the monotonic clock since an arbitrary start.
func milliseconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e6
}
