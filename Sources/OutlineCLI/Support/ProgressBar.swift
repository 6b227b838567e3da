import Foundation
import OutlineKit
import OutlineTool

/// A one-line progress display on standard error for long work (convert and migrate): the
/// file being read or written, and a bar while objects are migrated. Drawn only when
/// standard error is a terminal, and cleared when done.
final class ProgressBar {
    private let isEnabled: Bool
    private var lastDrawn: String?
    private var lastPermille = -1
    private static let width = 30

    init(enabled: Bool = Console.standardErrorIsTerminal) {
        isEnabled = enabled
    }

    /// The closure to hand to the libraries; nil when nothing is drawn.
    var handler: ((WorkProgress) -> Void)? {
        isEnabled ? { [weak self] progress in self?.update(progress) } : nil
    }

    func update(_ progress: WorkProgress) {
        switch progress {
        case .reading(let file): draw("reading \(file)…")
        case .writing(let file): draw("writing \(file)…")
        case .migrating(let step):
            let fraction = step.total > 0 ? min(1, Double(step.completed) / Double(step.total)) : 0
            let permille = Int(fraction * 1000)
            let phase = "migrating: \(step.phase.rawValue)" + (step.steps > 1 ? " (step \(step.step) of \(step.steps))" : "")
            guard permille != lastPermille || lastDrawn?.hasSuffix(phase) != true else { return }
            lastPermille = permille
            let filled = Int(fraction * Double(Self.width))
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: Self.width - filled)
            draw("[\(bar)] \(String(permille / 10).leftPadded(to: 3))% \(phase)")
        }
    }

    /// Clears the line, if anything was drawn.
    func finish() {
        guard isEnabled, lastDrawn != nil else { return }
        write("\r\u{1B}[K")
        lastDrawn = nil
    }

    private func draw(_ line: String) {
        guard isEnabled, line != lastDrawn else { return }
        lastDrawn = line
        write("\r\u{1B}[K" + line)
    }

    private func write(_ text: String) {
        Console.writeError(text)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
