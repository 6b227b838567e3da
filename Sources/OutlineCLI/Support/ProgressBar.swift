import Foundation
import OutlineEngine

/// A one-line progress bar on standard error for long work (migrations during convert and
/// migrate), drawn only when standard error is a terminal and cleared when done.
final class ProgressBar {
    private let isEnabled: Bool
    private var lastDrawn: (permille: Int, phase: String)?
    private static let width = 30

    init(enabled: Bool = Console.standardErrorIsTerminal) {
        isEnabled = enabled
    }

    /// The closure to hand to the libraries, nil when nothing is drawn.
    var handler: ((MigrationProgress) -> Void)? {
        isEnabled ? { [weak self] progress in self?.update(progress) } : nil
    }

    func update(_ progress: MigrationProgress) {
        guard isEnabled else { return }
        let fraction = progress.total > 0 ? min(1, Double(progress.completed) / Double(progress.total)) : 0
        let permille = Int(fraction * 1000)
        let phase = progress.phase.rawValue
        if let last = lastDrawn, last.permille == permille, last.phase == phase { return }
        lastDrawn = (permille, phase)
        let filled = Int(fraction * Double(Self.width))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: Self.width - filled)
        let step = progress.steps > 1 ? " (step \(progress.step) of \(progress.steps))" : ""
        write("\r\u{1B}[K[\(bar)] \(permille / 10)% migrating: \(phase)\(step)")
    }

    /// Clears the line, if anything was drawn.
    func finish() {
        guard isEnabled, lastDrawn != nil else { return }
        write("\r\u{1B}[K")
        lastDrawn = nil
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
