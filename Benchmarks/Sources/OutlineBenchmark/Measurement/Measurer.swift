import Foundation

/// Runs an operation a few times and keeps the median: first `warmups` runs that are not
/// counted (they fault in code and the page cache), then `runs` counted ones.
///
/// Each run may have an untimed `prepare` step (removing last run's output, making a fresh
/// copy to edit), so that every timed run does the same work.
struct Measurer {
    let runs: Int
    let warmups: Int
    /// Prints a line per operation to standard error (the report goes to standard output).
    let log: Log

    /// Times `body` and logs `label` with the median and the spread.
    ///
    /// - Throws: whatever `prepare` or `body` throws; the measurement then stops.
    func measure(_ label: String, prepare: () throws -> Void = {}, run body: () throws -> Void) throws -> Sample {
        for _ in 0 ..< warmups {
            try prepare()
            try body()
        }
        var times: [Double] = []
        times.reserveCapacity(runs)
        for _ in 0 ..< runs {
            try prepare()
            let start = milliseconds()
            try body()
            times.append(milliseconds() - start)
        }
        return logged(label, Sample(runs: times))
    }

    /// Times a cycle of steps that depend on each other (add, then move, then remove) round
    /// after round, and returns one sample per step.
    ///
    /// - Parameter steps: a label and an operation each, run in order in every round.
    func measureCycle(_ steps: [(label: String, body: () throws -> Void)]) throws -> [Sample] {
        var times = [[Double]](repeating: [], count: steps.count)
        for round in 0 ..< warmups + runs {
            for (index, step) in steps.enumerated() {
                let start = milliseconds()
                try step.body()
                if round >= warmups { times[index].append(milliseconds() - start) }
            }
        }
        return zip(steps, times).map { logged($0.label, Sample(runs: $1)) }
    }

    /// Logs a sample the caller timed itself (a figure that is not a run's wall time).
    func record(_ label: String, _ sample: Sample) -> Sample {
        logged(label, sample)
    }

    private func logged(_ label: String, _ sample: Sample) -> Sample {
        let spread = sample.runs.map { String(format: "%.0f", $0) }.joined(separator: " ")
        log.line(
            "  " + label.padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(format: "%10.1f ms", sample.median) + "  (runs \(spread))")
        return sample
    }
}

/// Progress lines on standard error, so that standard output holds only the report.
struct Log: Sendable {
    let quiet: Bool

    func line(_ text: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
